import Foundation

/// Turns a wall-clock date and time in a zone into an instant, by the one rule beautyd uses for
/// every wall time (appointments, series, doses, imported and typed times), RFC 5545 §3.3.5's:
/// a time skipped by a DST jump is read with the UTC offset in force before the jump (02:30 in
/// a 02:00 -> 03:00 jump is 03:30), and a time that occurs twice is its first occurrence.
public enum LocalTime {
    public static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        calendar.locale = Locale(identifier: "en_US_POSIX")
        return calendar
    }

    public static func instant(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, in zone: TimeZone
    ) -> Date? {
        if let date = arithmeticInstant(
            Fields(year: year, month: month, day: day, hour: hour, minute: minute, second: second), in: zone)
        {
            return date
        }
        let cal = calendar(zone)
        let wanted = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let guess = cal.date(from: wanted) else { return nil }
        let fields: Set<Calendar.Component> = [.year, .month, .day, .hour, .minute, .second]
        let wall = { (date: Date) in cal.dateComponents(fields, from: date) }
        let target = wall(guess)
        if target.year == year, target.month == month, target.day == day, target.hour == hour,
            target.minute == minute, target.second == second
        {
            // A repeated hour (fall back) has two instants with this wall time: take the earlier.
            for shift in [-3600.0, -1800.0] where wall(guess.addingTimeInterval(shift)) == target {
                return guess.addingTimeInterval(shift)
            }
            return guess
        }
        // The wall time does not exist (spring forward): read it with the offset before the jump,
        // so it lands as far after the jump as it lies after the gap's start, and two times in one
        // gap stay two instants.
        if let transition = zone.nextDaylightSavingTimeTransition(after: guess.addingTimeInterval(-86_400)),
            transition <= guess.addingTimeInterval(86_400),
            let asUTC = calendar(TimeZone(identifier: "UTC")!).date(from: wanted)
        {
            return asUTC.addingTimeInterval(-TimeInterval(zone.secondsFromGMT(for: transition.addingTimeInterval(-1))))
        }
        return guess
    }

    /// Whether the wall time exists in the zone (false in a DST gap and for impossible days).
    public static func exists(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, in zone: TimeZone
    ) -> Bool {
        guard
            let date = instant(year: year, month: month, day: day, hour: hour, minute: minute, second: second, in: zone)
        else { return false }
        if let shown = fields(of: date, in: zone) {
            return shown == Fields(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        }
        let shown = calendar(zone).dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return shown.year == year && shown.month == month && shown.day == day && shown.hour == hour
            && shown.minute == minute && shown.second == second
    }

    /// A wall time as `AppointmentRecurrence.startWall` keeps it: "2027-03-28T02:30:00".
    public static func wallText(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let y = String(year)
        return String(repeating: "0", count: max(0, 4 - y.count)) + y
            + "-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))"
    }

    /// The fields of a `wallText`; nil for any other text or a day the calendar does not have.
    public static func wallFields(_ text: String) -> DateComponents? {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == "T" || $0 == ":" })
        guard parts.count == 6, parts.allSatisfy({ $0.allSatisfy(\.isASCII) }) else { return nil }
        let n = parts.compactMap { Int($0) }
        guard n.count == 6, isValidDay(year: n[0], month: n[1], day: n[2]), n[3] < 24, n[4] < 60, n[5] < 60 else {
            return nil
        }
        return DateComponents(year: n[0], month: n[1], day: n[2], hour: n[3], minute: n[4], second: n[5])
    }

    /// The `wallText` of a wall time that does not exist in the zone (a series starting there keeps
    /// it as `startWall`); nil when it exists.
    public static func skippedWall(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int = 0, in zone: TimeZone
    ) -> String? {
        guard isValidDay(year: year, month: month, day: day),
            !exists(year: year, month: month, day: day, hour: hour, minute: minute, second: second, in: zone)
        else { return nil }
        return wallText(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// Checks a wall-clock day exists (rejects 2026-02-30).
    public static func isValidDay(year: Int, month: Int, day: Int) -> Bool {
        if year >= 1583 { return (1...12).contains(month) && (1...CivilTime.daysInMonth(year, month)).contains(day) }
        let cal = calendar(TimeZone(identifier: "UTC")!)
        guard let date = cal.date(from: DateComponents(year: year, month: month, day: day, hour: 12)) else {
            return false
        }
        let c = cal.dateComponents([.year, .month, .day], from: date)
        return c.year == year && c.month == month && c.day == day
    }
}
