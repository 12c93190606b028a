import BeautyCore
import BeautyTestSupport
import Foundation
import Testing

/// The reader of dose tasks against what each phone and desktop app writes (Fixtures/PhoneTasks,
/// `expected.tsv` says how each file reads), and its time rules.
@Suite struct DoseTaskReadingTests {
    struct Row: CustomStringConvertible, Sendable {
        var file: String
        var reading: String
        var time: String
        var rule: String
        var description: String { file }
    }

    static func fixture(_ name: String) throws -> String {
        try String(contentsOfFile: try Locations.fixture("PhoneTasks/" + name), encoding: .utf8)
    }

    static let rows: [Row] = {
        let text = (try? fixture("expected.tsv")) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.map { line in
            let fields = line.split(separator: "\t").map(String.init)
            return Row(file: fields[0], reading: fields[1], time: fields[2], rule: fields[3])
        }
    }()

    /// beautyd wrote the task the evening before; the poll that sees the answers runs at 07:10Z.
    static let written = utc("2026-11-27T23:00:00Z")
    static let noticed = utc("2026-11-28T07:10:00Z")

    @Test func everyFixtureHasARow() throws {
        let directory = try Locations.fixture("PhoneTasks")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".ics") }
        #expect(Set(files) == Set(Self.rows.map(\.file)))
        #expect(Self.rows.count == 25)
    }

    @Test(arguments: rows)
    func readsAsExpected(_ row: Row) throws {
        let reading = try DoseTaskReading.read(
            try Self.fixture(row.file), noticedAt: Self.noticed, lastWrittenAt: Self.written, zone: warsaw)
        #expect(reading.kind.description == row.reading)
        #expect(reading.at.map(basicUTC) ?? "-" == row.time)
        #expect(reading.rule.rawValue == row.rule)
    }

    /// A phone time before beautyd's last write, or past the poll by more than the clock skew, is not
    /// believed: the answer is timed by the poll that saw it.
    @Test func timesOutsideTheWriteAndTheSkewAreTheNoticedTime() throws {
        let ticked = try Self.fixture("davx5-tasksorg-completed.ics")
        let late = try DoseTaskReading.read(
            ticked, noticedAt: Self.noticed, lastWrittenAt: utc("2026-11-28T07:05:00Z"), zone: warsaw)
        #expect(late.at == Self.noticed)
        let skewed = try DoseTaskReading.read(
            ticked, noticedAt: utc("2026-11-28T06:55:00Z"), lastWrittenAt: Self.written, zone: warsaw)
        #expect(skewed.at == utc("2026-11-28T06:55:00Z"))
        let withinSkew = try DoseTaskReading.read(
            ticked, noticedAt: utc("2026-11-28T07:00:00Z"), lastWrittenAt: Self.written, zone: warsaw)
        #expect(withinSkew.at == utc("2026-11-28T07:04:12Z"))
    }

    /// COMPLETED's forms: `Z` is UTC even with a TZID, a TZID time is in that zone, floating is the
    /// dose's zone, a DATE is no time (the noticed one).
    @Test(arguments: [
        ("COMPLETED;TZID=UTC;VALUE=DATE-TIME:20261128T070412Z", "20261128T070412Z"),
        ("COMPLETED;TZID=Europe/Warsaw:20261128T070412Z", "20261128T070412Z"),
        ("COMPLETED;TZID=America/New_York:20261128T020412", "20261128T070412Z"),
        ("COMPLETED:20261128T080412", "20261128T070412Z"),
        ("COMPLETED;VALUE=DATE:20261128", "20261128T071000Z"),
    ])
    func completedForms(_ line: String, _ expected: String) throws {
        let ics = Self.task(["STATUS:COMPLETED", line])
        let reading = try DoseTaskReading.read(ics, noticedAt: Self.noticed, lastWrittenAt: Self.written, zone: warsaw)
        #expect(reading.kind == .taken)
        #expect(reading.rule == .r1)
        #expect(reading.at.map(basicUTC) == expected)
    }

    /// R4: COMPLETED without STATUS is taken; STATUS compares case-insensitively; an unknown status is open.
    @Test func statusRules() throws {
        func read(_ lines: [String]) throws -> PhoneReading {
            try DoseTaskReading.read(
                Self.task(lines), noticedAt: Self.noticed, lastWrittenAt: Self.written, zone: warsaw)
        }
        #expect(
            try read(["COMPLETED:20261128T070412Z"])
                == PhoneReading(kind: .taken, at: utc("2026-11-28T07:04:12Z"), rule: .r4))
        #expect(try read(["STATUS:completed"]).kind == .taken)
        #expect(try read(["STATUS:Cancelled"]) == PhoneReading(kind: .skipped, at: Self.noticed, rule: .r2))
        #expect(try read(["STATUS:IN-PROCESS", "PERCENT-COMPLETE:100"]).rule == .r3)
        #expect(try read(["STATUS:IN-PROCESS", "PERCENT-COMPLETE:50"]).kind == .open)
        // beautyd's taken answer un-ticked on the phone: the phone's reading, not beautyd's own.
        #expect(
            try read(["STATUS:NEEDS-ACTION", "X-BEAUTYD-ANSWER:taken"]) == PhoneReading(kind: .open, at: nil, rule: .r6)
        )
        // beautyd's skip ticked done on the phone: taken.
        #expect(try read(["STATUS:COMPLETED", "X-BEAUTYD-ANSWER:skipped"]).kind == .taken)
    }

    @Test func aFileWithoutATaskIsRefused() {
        #expect(throws: LineError.self) {
            try DoseTaskReading.read(
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n", noticedAt: Self.noticed, lastWrittenAt: nil,
                zone: warsaw)
        }
    }

    static func task(_ lines: [String]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:beautyd-dose-5d0c8e1f-20261128T070000Z"] + lines
            + ["END:VTODO", "END:VCALENDAR", ""]).joined(separator: "\r\n")
    }
}

/// `20261128T070412Z`.
func basicUTC(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
    return formatter.string(from: date)
}
