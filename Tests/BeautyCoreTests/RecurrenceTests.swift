import BeautyCore
import BeautyTestSupport
import Foundation
import Testing

private let utcZone = TimeZone(identifier: "UTC")!

/// "20260101T090000" (the conformance table's wall times) as an instant in UTC.
private func stamp(_ text: String) -> Date {
    let c = Array(text)
    func n(_ r: Range<Int>) -> Int { Int(String(c[r]))! }
    return LocalTime.instant(
        year: n(0..<4), month: n(4..<6), day: n(6..<8), hour: n(9..<11), minute: n(11..<13),
        second: n(13..<15), in: utcZone)!
}

private func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

/// The first difference between two occurrence lists, or nil.
private func firstMismatch(_ got: [Date], _ expected: [Date]) -> String? {
    for i in 0..<max(got.count, expected.count) {
        let g = i < got.count ? iso(got[i]) : "nothing"
        let e = i < expected.count ? iso(expected[i]) : "nothing"
        if g != e {
            return "occurrence #\(i + 1): expected \(e), got \(g) (\(expected.count) expected, \(got.count) got)"
        }
    }
    return nil
}

private func rule(_ text: String) -> RecurrenceRule { try! RecurrenceRule.parse(text) }

// MARK: - Parsing

@Suite("Recurrence rules: parsing and text")
struct RecurrenceRuleParsingTests {
    @Test func parsesWithPrefixAndInAnyCase() throws {
        let r = try RecurrenceRule.parse(" rrule:freq=monthly;interval=6;byday=-1fr;wkst=su ")
        #expect(r.frequency == .monthly)
        #expect(r.interval == 6)
        #expect(r.byDay == [.init(.fri, ordinal: -1)])
        #expect(r.weekStart == .sun)
        #expect(r.count == nil && r.until == nil)
        #expect(r.text == "FREQ=MONTHLY;INTERVAL=6;BYDAY=-1FR;WKST=SU")
    }

    @Test(arguments: [
        ("FREQ=WEEKLY;INTERVAL=6", "FREQ=WEEKLY;INTERVAL=6"),
        ("FREQ=WEEKLY;INTERVAL=1;WKST=MO", "FREQ=WEEKLY"),
        ("BYDAY=FR,MO,MO;FREQ=WEEKLY", "FREQ=WEEKLY;BYDAY=MO,FR"),
        ("FREQ=MONTHLY;BYDAY=+2MO,-1FR;BYSETPOS=1", "FREQ=MONTHLY;BYDAY=2MO,-1FR;BYSETPOS=1"),
        ("FREQ=MONTHLY;BYMONTHDAY=15,-1,1;COUNT=10", "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=-1,1,15"),
        (
            "FREQ=YEARLY;BYSETPOS=-1;BYMONTH=3,10;BYDAY=SU;BYHOUR=2;BYMINUTE=30;BYSECOND=0",
            "FREQ=YEARLY;BYMONTH=3,10;BYDAY=SU;BYHOUR=2;BYMINUTE=30;BYSECOND=0;BYSETPOS=-1"
        ),
        ("FREQ=YEARLY;WKST=SU;BYWEEKNO=1,-1;BYYEARDAY=1,-366", "FREQ=YEARLY;BYWEEKNO=-1,1;BYYEARDAY=-366,1;WKST=SU"),
        ("FREQ=DAILY;UNTIL=20270101T000000Z;", "FREQ=DAILY;UNTIL=20270101T000000Z"),
        ("FREQ=DAILY;UNTIL=20270101T083000", "FREQ=DAILY;UNTIL=20270101T083000"),
        ("FREQ=DAILY;UNTIL=20270101", "FREQ=DAILY;UNTIL=20270101"),
        ("FREQ=SECONDLY;INTERVAL=1000000", "FREQ=SECONDLY;INTERVAL=1000000"),
    ])
    func canonicalTextRoundTrips(_ input: String, _ canonical: String) throws {
        let parsed = try RecurrenceRule.parse(input)
        #expect(parsed.text == canonical)
        let again = try RecurrenceRule.parse(parsed.text)
        #expect(again == parsed)
        #expect(again.text == canonical)
    }

