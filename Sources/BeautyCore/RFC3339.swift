import Foundation

/// Instants as RFC 3339 text: what the protocol carries ("2026-12-01T13:00:00Z", with milliseconds
/// when the instant has them, "2026-12-01T14:00:00+01:00" accepted) and what `--at` takes with an
/// explicit offset.
///
/// Not `ISO8601DateFormatter`: it clones an ICU formatter for every parse (65 µs, against 0.6 µs
/// here; importing or listing 100,000 appointments spent most of its time there), and it is lenient:
/// 2030-02-30 rolls into March, +99:00 is an offset. Both directions count days in the proleptic
/// Gregorian calendar, as RFC 3339 says (Foundation's calendar turns Julian before October 1582,
/// so it can neither check nor write those days the RFC way).
public enum RFC3339 {
    public enum Problem: Error, Equatable, Sendable {
        /// Not of the form 2026-12-01T14:00:00(.250)(Z|+01:00).
        case notRFC3339
        /// Shaped right, but no such day or time (2030-02-30, 24:00, :60).
        case notACalendarDayAndTime
        /// Real offsets stay within ±14:00.
        case offsetBeyond14Hours
    }

    /// "2026-12-01T13:00:00Z", or "...13:00:00.250Z" when the instant is not on a whole second
    /// (rounded to the millisecond).
    public static func format(_ date: Date) -> String {
        let millis = Int((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = millis.floorDivided(by: 1000), fraction = millis - seconds * 1000
        let days = seconds.floorDivided(by: 86_400), secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        var text = year >= 0 ? padded(year, 4) : "-" + padded(-year, 4)
        text += "-" + padded(month, 2) + "-" + padded(day, 2) + "T" + padded(secondOfDay / 3600, 2)
        text += ":" + padded(secondOfDay / 60 % 60, 2) + ":" + padded(secondOfDay % 60, 2)
        if fraction != 0 { text += "." + padded(fraction, 3) }
        return text + "Z"
    }

    /// The instant `text` names, or nil if it is not strictly RFC 3339.
    public static func parse(_ text: String) -> Date? {
        try? parseChecked(text)
    }

    /// Like `parse`, saying what is wrong. `lenient` (for people typing) also takes a time without
    /// seconds and an offset without its colon ("2026-12-01T14:00+0100").
    public static func parseChecked(_ text: String, lenient: Bool = false) throws(Problem) -> Date {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.number(4), scanner.skip("-"), let month = scanner.number(2), scanner.skip("-"),
              let day = scanner.number(2), scanner.skip("T") || scanner.skip("t"),
              let hour = scanner.number(2), scanner.skip(":"), let minute = scanner.number(2)
        else { throw .notRFC3339 }
        var second = 0, fraction = 0.0
        if scanner.skip(":") {
            guard let value = scanner.number(2) else { throw .notRFC3339 }
            second = value
            if scanner.skip(".") {
                guard let value = scanner.fraction() else { throw .notRFC3339 }
                fraction = value
            }
        } else if !lenient {
            throw .notRFC3339
        }
        var offsetMinutes = 0
        if scanner.skip("Z") || scanner.skip("z") {
            offsetMinutes = 0
        } else if let sign = scanner.sign() {
            guard let hours = scanner.number(2) else { throw .notRFC3339 }
            let colon = scanner.skip(":")
            guard colon || lenient, let minutes = scanner.number(2) else { throw .notRFC3339 }
            guard minutes < 60 else { throw .notRFC3339 }
            guard hours < 14 || (hours == 14 && minutes == 0) else { throw .offsetBeyond14Hours }
            offsetMinutes = sign * (hours * 60 + minutes)
        } else {
            throw .notRFC3339
        }
        guard scanner.atEnd else { throw .notRFC3339 }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 60
        else {
            throw .notACalendarDayAndTime
        }
        let seconds = daysSince1970(year: year, month: month, day: day) * 86_400
            + hour * 3600 + minute * 60 + second - offsetMinutes * 60
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = y.floorDivided(by: 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (Hinnant's `civil_from_days`).
    static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = z.floorDivided(by: 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// Reads ASCII digits and punctuation off the front of the text.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(character.value) else { return false }
            index += 1
            return true
        }

        /// Exactly `width` digits.
        mutating func number(_ width: Int) -> Int? {
            guard index + width <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + width] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += width
            return value
        }

        /// One or more digits after a decimal point, as a fraction of a second (nanoseconds kept).
        mutating func fraction() -> Double? {
            var nanoseconds = 0, count = 0
            while index < bytes.count, (48...57).contains(bytes[index]) {
                if count < 9 { nanoseconds = nanoseconds * 10 + Int(bytes[index] - 48); count += 1 }
                index += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<9 { nanoseconds *= 10 }
            return Double(nanoseconds) / 1_000_000_000
        }

        mutating func sign() -> Int? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            return nil
        }
    }
}

private extension Int {
    /// Division rounding towards minus infinity (instants before 1970 have negative seconds).
    func floorDivided(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
