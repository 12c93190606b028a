import BeautyCore
import BeautyLocalization
import BeautyTestSupport
import Foundation
import Testing

/// The VTODO beautyd writes for a dose: byte for byte the design's fixtures (DTSTAMP aside), and
/// read back the same by the dose task reader and as a well-formed calendar by the iCalendar reader.
@Suite struct DoseTaskWritingTests {
    static let due = utc("2026-11-28T07:00:00Z")
    static let created = utc("2026-11-27T23:00:00Z")
    static let answeredAt = utc("2026-11-28T07:09:55Z")
    static let open = DoseTaskContent(
        key: "5d0c8e1f", due: due, zone: warsaw, summary: "Witamina D — 1 kapsułka",
        alarmText: "Witamina D — 1 kapsułka")
    static let polish = Localizer.forLanguage(.polish)

    /// The fixture's lines without DTSTAMP (every writer makes a new one).
    static func withoutStamp(_ ics: String) -> [String] {
        ics.components(separatedBy: "\r\n").filter { !$0.hasPrefix("DTSTAMP:") }
    }

    static func fixture(_ name: String) throws -> String {
        try String(contentsOfFile: try Locations.fixture("PhoneTasks/" + name), encoding: .utf8)
    }

    @Test(arguments: [
        ("beautyd-written.ics", open, created, 0),
        (
            "beautyd-written-private.ics",
            DoseTaskContent(
                key: "5d0c8e1f", due: due, zone: warsaw, summary: "Dawka 08:00", alarmText: "Dawka 08:00"),
            created, 0
        ),
        ("beautyd-answered-taken.ics", open.answered(.taken(at: answeredAt)), utc("2026-11-28T07:10:00Z"), 1),
        ("beautyd-answered-skipped.ics", open.answered(.skipped(at: answeredAt)), utc("2026-11-28T07:10:00Z"), 1),
        (
            "beautyd-closed-missed.ics", open.missed(by: utc("2026-11-28T07:30:00Z"), localizer: polish),
            utc("2026-11-28T07:30:00Z"), 1
        ),
    ])
    func writesTheFixture(_ name: String, _ content: DoseTaskContent, _ stamp: Date, _ sequence: Int) throws {
        let written = DoseTaskWriting.serialize(content, created: Self.created, stamp: stamp, sequence: sequence)
        #expect(Self.withoutStamp(written) == Self.withoutStamp(try Self.fixture(name)))
        #expect(written.contains("DTSTAMP:\(basicUTC(stamp))\r\n"))
    }

    /// The private summary is the catalog's "Dose %s" with the local time, in the user's language.
    @Test func privateModeNamesOnlyTheTime() {
        let medication = Medication(
            id: 1, name: "Witamina D", dose: "1 kapsułka",
            schedule: MedicationSchedule(kind: .times, times: [ClockTime(hour: 8, minute: 0)]),
            createdAt: utc("2026-11-01T00:00:00Z"))
        let wanted = DoseTaskPlan.wanted(
            medications: [TaskedMedication(medication: medication, key: "5d0c8e1f")],
            now: utc("2026-11-27T23:00:00Z"), days: 1, lateWindow: 1800, zone: warsaw, privateMode: true,
            localizer: Self.polish)
        #expect(wanted.map(\.content.summary) == ["Dawka 08:00"])
        #expect(wanted.map(\.content.alarmText) == ["Dawka 08:00"])
        let ics = DoseTaskWriting.serialize(wanted[0].content, created: Self.created, stamp: Self.created, sequence: 0)
        #expect(!ics.contains("Witamina"))
        #expect(DoseTaskPlan.listName(localizer: Self.polish) == "Leki")
        #expect(DoseTaskPlan.listName(localizer: .forLanguage(.slovak)) == "Lieky")
    }

    static let roundTrips: [DoseTaskContent] = {
        var long = open
        long.summary = "Kwas foliowy, żelazo; magnez \\ cynk — " + String(repeating: "ąę", count: 40)
        long.alarmText = long.summary
        var newYork = open
        newYork.zone = TimeZone(identifier: "America/New_York")!
        var inUTC = open
        inUTC.zone = TimeZone(identifier: "UTC")!
        // Written in UTC too, read back as "UTC": still the same task (a machine whose zone is Etc/UTC
        // had every task rewritten at every run).
        var inEtcUTC = open
        inEtcUTC.zone = TimeZone(identifier: "Etc/UTC")!
        var inGMT = open
        inGMT.zone = TimeZone(identifier: "GMT")!
        var noted = open.answered(.skipped(at: answeredAt))
        noted.note = "line one\nline two"
        return [
            open, long, newYork, inUTC, inEtcUTC, inGMT, noted, open.answered(.taken(at: answeredAt)),
            open.missed(by: utc("2026-11-28T07:30:00Z"), localizer: .english),
        ]
    }()

    @Test(arguments: roundTrips)
    func readsBackWhatItWrites(_ content: DoseTaskContent) throws {
        let ics = DoseTaskWriting.serialize(content, created: Self.created, stamp: Self.answeredAt, sequence: 3)
        #expect(try DoseTaskReading.written(ics, zone: warsaw) == content)
        #expect(ics.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 })

        let reading = try DoseTaskReading.read(
            ics, noticedAt: Self.answeredAt, lastWrittenAt: Self.answeredAt, zone: warsaw)
        switch content.answer {
        case nil: #expect(reading.kind == .open)
        case let answer?:
            #expect(reading.kind == .own(answer.kind))
            #expect(reading.at == answer.at)
        }

        // The iCalendar reader takes it as one well-formed calendar holding one task.
        let read = try ICalendar.read(ics, defaultZone: warsaw)
        #expect(read.events.isEmpty)
        #expect(read.warnings.isEmpty)
        #expect(read.skipped.kinds.map(\.name) == ["VTODO"])
        #expect(read.skipped.kinds.map(\.count) == [1])
    }

    /// Xandikos stores `TRIGGER:PT0S` as `TRIGGER:P0D`: the same alarm at the due time.
    @Test func anAlarmStoredAsP0DIsTheSameAlarm() throws {
        let stored = DoseTaskWriting.serialize(Self.open, created: Self.created, stamp: Self.created, sequence: 0)
            .replacingOccurrences(of: "TRIGGER:PT0S", with: "TRIGGER:P0D")
        #expect(try DoseTaskReading.written(stored, zone: warsaw) == Self.open)
    }

    @Test func uidsAreMadeAndParsed() throws {
        let uid = DoseTaskUID.make(key: "5d0c8e1f", due: Self.due)
        #expect(uid == "beautyd-dose-5d0c8e1f-20261128T070000Z")
        let parsed = try #require(DoseTaskUID.parse(uid))
        #expect(parsed.key == "5d0c8e1f" && parsed.due == Self.due)
        for other in [
            "beautyd-dose-5D0C8E1F-20261128T070000Z", "beautyd-dose-5d0c8e1-20261128T070000Z",
            "beautyd-dose-5d0c8e1f-20261128T070000", "beautyd-dose-5d0c8e1f-20261128T070000Z-x",
            "visit-1@beautyd", "beautyd-dose-5d0c8e1f-20261131T070000Z",
        ] {
            #expect(DoseTaskUID.parse(other) == nil, "\(other)")
        }
        let key = DoseTaskUID.newKey()
        #expect(DoseTaskUID.isKey(key))
        #expect(DoseTaskUID.parse(DoseTaskUID.make(key: key, due: Self.due))?.key == key)
    }
}