    @Test func untilForms() throws {
        let z = try RecurrenceRule.parse("FREQ=DAILY;UNTIL=20270101T083000Z")
        #expect(z.until == utc("2027-01-01T08:30:00Z"))
        #expect(!z.untilIsFloating && !z.untilIsDate)
        let floating = try RecurrenceRule.parse("FREQ=DAILY;UNTIL=20270101T083000")
        #expect(floating.untilIsFloating && !floating.untilIsDate)
        let date = try RecurrenceRule.parse("FREQ=DAILY;UNTIL=20270101")
        #expect(date.untilIsFloating && date.untilIsDate)
    }

    @Test func codableUsesTheCanonicalText() throws {
        let r = try RecurrenceRule.parse("freq=monthly;byday=mo,tu,we,th,fr;bysetpos=-1")
        let data = try JSONEncoder().encode(["repeat": r])
        #expect(String(decoding: data, as: UTF8.self) == #"{"repeat":"FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"}"#)
        #expect(try JSONDecoder().decode([String: RecurrenceRule].self, from: data)["repeat"] == r)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([String: RecurrenceRule].self, from: Data(#"{"repeat":"FREQ=FORTNIGHTLY"}"#.utf8))
        }
    }

    @Test(arguments: [
        (
            "FREQ=FORTNIGHTLY",
            "unknown FREQ 'FORTNIGHTLY' (use SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY)"
        ),
        ("FREQ=DAILY;COUNT=3;UNTIL=20270101T000000Z", "COUNT and UNTIL cannot be used together (RFC 5545): keep one"),
        ("FREQ=MONTHLY;BYMONTHDAY=32", "BYMONTHDAY value 32 is out of range (1 to 31 or -31 to -1)"),
        ("FREQ=MONTHLY;BYMONTHDAY=0", "BYMONTHDAY value 0 is out of range (1 to 31 or -31 to -1)"),
        ("INTERVAL=2", "FREQ is required (e.g. FREQ=DAILY, FREQ=WEEKLY;INTERVAL=2)"),
        ("", "is empty (expected e.g. FREQ=WEEKLY;INTERVAL=2)"),
        ("FREQ=DAILY;INTERVAL=0", "INTERVAL must be a whole number from 1 to 1000000, not '0'"),
        ("FREQ=DAILY;INTERVAL=1000001", "INTERVAL must be a whole number from 1 to 1000000, not '1000001'"),
        ("FREQ=DAILY;INTERVAL=two", "INTERVAL must be a whole number from 1 to 1000000, not 'TWO'"),
        ("FREQ=DAILY;COUNT=0", "COUNT must be a whole number from 1 to 100000, not '0'"),
        ("FREQ=DAILY;COUNT=99999999999", "COUNT must be a whole number from 1 to 100000, not '99999999999'"),
        ("FREQ=MONTHLY;BYWEEKNO=3", "BYWEEKNO is only allowed with FREQ=YEARLY"),
        ("FREQ=YEARLY;BYWEEKNO=54", "BYWEEKNO value 54 is out of range (1 to 53 or -53 to -1)"),
        (
            "FREQ=WEEKLY;INTERVAL=6;BYDAY=-1FR",
            "BYDAY '-1FR' has an ordinal, which is only allowed with FREQ=MONTHLY or YEARLY"
        ),
        ("FREQ=MONTHLY;BYDAY=6MO", "BYDAY ordinal in '6MO' is out of range for a month (1 to 5 or -5 to -1)"),
        ("FREQ=YEARLY;BYDAY=54MO", "BYDAY ordinal in '54MO' is out of range (1 to 53 or -53 to -1)"),
        ("FREQ=YEARLY;BYWEEKNO=1;BYDAY=1MO", "BYDAY '1MO' has an ordinal, which is not allowed together with BYWEEKNO"),
        (
            "FREQ=DAILY;BYDAY=XX",
            "BYDAY value 'XX' is not a weekday (MO, TU, WE, TH, FR, SA, SU, optionally with an ordinal such as -1FR or 2MO)"
        ),
        (
            "FREQ=DAILY;BYDAY=MO,",
            "BYDAY value '' is not a weekday (MO, TU, WE, TH, FR, SA, SU, optionally with an ordinal such as -1FR or 2MO)"
        ),
        ("FREQ=DAILY;BYHOUR=24", "BYHOUR value 24 is out of range (0 to 23)"),
        ("FREQ=DAILY;BYMINUTE=5,x", "BYMINUTE value 'X' is not a whole number (0 to 59)"),
        ("FREQ=DAILY;BYMONTH=13", "BYMONTH value 13 is out of range (1 to 12)"),
        ("FREQ=YEARLY;BYYEARDAY=367", "BYYEARDAY value 367 is out of range (1 to 366 or -366 to -1)"),
        (
            "FREQ=MONTHLY;BYYEARDAY=1",
            "BYYEARDAY is not allowed with FREQ=MONTHLY (use it with YEARLY, HOURLY, MINUTELY or SECONDLY)"
        ),
        ("FREQ=WEEKLY;BYMONTHDAY=1", "BYMONTHDAY is not allowed with FREQ=WEEKLY"),
        ("FREQ=MONTHLY;BYSETPOS=1", "BYSETPOS needs another BYxxx rule part (e.g. BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1)"),
        ("FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0", "BYSETPOS value 0 is out of range (1 to 366 or -366 to -1)"),
        ("FREQ=DAILY;FREQ=WEEKLY", "FREQ is given more than once"),
        (
            "FREQ=DAILY;COLOR=RED",
            "unknown rule part 'COLOR' (allowed: FREQ, INTERVAL, COUNT, UNTIL, BYSECOND, BYMINUTE, BYHOUR, BYDAY, BYMONTHDAY, BYYEARDAY, BYWEEKNO, BYMONTH, BYSETPOS, WKST)"
        ),
        ("FREQ=DAILY;WKST=XX", "WKST 'XX' is not a weekday (MO, TU, WE, TH, FR, SA or SU)"),
        ("FREQ=DAILY;BYDAY", "'BYDAY' is not NAME=VALUE (expected e.g. FREQ=WEEKLY)"),
        ("FREQ=DAILY;COUNT=", "COUNT has no value"),
        (
            "FREQ=DAILY;UNTIL=2027",
            "UNTIL '2027' is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS, with Z for UTC)"
        ),
        (
            "FREQ=DAILY;UNTIL=20270230",
            "UNTIL '20270230' is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS, with Z for UTC)"
        ),
        (
            "FREQ=DAILY;UNTIL=20270101T250000Z",
            "UNTIL '20270101T250000Z' is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS, with Z for UTC)"
        ),
        ("EXRULE:FREQ=DAILY", "'EXRULE:FREQ=DAILY' is not an RRULE value (expected e.g. FREQ=WEEKLY;INTERVAL=2)"),
    ])
    func refusesWithAClearMessage(_ text: String, _ message: String) {
        #expect(throws: ValidationError(field: "repeat", message)) { try RecurrenceRule.parse(text) }
    }

    @Test func validatedChecksRulesBuiltInCode() throws {
        var r = RecurrenceRule(
            frequency: .monthly, byDay: [.init(.fri, ordinal: -1), .init(.mon)], byMonthDay: [3, 1, 3])
        let valid = try r.validated()
        #expect(valid.byDay == [.init(.mon), .init(.fri, ordinal: -1)])
        #expect(valid.byMonthDay == [1, 3])
        r.interval = 0
        #expect(throws: ValidationError(field: "repeat", "INTERVAL must be a whole number from 1 to 1000000, not 0")) {
            try r.validated()
        }
    }
}

