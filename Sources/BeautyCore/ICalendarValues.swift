import Foundation

// iCalendar property values (RFC 5545 §3.3): DATE, DATE-TIME, DURATION, UTC-OFFSET.

extension ICalendar {
    enum DateValue {
        case date(Wall)  // hour, minute and second are 0
        case dateTime(Wall, utc: Bool)

        var wall: Wall {
            switch self {
            case .date(let w), .dateTime(let w, _): return w
            }
        }
    }

    /// YYYYMMDD or YYYYMMDDTHHMMSS[Z], with the day checked against the calendar.
    static func dateValue(_ raw: String) -> DateValue? {
        let b = Array(raw.trimmingWhitespace().utf8)
        func number(_ from: Int, _ to: Int) -> Int? {
            guard b[from..<to].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return Int(String(decoding: b[from..<to], as: UTF8.self))
        }
        guard b.count == 8 || b.count == 15 || b.count == 16,
            let year = number(0, 4), let month = number(4, 6), let day = number(6, 8),
            LocalTime.isValidDay(year: year, month: month, day: day)
        else { return nil }
        if b.count == 8 { return .date(Wall(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)) }
        guard b[8] == UInt8(ascii: "T") || b[8] == UInt8(ascii: "t"),
            let hour = number(9, 11), let minute = number(11, 13), let second = number(13, 15),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        let utc = b.count == 16
        if utc, b[15] != UInt8(ascii: "Z"), b[15] != UInt8(ascii: "z") { return nil }
        // A leap second (60) is kept as the second before it.
        return .dateTime(
            Wall(year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59)), utc: utc)
    }

    struct Duration {
        var negative: Bool
        var days: Int  // nominal days, weeks included
        var seconds: Int  // exact seconds

        var exactSeconds: Int { (negative ? -1 : 1) * (days * 86_400 + seconds) }
    }

    /// RFC 5545 DURATION: [+-]P[nW][nD][T[nH][nM][nS]], e.g. -PT15M, P1D, -P0DT0H30M0S.
    /// (Weeks and days together, which RFC 2445 did not allow, are accepted.)
    static func duration(_ raw: String) -> Duration? {
        var rest = Substring(raw.trimmingWhitespace().uppercased())
        var negative = false
        if let sign = rest.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            rest = rest.dropFirst()
        }
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        var days = 0, seconds = 0, rank = -1
        var inTime = false, sawPart = false, sawTimePart = false
        while let next = rest.first {
            if next == "T" {
                guard !inTime else { return nil }
                inTime = true
                rest = rest.dropFirst()
                continue
            }
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 9, let value = Int(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            guard let unit = rest.first else { return nil }
            rest = rest.dropFirst()
            let unitRank: Int
            switch (unit, inTime) {
            case ("W", false): unitRank = 0; days += value * 7
            case ("D", false): unitRank = 1; days += value
            case ("H", true): unitRank = 2; seconds += value * 3600
            case ("M", true): unitRank = 3; seconds += value * 60
            case ("S", true): unitRank = 4; seconds += value
            default: return nil
            }
            guard unitRank > rank else { return nil }
            rank = unitRank
            sawPart = true
            sawTimePart = sawTimePart || inTime
        }
        // Nothing in beautyd lasts or reminds more than a century ahead.
        guard sawPart, !inTime || sawTimePart, days * 86_400 + seconds <= 36_525 * 86_400 else { return nil }
        return Duration(negative: negative, days: days, seconds: seconds)
    }

    /// ±HHMM or ±HHMMSS, as in TZOFFSETTO.
    static func utcOffset(_ raw: String) -> Int? {
        let text = raw.trimmingWhitespace()
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let digits = text.dropFirst()
        guard digits.count == 4 || digits.count == 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return nil
        }
        let values = stride(from: 0, to: digits.count, by: 2).map {
            Int(digits.dropFirst($0).prefix(2))!
        }
        guard values[0] < 24, values[1] < 60, values.count < 3 || values[2] < 60 else { return nil }
        let seconds = values[0] * 3600 + values[1] * 60 + (values.count > 2 ? values[2] : 0)
        return sign == "-" ? -seconds : seconds
    }

    /// The wall time shifted by whole days in the zone (keeping the clock time, the way RFC
    /// 5545 adds nominal days), then by exact seconds.
    static func adding(days: Int, seconds: Int, to date: Date, in zone: TimeZone) -> Date {
        guard days != 0 else { return date.addingTimeInterval(TimeInterval(seconds)) }
        let w = wall(date, zone)
        let utc = TimeZone(identifier: "UTC")!
        let noon = LocalTime.instant(year: w.year, month: w.month, day: w.day, hour: 12, in: utc)!
        let day = wall(noon.addingTimeInterval(TimeInterval(days) * 86_400), utc)
        let shifted =
            LocalTime.instant(
                year: day.year, month: day.month, day: day.day, hour: w.hour,
                minute: w.minute, second: w.second, in: zone)
            ?? date.addingTimeInterval(TimeInterval(days) * 86_400)
        return shifted.addingTimeInterval(TimeInterval(seconds))
    }
}
