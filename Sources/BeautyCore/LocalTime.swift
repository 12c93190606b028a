import Foundation

/// Turns a wall-clock date and time in a zone into an instant, the way a person means it:
/// a time skipped by a DST jump resolves to the first valid instant after it, and a time
/// that occurs twice resolves to its first occurrence.
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
        let cal = calendar(zone)
        let wanted = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let guess = cal.date(from: wanted) else { return nil }
        let fields: Set<Calendar.Component> = [.year, .month, .day, .hour, .minute, .second]
        let wall = { (date: Date) in cal.dateComponents(fields, from: date) }
        let target = wall(guess)
        if target.year == year, target.month == month, target.day == day, target.hour == hour,
           target.minute == minute, target.second == second {
            // A repeated hour (fall back) has two instants with this wall time: take the earlier.
            for shift in [-3600.0, -1800.0] where wall(guess.addingTimeInterval(shift)) == target {
                return guess.addingTimeInterval(shift)
            }
            return guess
        }
        // The wall time does not exist (spring forward): the zone's transition is the first valid instant after it.
        if let transition = zone.nextDaylightSavingTimeTransition(after: guess.addingTimeInterval(-86_400)),
           transition <= guess {
            return transition
        }
        return guess
    }

    /// As `instant`, but a wall time skipped by a DST jump is read with the UTC offset in force
    /// before the jump (RFC 5545, 3.3.5): it lands as far after the jump as it lies after the gap's
    /// start (02:30 in a 02:00 -> 03:00 jump is 03:30), so two times in one gap stay two instants.
    public static func instantShiftingGap(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, in zone: TimeZone
    ) -> Date? {
        guard let resolved = instant(year: year, month: month, day: day, hour: hour, minute: minute, in: zone) else { return nil }
        let shown = calendar(zone).dateComponents([.year, .month, .day, .hour, .minute], from: resolved)
        if shown.year == year, shown.month == month, shown.day == day, shown.hour == hour, shown.minute == minute {
            return resolved
        }
        let utc = TimeZone(identifier: "UTC")!
        guard let wall = calendar(utc).date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))
        else { return resolved }
        return wall.addingTimeInterval(-TimeInterval(zone.secondsFromGMT(for: resolved.addingTimeInterval(-1))))
    }

    /// Checks a wall-clock day exists (rejects 2026-02-30).
    public static func isValidDay(year: Int, month: Int, day: Int) -> Bool {
        let cal = calendar(TimeZone(identifier: "UTC")!)
        guard let date = cal.date(from: DateComponents(year: year, month: month, day: day, hour: 12)) else { return false }
        let c = cal.dateComponents([.year, .month, .day], from: date)
        return c.year == year && c.month == month && c.day == day
    }
}