// MARK: - Conformance with python-dateutil

struct ConformanceTable: Decodable {
    let dateutil: String
    let cap: Int
    let windowCap: Int
    let cases: [ConformanceCase]
    let divergences: [ConformanceCase]

    static let shared: ConformanceTable = {
        do {
            return try JSONDecoder().decode(ConformanceTable.self, from: Data(RecurrenceConformanceTable.json.utf8))
        } catch {
            fatalError("RecurrenceConformanceTable.json does not decode: \(error)")
        }
    }()
}

struct ConformanceCase: Decodable, Sendable, CustomTestStringConvertible {
    struct Window: Decodable, Sendable {
        let from: String
        let to: String
        let expected: [String]
    }

    let rule: String
    let dtstart: String
    let end: String
    let expected: [String]
    let window: Window
    /// Absent: UTC. Otherwise DTSTART is a wall time in this zone and the other dates are instants.
    let zone: String?
    let reason: String?
    let dateutil: [String]?
    let dateutilWindow: [String]?

    var testDescription: String { "\(rule) from \(dtstart)" }

    /// Every mismatch, first one per window, as messages.
    func mismatches(cap: Int, windowCap: Int) throws -> [String] {
        let r = try RecurrenceRule.parse(rule)
        let tz = try #require(TimeZone(identifier: zone ?? "UTC"))
        let wall = stamp(dtstart)  // read in UTC, then placed in the zone
        let c = Calendar(identifier: .gregorian).dateComponents(in: utcZone, from: wall)
        let start = try #require(
            LocalTime.instant(
                year: c.year!, month: c.month!, day: c.day!, hour: c.hour!,
                minute: c.minute!, second: c.second!, in: tz))
        var problems: [String] = []
        let first = Recurrence.occurrences(of: r, start: start, zone: tz, from: start, to: stamp(end), limit: cap)
        if let m = firstMismatch(first, expected.map(stamp)) { problems.append("[\(dtstart), \(end)): \(m)") }
        let later = Recurrence.occurrences(
            of: r, start: start, zone: tz, from: stamp(window.from),
            to: stamp(window.to), limit: windowCap)
        if let m = firstMismatch(later, window.expected.map(stamp)) {
            problems.append("[\(window.from), \(window.to)): \(m)")
        }
        if try RecurrenceRule.parse(r.text) != r {
            problems.append("text \(r.text) does not parse back to the same rule")
        }
        return problems
    }
}

