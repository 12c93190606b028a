import Foundation

/// Wall clock and instants by arithmetic: the zone's offset (`secondsFromGMT(for:)`) and proleptic
/// Gregorian day counting (`CivilTime`), the same answers as Foundation's Gregorian calendar, which on
/// Linux costs microseconds a call (an export converts every instant of a hundred thousand events).
/// From 1583 on only: that calendar is Julian before October 1582, so earlier days go through it.
extension LocalTime {
    struct Fields: Equatable {
        var year, month, day, hour, minute, second: Int
    }

    /// 1583-01-01T00:00:00Z, the first instant the arithmetic answers.
    private static let firstArithmeticSecond = -12_212_553_600

    /// `date`'s wall-clock fields in `zone` (seconds rounded down); nil before 1583.
    static func fields(of date: Date, in zone: TimeZone) -> Fields? {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        guard seconds >= firstArithmeticSecond + 86_400 else { return nil }
        let wall = seconds + zone.secondsFromGMT(for: date)
        let days = CivilTime.floorDiv(wall, 86_400), secondOfDay = wall - days * 86_400
        let (year, month, day) = CivilTime.civil(days)
        return Fields(
            year: year, month: month, day: day, hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60,
            second: secondOfDay % 60)
    }

    /// `instant`'s rule by arithmetic, for fields within their ranges from 1583 on; nil otherwise.
    /// Assumes at most one offset change within a day either side, as every zone has.
    static func arithmeticInstant(_ f: Fields, in zone: TimeZone) -> Date? {
        guard f.year >= 1583, (1...12).contains(f.month), (1...CivilTime.daysInMonth(f.year, f.month)).contains(f.day),
            (0..<24).contains(f.hour), (0..<60).contains(f.minute), (0..<60).contains(f.second)
        else { return nil }
        let wall = CivilTime.days(f.year, f.month, f.day) * 86_400 + f.hour * 3600 + f.minute * 60 + f.second
        func offset(_ second: Int) -> Int {
            zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(second)))
        }
        let before = offset(wall - 86_400), after = offset(wall + 86_400)
        // The earlier of the instants showing this wall time: a repeated hour's first occurrence.
        for candidate in [wall - before, wall - after].sorted() where offset(candidate) == wall - candidate {
            return Date(timeIntervalSince1970: TimeInterval(candidate))
        }
        // Skipped by a jump: read with the offset in force before it.
        return Date(timeIntervalSince1970: TimeInterval(wall - before))
    }
}
