import BeautyCore
import Foundation
import GRDB

/// A date as GRDB stores it ("yyyy-MM-dd HH:mm:ss.SSS" in UTC, to the nearest millisecond), written by
/// arithmetic: GRDB formats with a DateFormatter, a tenth of a large import's time in the daemon.
/// From 1583 on only (Foundation's calendar is Julian before October 1582).
enum StoredDate {
    static func databaseValue(_ date: Date) -> DatabaseValue {
        text(date).map { $0.databaseValue } ?? date.databaseValue
    }

    static func databaseValue(_ date: Date?) -> DatabaseValue {
        date.map(databaseValue) ?? .null
    }

    /// The stored text, or nil where GRDB's formatter must decide: outside 1583 to 6429, and
    /// within a twentieth of a millisecond of a half (the formatter rounds to the nearest millisecond,
    /// from an instant it computes with its own rounding error).
    static func text(_ date: Date) -> String? {
        let exact = date.timeIntervalSince1970 * 1000
        guard exact >= firstMillisecond, exact < endMillisecond, abs(exact - exact.rounded(.down) - 0.5) > 0.05 else {
            return nil
        }
        let milliseconds = Int((exact + 0.5).rounded(.down))
        let seconds = CivilTime.floorDiv(milliseconds, 1000)
        let days = CivilTime.floorDiv(seconds, 86_400), secondOfDay = seconds - days * 86_400
        let (year, month, day) = CivilTime.civil(days)
        return String(unsafeUninitializedCapacity: 23) { buffer in
            func put(_ value: Int, _ width: Int, at start: Int) {
                var rest = value
                for index in stride(from: start + width - 1, through: start, by: -1) {
                    buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
            }
            put(year, 4, at: 0)
            buffer[4] = UInt8(ascii: "-")
            put(month, 2, at: 5)
            buffer[7] = UInt8(ascii: "-")
            put(day, 2, at: 8)
            buffer[10] = UInt8(ascii: " ")
            put(secondOfDay / 3600, 2, at: 11)
            buffer[13] = UInt8(ascii: ":")
            put(secondOfDay / 60 % 60, 2, at: 14)
            buffer[16] = UInt8(ascii: ":")
            put(secondOfDay % 60, 2, at: 17)
            buffer[19] = UInt8(ascii: ".")
            put(milliseconds - seconds * 1000, 3, at: 20)
            return 23
        }
    }

    /// The date stored as `text` in exactly the form `text(_:)` writes, read by arithmetic (GRDB parses
    /// into date components and asks a Calendar, several times the cost of the rest of an appointment
    /// row); nil for any other form or a year before 1583, which GRDB reads instead.
    static func date(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            guard bytes.count == 23, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
                bytes[10] == UInt8(ascii: " "),
                bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: ".")
            else { return nil }
            func number(_ start: Int, _ count: Int) -> Int? {
                var value = 0
                for index in start..<(start + count) {
                    let byte = bytes[index]
                    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                }
                return value
            }
            guard let year = number(0, 4), year >= 1583, let month = number(5, 2), (1...12).contains(month),
                let day = number(8, 2), (1...CivilTime.daysInMonth(year, month)).contains(day),
                let hour = number(11, 2), hour < 24, let minute = number(14, 2), minute < 60,
                let second = number(17, 2), second < 60, let milliseconds = number(20, 3)
            else { return nil }
            // Summed as Foundation's calendar sums them (the day's start, then the time of day with its
            // fraction), so the result is GRDB's to the last bit.
            let dayStart = CivilTime.days(year, month, day) * 86_400 - 978_307_200
            let timeOfDay = Double(hour * 3600 + minute * 60 + second) + Double(milliseconds * 1_000_000) / 1e9
            return Date(timeIntervalSinceReferenceDate: Double(dayStart) + timeOfDay)
        }
    }

    /// 1583-01-01T00:00Z in milliseconds since 1970, and 2^47 (in 6429), below which a millisecond
    /// count's rounding error stays under a sixtieth of a millisecond.
    private static let firstMillisecond = -12_212_553_600_000.0
    private static let endMillisecond = 140_737_488_355_328.0
}