@Suite("Recurrence: conformance with python-dateutil (generated table)")
struct RecurrenceConformanceTests {
    @Test func tableIsLargeAndFromDateutil() {
        let table = ConformanceTable.shared
        #expect(table.cases.count >= 150)
        #expect(table.dateutil.hasPrefix("2.9"))
        #expect(Set(table.cases.map { $0.rule.components(separatedBy: ";")[0] }).count == 7)
    }

    @Test(arguments: ConformanceTable.shared.cases)
    func matchesDateutil(_ c: ConformanceCase) throws {
        let table = ConformanceTable.shared
        for problem in try c.mismatches(cap: table.cap, windowCap: table.windowCap) {
            Issue.record("\(c.rule) from \(c.dtstart): \(problem)")
        }
    }

    /// Where dateutil departs from RFC 5545 the table holds both answers: ours is the RFC one.
    @Test(arguments: ConformanceTable.shared.divergences)
    func followsRFC5545WhereDateutilDeparts(_ c: ConformanceCase) throws {
        let table = ConformanceTable.shared
        for problem in try c.mismatches(cap: table.cap, windowCap: table.windowCap) {
            Issue.record("\(c.rule) from \(c.dtstart) (\(c.reason ?? "")): \(problem)")
        }
        #expect(c.dateutil != c.expected || c.dateutilWindow != c.window.expected)
    }
}

// MARK: - Time zones and DST

@Suite("Recurrence in time zones (expectations from Python zoneinfo)")
struct RecurrenceZoneTests {
    func occurrences(
        _ text: String, _ start: String, _ zone: String, to: String? = nil, limit: Int = 10_000,
        exdates: [Date] = [], rdates: [Date] = []
    ) -> [Date] {
        let first = instant(start, zone)
        let end = to.map { instant($0, zone) } ?? first.addingTimeInterval(30 * 86_400)
        return Recurrence.occurrences(
            of: rule(text), start: first, zone: TimeZone(identifier: zone)!, from: first,
            to: end, exdates: exdates, rdates: rdates, limit: limit)
    }

    // Warsaw: 2026-03-29 02:00 CET -> 03:00 CEST; 2026-10-25 03:00 CEST -> 02:00 CET.

