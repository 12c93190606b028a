import BeautyCore
import Foundation
import Testing

/// RFC 3339 instants: strict on the wire, exact to the millisecond, and in agreement with
/// Foundation's ISO8601DateFormatter (the previous implementation, kept here as the oracle) on
/// every valid instant.
@Suite("RFC 3339 instants")
struct RFC3339Tests {
    /// Foundation's reading of a valid instant: the reference the hand-written parser must match.
    /// (One per test: the formatters are costly to build and not shared across threads.)
    final class Oracle {
        let whole = ISO8601DateFormatter(), fractional = ISO8601DateFormatter()
        init() { fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds] }
        func date(_ text: String) -> Date? { (text.contains(".") ? fractional : whole).date(from: text) }
    }

    @Test(arguments: [
        ("2026-12-01T13:00:00Z", 1_796_130_000.0),
        ("2026-12-01T14:00:00+01:00", 1_796_130_000.0),
        ("2026-07-01T08:00:00-04:00", 1_782_907_200.0),
        ("2026-12-01T13:00:00.250Z", 1_796_130_000.25),
        ("2026-12-01t13:00:00z", 1_796_130_000.0),
        ("1969-07-20T20:17:40Z", -14_182_940.0),
        ("2000-02-29T00:00:00Z", 951_782_400.0),
        ("2026-12-01T19:15:00+05:45", 1_796_131_800.0),
        ("2026-12-01T00:00:00+14:00", 1_796_032_800.0),
        // Proleptic Gregorian, as RFC 3339 says (Foundation's calendar is Julian before 15 October 1582).
        ("1582-10-15T00:00:00Z", -12_219_292_800.0),
        ("1582-10-10T00:00:00Z", -12_219_724_800.0),
        ("0001-01-01T00:00:00Z", -62_135_596_800.0),
        ("0000-03-01T00:00:00Z", -62_162_035_200.0),
        ("9999-12-31T23:59:59Z", 253_402_300_799.0),
    ])
    func parses(_ text: String, _ epoch: Double) throws {
        #expect(RFC3339.parse(text) == Date(timeIntervalSince1970: epoch))
    }

    @Test(arguments: [
        ("2030-02-30T10:00:00Z", RFC3339.Problem.notACalendarDayAndTime),
        ("2027-02-29T10:00:00Z", .notACalendarDayAndTime),
        ("2026-04-31T10:00:00+02:00", .notACalendarDayAndTime),
        ("2026-13-01T10:00:00Z", .notACalendarDayAndTime),
        ("2026-12-01T24:00:00Z", .notACalendarDayAndTime),
        ("2026-12-01T13:60:00Z", .notACalendarDayAndTime),
        ("2026-12-01T13:00:60Z", .notACalendarDayAndTime),
        ("2026-12-01T13:00:00+01:60", .notRFC3339),
        ("1500-02-29T10:00:00Z", .notACalendarDayAndTime),
        ("2026-12-01T13:00:00+99:00", .offsetBeyond14Hours),
        ("2026-12-01T13:00:00-14:30", .offsetBeyond14Hours),
        ("2026-12-01T13:00:00Zjunk", .notRFC3339),
        ("2026-12-01T13:00:00", .notRFC3339),
        ("2026-12-01 13:00:00Z", .notRFC3339),
        ("2026-12-01T13:00Z", .notRFC3339),
        ("2026-12-01T13:00:00+0100", .notRFC3339),
        ("2026-12-01T13:00:00.Z", .notRFC3339),
        ("26-12-01T13:00:00Z", .notRFC3339),
        ("2026-12-1T13:00:00Z", .notRFC3339),
        ("", .notRFC3339),
        ("２０２６-12-01T13:00:00Z", .notRFC3339),
    ])
    func refuses(_ text: String, _ problem: RFC3339.Problem) {
        #expect(throws: problem) { try RFC3339.parseChecked(text) }
        #expect(RFC3339.parse(text) == nil)
    }

    @Test func lenientTakesAMissingSecondAndAnOffsetWithoutItsColon() throws {
        #expect(
            try RFC3339.parseChecked("2026-12-01T14:00+0100", lenient: true)
                == Date(timeIntervalSince1970: 1_796_130_000))
        #expect(
            try RFC3339.parseChecked("2026-12-01T13:00Z", lenient: true) == Date(timeIntervalSince1970: 1_796_130_000))
        #expect(throws: RFC3339.Problem.notACalendarDayAndTime) {
            try RFC3339.parseChecked("2030-02-30T10:00Z", lenient: true)
        }
    }

    /// Every day from year 1 to 9999, every 97th: midnight written and read back is the same day.
    @Test func everyDayOfTheCalendarRoundTrips() {
        var failures: [String] = []
        for day in stride(from: -719_162, through: 2_932_896, by: 97) {
            let instant = Date(timeIntervalSince1970: Double(day) * 86_400)
            let text = RFC3339.format(instant)
            if RFC3339.parse(text) != instant || !text.hasSuffix("T00:00:00Z") { failures.append(text) }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(RFC3339.format(Date(timeIntervalSince1970: -62_135_596_800)) == "0001-01-01T00:00:00Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: -12_219_724_800)) == "1582-10-10T00:00:00Z")
    }

    @Test func formatsWholeSecondsPlainlyAndOtherwiseToTheMillisecond() {
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1_796_130_000)) == "2026-12-01T13:00:00Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1_800_000_000.123)) == "2027-01-15T08:00:00.123Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1_800_000_000.05)) == "2027-01-15T08:00:00.050Z")
        #expect(
            RFC3339.format(Date(timeIntervalSince1970: 1_800_000_000.9996)) == "2027-01-15T08:00:01Z",
            "rounds into the next second")
        #expect(RFC3339.format(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
    }

    /// 20,000 random instants from 1900 to 2200 (whole seconds and milliseconds): formatted text
    /// parses back to the same millisecond, and Foundation's formatter reads the text the same way.
    @Test func roundTripsAndAgreesWithFoundation() {
        var generator = SeededGenerator(seed: 3339)
        let oracle = Oracle()
        var disagreements: [String] = []
        for index in 0..<20_000 {
            let seconds = Double(Int64.random(in: -2_208_988_800...7_258_118_400, using: &generator))
            let instant = Date(
                timeIntervalSince1970: index.isMultiple(of: 2)
                    ? seconds : seconds + Double(Int.random(in: 1...999, using: &generator)) / 1000)
            let text = RFC3339.format(instant)
            let back = RFC3339.parse(text)
            let millis = { (date: Date?) in date.map { ($0.timeIntervalSince1970 * 1000).rounded() } }
            if millis(back) != millis(instant) || millis(oracle.date(text)) != millis(instant) {
                disagreements.append(
                    "\(instant.timeIntervalSince1970) -> \(text) -> \(String(describing: back?.timeIntervalSince1970))")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    /// Offsets: the same instant written in every quarter-hour offset reads back the same.
    @Test func everyOffsetNamesTheSameInstant() throws {
        let instant = Date(timeIntervalSince1970: 1_796_130_000)
        let oracle = Oracle()
        for quarter in -48...56 {
            let minutes = quarter * 15
            let local = instant.addingTimeInterval(Double(minutes * 60))
            let wall = String(RFC3339.format(local).dropLast())  // the wall clock at that offset, as if UTC
            let sign = minutes < 0 ? "-" : "+"
            let text = wall + String(format: "%@%02d:%02d", sign, abs(minutes) / 60, abs(minutes) % 60)
            #expect(RFC3339.parse(text) == instant, "\(text)")
            #expect(oracle.date(text) == instant, "Foundation reads \(text) differently")
        }
    }
}

/// A reproducible random sequence (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
