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
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        write(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `format`'s text appended as UTF-8, for JSON written byte by byte (an answer with a hundred
    /// thousand instants spent a tenth of its time building their strings).
    public static func write(_ date: Date, to bytes: inout [UInt8]) {
        let millis = Int((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = CivilTime.floorDiv(millis, 1000), fraction = millis - seconds * 1000
        let days = CivilTime.floorDiv(seconds, 86_400), secondOfDay = seconds - days * 86_400
        let (year, month, day) = CivilTime.civil(days)
        if year < 0 { bytes.append(UInt8(ascii: "-")) }
        digits(abs(year), 4, &bytes)
        bytes.append(UInt8(ascii: "-"))
        digits(month, 2, &bytes)
        bytes.append(UInt8(ascii: "-"))
        digits(day, 2, &bytes)
        bytes.append(UInt8(ascii: "T"))
        digits(secondOfDay / 3600, 2, &bytes)
        bytes.append(UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2, &bytes)
        bytes.append(UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2, &bytes)
        if fraction != 0 {
            bytes.append(UInt8(ascii: "."))
            digits(fraction, 3, &bytes)
        }
        bytes.append(UInt8(ascii: "Z"))
    }

    /// `value` (not negative) in decimal, zero-padded to `width` digits.
    private static func digits(_ value: Int, _ width: Int, _ bytes: inout [UInt8]) {
        var count = 1
        var rest = value
        while rest >= 10 { rest /= 10; count += 1 }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(width, count)))
        var index = bytes.count - 1
        rest = value
        while index >= start, rest > 0 {
            bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            index -= 1
        }
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
        guard (1...12).contains(month), (1...CivilTime.daysInMonth(year, month)).contains(day),
            hour < 24, minute < 60, second < 60
        else {
            throw .notACalendarDayAndTime
        }
        let seconds =
            CivilTime.days(year, month, day) * 86_400
            + hour * 3600 + minute * 60 + second - offsetMinutes * 60
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
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