    @Test func warsawDailyAt8StaysAt8() {
        #expect(
            occurrences("FREQ=DAILY;COUNT=4", "2026-03-27 08:00", "Europe/Warsaw")
                == ["2026-03-27T07:00:00Z", "2026-03-28T07:00:00Z", "2026-03-29T06:00:00Z", "2026-03-30T06:00:00Z"].map(
                    utc))
        #expect(
            occurrences("FREQ=DAILY;COUNT=4", "2026-10-23 08:00", "Europe/Warsaw")
                == ["2026-10-23T06:00:00Z", "2026-10-24T06:00:00Z", "2026-10-25T07:00:00Z", "2026-10-26T07:00:00Z"].map(
                    utc))
    }

    @Test func warsawSkippedTimeIsReadWithTheOffsetBeforeTheGap() {
        #expect(
            occurrences("FREQ=DAILY;COUNT=4", "2026-03-27 02:30", "Europe/Warsaw")
                == ["2026-03-27T01:30:00Z", "2026-03-28T01:30:00Z", "2026-03-29T01:30:00Z", "2026-03-30T00:30:00Z"].map(
                    utc))
        // Yearly "last Sunday of March and October at 02:30": the spring one falls in the gap.
        #expect(
            occurrences(
                "FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SU;BYHOUR=2;BYMINUTE=30;COUNT=4", "2026-03-29 03:00",
                "Europe/Warsaw", to: "2028-01-01 00:00")
                == ["2026-03-29T01:00:00Z", "2026-10-25T00:30:00Z", "2027-03-28T01:30:00Z", "2027-10-31T00:30:00Z"].map(
                    utc))
    }

    @Test func warsawRepeatedTimeFiresOnce() {
        #expect(
            occurrences("FREQ=DAILY;COUNT=4", "2026-10-23 02:30", "Europe/Warsaw")
                == ["2026-10-23T00:30:00Z", "2026-10-24T00:30:00Z", "2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"].map(
                    utc))
    }

    @Test func twoWallTimesInOneGapStayTwoAndOneInstantCountsOnce() {
        // 02:00 and 02:30 on the spring-forward day are 03:00 and 03:30 CEST: two occurrences.
        #expect(
            occurrences("FREQ=DAILY;BYHOUR=2;BYMINUTE=0,30;COUNT=5", "2026-03-28 02:00", "Europe/Warsaw")
                == [
                    "2026-03-28T01:00:00Z", "2026-03-28T01:30:00Z", "2026-03-29T01:00:00Z", "2026-03-29T01:30:00Z",
                    "2026-03-30T00:00:00Z",
                ].map(utc))
        // With 03:00 and 03:30 too, those are the same instants: one occurrence each, and COUNT counts it once.
        #expect(
            occurrences("FREQ=DAILY;BYHOUR=2,3;BYMINUTE=0,30;COUNT=7", "2026-03-28 02:00", "Europe/Warsaw")
                == [
                    "2026-03-28T01:00:00Z", "2026-03-28T01:30:00Z", "2026-03-28T02:00:00Z", "2026-03-28T02:30:00Z",
                    "2026-03-29T01:00:00Z", "2026-03-29T01:30:00Z", "2026-03-30T00:00:00Z",
                ].map(utc))
    }

    @Test func warsawEvery8HoursKeepsElapsedTime() {
        #expect(
            occurrences("FREQ=HOURLY;INTERVAL=8;COUNT=5", "2026-03-28 20:00", "Europe/Warsaw")
                == [
                    "2026-03-28T19:00:00Z", "2026-03-29T03:00:00Z", "2026-03-29T11:00:00Z", "2026-03-29T19:00:00Z",
                    "2026-03-30T03:00:00Z",
                ].map(utc))
        #expect(
            occurrences("FREQ=HOURLY;INTERVAL=8;COUNT=5", "2026-10-24 20:00", "Europe/Warsaw")
                == [
                    "2026-10-24T18:00:00Z", "2026-10-25T02:00:00Z", "2026-10-25T10:00:00Z", "2026-10-25T18:00:00Z",
                    "2026-10-26T02:00:00Z",
                ].map(utc))
    }

    @Test func hourlyLimitsAreLocalTime() {
        // FREQ=HOURLY;BYHOUR=9 in Warsaw: 09:00 local, CET then CEST.
        #expect(
            occurrences("FREQ=HOURLY;BYHOUR=9;COUNT=3", "2026-03-28 09:00", "Europe/Warsaw")
                == ["2026-03-28T08:00:00Z", "2026-03-29T07:00:00Z", "2026-03-30T07:00:00Z"].map(utc))
    }

    @Test func exdateRemovesAndRdateAddsAnOccurrence() {
        let removed = occurrences(
            "FREQ=DAILY;COUNT=4", "2026-03-27 08:00", "Europe/Warsaw",
            exdates: [utc("2026-03-29T06:00:00Z")], rdates: [utc("2026-03-29T15:30:00Z")])
        #expect(
            removed
                == [
                    "2026-03-27T07:00:00Z", "2026-03-28T07:00:00Z", "2026-03-29T15:30:00Z",
                    "2026-03-30T06:00:00Z",
                ].map(utc))
        // The start itself can be excluded; an RDATE equal to an occurrence adds nothing.
        let start = occurrences(
            "FREQ=WEEKLY;COUNT=3", "2026-06-01 10:00", "Europe/Warsaw",
            exdates: [utc("2026-06-01T08:00:00Z")], rdates: [utc("2026-06-08T08:00:00Z")])
        #expect(start == ["2026-06-08T08:00:00Z", "2026-06-15T08:00:00Z"].map(utc))
    }

    // New York: 2026-03-08 02:00 EST -> 03:00 EDT; 2026-11-01 02:00 EDT -> 01:00 EST.

    @Test func newYork() {
        #expect(
            occurrences("FREQ=DAILY;COUNT=4", "2026-03-06 08:00", "America/New_York")
                == ["2026-03-06T13:00:00Z", "2026-03-07T13:00:00Z", "2026-03-08T12:00:00Z", "2026-03-09T12:00:00Z"].map(
                    utc))
        #expect(
            occurrences("FREQ=DAILY;COUNT=4", "2026-10-30 08:00", "America/New_York")
                == ["2026-10-30T12:00:00Z", "2026-10-31T12:00:00Z", "2026-11-01T13:00:00Z", "2026-11-02T13:00:00Z"].map(
                    utc))
        #expect(
            occurrences("FREQ=DAILY;COUNT=4", "2026-03-06 02:30", "America/New_York")
                == ["2026-03-06T07:30:00Z", "2026-03-07T07:30:00Z", "2026-03-08T07:30:00Z", "2026-03-09T06:30:00Z"].map(
                    utc))
        #expect(
            occurrences("FREQ=DAILY;COUNT=4", "2026-10-30 01:30", "America/New_York")
                == ["2026-10-30T05:30:00Z", "2026-10-31T05:30:00Z", "2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"].map(
                    utc))
        #expect(
            occurrences("FREQ=DAILY;COUNT=4", "2026-10-30 02:30", "America/New_York")
                == ["2026-10-30T06:30:00Z", "2026-10-31T06:30:00Z", "2026-11-01T07:30:00Z", "2026-11-02T07:30:00Z"].map(
                    utc))
        #expect(
            occurrences("FREQ=HOURLY;INTERVAL=8;COUNT=5", "2026-03-07 20:00", "America/New_York")
                == [
                    "2026-03-08T01:00:00Z", "2026-03-08T09:00:00Z", "2026-03-08T17:00:00Z", "2026-03-09T01:00:00Z",
                    "2026-03-09T09:00:00Z",
                ].map(utc))
    }

    // Lord Howe: half-hour DST. 2026-04-05 02:00 (+11) -> 01:30 (+10:30); 2026-10-04 02:00 (+10:30) -> 02:30 (+11).

    @Test func lordHowe() {
        #expect(
            occurrences("FREQ=DAILY;COUNT=4", "2026-04-03 08:00", "Australia/Lord_Howe")
                == ["2026-04-02T21:00:00Z", "2026-04-03T21:00:00Z", "2026-04-04T21:30:00Z", "2026-04-05T21:30:00Z"].map(
                    utc))
        #expect(
            occurrences("FREQ=DAILY;COUNT=4", "2026-10-02 08:00", "Australia/Lord_Howe")
                == ["2026-10-01T21:30:00Z", "2026-10-02T21:30:00Z", "2026-10-03T21:00:00Z", "2026-10-04T21:00:00Z"].map(
                    utc))
        #expect(
            occurrences("FREQ=DAILY;COUNT=4", "2026-10-02 02:15", "Australia/Lord_Howe")
                == ["2026-10-01T15:45:00Z", "2026-10-02T15:45:00Z", "2026-10-03T15:45:00Z", "2026-10-04T15:15:00Z"].map(
                    utc))
        #expect(
            occurrences("FREQ=DAILY;COUNT=4", "2026-04-03 01:45", "Australia/Lord_Howe")
                == ["2026-04-02T14:45:00Z", "2026-04-03T14:45:00Z", "2026-04-04T14:45:00Z", "2026-04-05T15:15:00Z"].map(
                    utc))
        #expect(
            occurrences("FREQ=HOURLY;INTERVAL=8;COUNT=5", "2026-04-04 20:00", "Australia/Lord_Howe")
                == [
                    "2026-04-04T09:00:00Z", "2026-04-04T17:00:00Z", "2026-04-05T01:00:00Z", "2026-04-05T09:00:00Z",
                    "2026-04-05T17:00:00Z",
                ].map(utc))
        #expect(
            occurrences("FREQ=HOURLY;INTERVAL=8;COUNT=5", "2026-10-03 20:00", "Australia/Lord_Howe")
                == [
                    "2026-10-03T09:30:00Z", "2026-10-03T17:30:00Z", "2026-10-04T01:30:00Z", "2026-10-04T09:30:00Z",
                    "2026-10-04T17:30:00Z",
                ].map(utc))
    }

    // Kolkata: +05:30, no DST.

    @Test func kolkata() {
        #expect(
            occurrences("FREQ=DAILY;COUNT=3", "2026-03-27 08:00", "Asia/Kolkata")
                == ["2026-03-27T02:30:00Z", "2026-03-28T02:30:00Z", "2026-03-29T02:30:00Z"].map(utc))
        #expect(
            occurrences("FREQ=HOURLY;INTERVAL=8;COUNT=4", "2026-03-28 08:00", "Asia/Kolkata")
                == ["2026-03-28T02:30:00Z", "2026-03-28T10:30:00Z", "2026-03-28T18:30:00Z", "2026-03-29T02:30:00Z"].map(
                    utc))
        #expect(
            occurrences("FREQ=MONTHLY;BYDAY=-1FR;COUNT=3", "2026-01-30 18:00", "Asia/Kolkata", to: "2027-01-01 00:00")
                == ["2026-01-30T12:30:00Z", "2026-02-27T12:30:00Z", "2026-03-27T12:30:00Z"].map(utc))
        // BYMINUTE in an HOURLY rule is local wall-clock minutes (the zone is on the half hour).
        #expect(
            occurrences("FREQ=HOURLY;BYMINUTE=0;BYHOUR=0;COUNT=2", "2026-03-28 08:00", "Asia/Kolkata")
                == ["2026-03-28T02:30:00Z", "2026-03-28T18:30:00Z"].map(utc))
    }

    @Test func floatingUntilIsLocalWallTimeAndDateUntilIncludesTheDay() {
        #expect(
            occurrences("FREQ=DAILY;UNTIL=20260330T080000", "2026-03-27 08:00", "Europe/Warsaw")
                == ["2026-03-27T07:00:00Z", "2026-03-28T07:00:00Z", "2026-03-29T06:00:00Z", "2026-03-30T06:00:00Z"].map(
                    utc))
        #expect(
            occurrences("FREQ=DAILY;UNTIL=20260329", "2026-03-27 08:00", "Europe/Warsaw")
                == ["2026-03-27T07:00:00Z", "2026-03-28T07:00:00Z", "2026-03-29T06:00:00Z"].map(utc))
        // UTC UNTIL is an instant: 06:00Z is 08:00 CEST on the 29th.
        #expect(
            occurrences("FREQ=DAILY;UNTIL=20260329T060000Z", "2026-03-27 08:00", "Europe/Warsaw")
                == ["2026-03-27T07:00:00Z", "2026-03-28T07:00:00Z", "2026-03-29T06:00:00Z"].map(utc))
        #expect(
            occurrences("FREQ=DAILY;UNTIL=20260329T055959Z", "2026-03-27 08:00", "Europe/Warsaw")
                == ["2026-03-27T07:00:00Z", "2026-03-28T07:00:00Z"].map(utc))
    }
}

// MARK: - Range, limits and efficiency

@Suite("Recurrence: range, DTSTART, COUNT, limits and efficiency")
struct RecurrenceLimitTests {
    let start = utc("2026-01-01T09:00:00Z")

    func run(_ text: String, from: Date? = nil, to: Date, limit: Int = 10_000, exdates: [Date] = []) -> [Date] {
        Recurrence.occurrences(
            of: rule(text), start: start, zone: utcZone, from: from ?? start, to: to,
            exdates: exdates, limit: limit)
    }

    @Test func rangeIsHalfOpenAndLimited() {
        let to = utc("2026-01-04T09:00:00Z")
        #expect(
            run("FREQ=DAILY", to: to)
                == ["2026-01-01T09:00:00Z", "2026-01-02T09:00:00Z", "2026-01-03T09:00:00Z"].map(utc))
        #expect(run("FREQ=DAILY", from: utc("2026-01-02T09:00:01Z"), to: to) == [utc("2026-01-03T09:00:00Z")])
        #expect(run("FREQ=DAILY", to: to, limit: 2).count == 2)
        #expect(run("FREQ=DAILY", to: to, limit: 0).isEmpty)
        #expect(run("FREQ=DAILY", from: to, to: start).isEmpty)
    }

    @Test func dtstartIsTheFirstOccurrenceAndCountsEvenWhenItDoesNotMatch() {
        // 2026-01-01 is a Thursday.
        #expect(
            run("FREQ=WEEKLY;BYDAY=MO;COUNT=3", to: utc("2027-01-01T00:00:00Z"))
                == ["2026-01-01T09:00:00Z", "2026-01-05T09:00:00Z", "2026-01-12T09:00:00Z"].map(utc))
    }

    @Test func exdatesDoNotChangeWhatCountCounts() {
        #expect(
            run("FREQ=DAILY;COUNT=3", to: utc("2027-01-01T00:00:00Z"), exdates: [utc("2026-01-02T09:00:00Z")])
                == ["2026-01-01T09:00:00Z", "2026-01-03T09:00:00Z"].map(utc))
    }

    @Test func countIsCountedFromTheStartForALaterWindow() {
        let later = run("FREQ=DAILY;COUNT=40", from: utc("2026-02-08T00:00:00Z"), to: utc("2027-01-01T00:00:00Z"))
        #expect(later == ["2026-02-08T09:00:00Z", "2026-02-09T09:00:00Z"].map(utc))
    }

    // Quick means no walk from the start: a walk from 1970 in seconds would never end. The time limit
    // is the safety net; how long it takes is a benchmark's figure, not a bound a loaded machine breaks.
    @Test(.timeLimit(.minutes(1))) func aWindowFarAfterTheStartIsQuick() {
        let epoch = Date(timeIntervalSince1970: 0)
        let from = instant("2026-06-01 00:00"), to = instant("2026-06-08 00:00")
        for (text, count) in [
            ("FREQ=DAILY", 7), ("FREQ=HOURLY;INTERVAL=5", 34), ("FREQ=MINUTELY;INTERVAL=30", 336),
            ("FREQ=SECONDLY;INTERVAL=3600", 168), ("FREQ=WEEKLY;BYDAY=MO,TH", 2),
            ("FREQ=MONTHLY;BYDAY=1MO", 1), ("FREQ=YEARLY;BYYEARDAY=152,153", 2),
        ] {
            let got = Recurrence.occurrences(of: rule(text), start: epoch, zone: warsaw, from: from, to: to)
            #expect(got.count == count, "\(text)")
        }
    }

    @Test(.timeLimit(.minutes(1))) func rulesThatNeverMatchStop() {
        let forever = Date.distantFuture
        for text in [
            "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "FREQ=DAILY;BYMONTH=4;BYMONTHDAY=31",
            "FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=6", "FREQ=HOURLY;INTERVAL=6;BYHOUR=1",
            "FREQ=SECONDLY;BYSECOND=60", "FREQ=MINUTELY;BYMONTH=11;BYMONTHDAY=31",
            "FREQ=YEARLY;INTERVAL=1000000", "FREQ=WEEKLY;BYMONTH=2;BYDAY=MO;BYSETPOS=5",
        ] {
            let got = Recurrence.occurrences(of: rule(text), start: start, zone: utcZone, from: start, to: forever)
            #expect(got == [start], "\(text)")
        }
        // In a zone with DST the elapsed-time rule is checked against local hours: still stops.
        _ = Recurrence.occurrences(
            of: rule("FREQ=HOURLY;INTERVAL=24;BYHOUR=3"), start: instant("2026-01-01 08:00"),
            zone: warsaw, from: start, to: forever)
    }

    @Test func aRareButRealMatchIsFound() {
        // 29 February on a Monday: 2044 after 2016.
        let got = Recurrence.occurrences(
            of: rule("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO"), start: start,
            zone: utcZone, from: start, to: .distantFuture, limit: 3)
        #expect(got == ["2026-01-01T09:00:00Z", "2044-02-29T09:00:00Z", "2072-02-29T09:00:00Z"].map(utc))
    }

    @Test(.timeLimit(.minutes(1))) func hugeCountAndIntervalAreBounded() {
        let got = run(
            "FREQ=MINUTELY;COUNT=100000", from: utc("2026-03-01T00:00:00Z"), to: .distantFuture,
            limit: 100_000)
        #expect(got.count == 100_000 - (59 * 1440 - 9 * 60))  // less those before 1 March
        #expect(
            run("FREQ=SECONDLY;INTERVAL=1000000;COUNT=3", to: .distantFuture) == [
                start, start.addingTimeInterval(1_000_000), start.addingTimeInterval(2_000_000),
            ])
    }
}
