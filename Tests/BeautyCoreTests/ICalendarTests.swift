@testable import BeautyCore
import BeautyTestSupport
import Foundation
import Testing

/// A calendar file from its lines, CRLF-terminated (line N of the array is line N+1 of the file).
private func ics(_ lines: String...) -> String { lines.joined(separator: "\r\n") + "\r\n" }

/// One VEVENT in a minimal VCALENDAR; the event's own lines start at line 4.
private func oneEvent(_ lines: String...) -> String {
    (["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT"] + lines + ["END:VEVENT", "END:VCALENDAR"])
        .joined(separator: "\r\n") + "\r\n"
}

private func parse(_ text: String, _ zone: TimeZone = warsaw) throws -> [CalendarEvent] {
    try ICalendar.parse(text, defaultZone: zone)
}

/// The events as beautyd reads them into fields, without the lines it keeps uninterpreted (tested apart).
private func fields(_ events: [CalendarEvent]) -> [CalendarEvent] {
    events.map { event in
        var copy = event
        copy.extraLines = []
        return copy
    }
}

private func only(_ text: String, _ zone: TimeZone = warsaw) throws -> CalendarEvent {
    let events = try parse(text, zone)
    try #require(events.count == 1)
    return events[0]
}

private let stamp = utc("2026-11-23T10:00:00Z")

private func export(_ events: [CalendarEvent], _ zone: TimeZone = warsaw) -> String {
    ICalendar.serialize(events, stamp: stamp, defaultZone: zone)
}

/// The physical lines of a written file, as bytes, split at CRLF.
private func physicalLines(_ text: String) -> [[UInt8]] {
    var lines: [[UInt8]] = [[]]
    let bytes = Array(text.utf8)
    var i = 0
    while i < bytes.count {
        if bytes[i] == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A {
            lines.append([])
            i += 2
        } else {
            lines[lines.count - 1].append(bytes[i])
            i += 1
        }
    }
    return lines.last == [] ? Array(lines.dropLast()) : lines
}

@Suite("iCalendar: a large export written in parts")
struct ICalendarPartsTests {
    @Test("written in parts at once, a large export has the bytes written in one part")
    func partsMakeTheSameFile() throws {
        var events: [CalendarEvent] = []
        for fixture in [ICalendarFixtures.google, ICalendarFixtures.thunderbird] { events += try parse(fixture) }
        let many = (0..<2_500).map { n in
            var event = events[n % events.count]
            event.uid += "-\(n)"
            event.start = event.start.addingTimeInterval(Double(n) * 3600)
            return event
        }
        let stamp = Date(timeIntervalSince1970: 1_800_000_000), zone = TimeZone(identifier: "Europe/Warsaw")!
        let whole = ICalendar.serializedBytes(many, stamp: stamp, defaultZone: zone, parts: 1)
        for parts in [2, 3, 7] {
            #expect(
                ICalendar.serializedBytes(many, stamp: stamp, defaultZone: zone, parts: parts) == whole,
                "\(parts) parts")
        }
        #expect(ICalendar.serializedBytes(many, stamp: stamp, defaultZone: zone) == whole)
        #expect(String(decoding: whole, as: UTF8.self).components(separatedBy: "BEGIN:VEVENT").count == 2_501)
    }
}

@Suite("iCalendar: files from other programs")
struct ICalendarFixtureTests {
    @Test func googleCalendarExport() throws {
        let salon = "Salon Fryzjerski Łucja, ul. Żurawia 12, 00-503 Warszawa, Polska"
        let uid = "4l1pq2v0s8d3m5k7j9h1g3f5e7@google.com"
        var moved = CalendarEvent(
            uid: uid, summary: "Fryzjer – koloryzacja", start: utc("2027-01-15T15:00:00Z"),
            durationSeconds: 5400, timeZone: "Europe/Warsaw", location: salon, notes: "Przeniesione na piątek.",
            status: "CONFIRMED", alarms: [.before(1800)])
        moved.recurrenceID = utc("2027-01-12T13:00:00Z")  // the moved occurrence, under its series' UID
        let expected = [
            CalendarEvent(
                uid: uid, summary: "Fryzjer – koloryzacja", start: utc("2026-12-01T13:00:00Z"), durationSeconds: 5400,
                timeZone: "Europe/Warsaw", location: salon,
                notes:
                    "Strzyżenie i koloryzacja u Pani Łucji.\nZadzwonić dzień wcześniej, żeby potwierdzić.\nCena ok. 180 zł; zaliczka 50 zł.",
                status: "CONFIRMED", rrule: "FREQ=WEEKLY;INTERVAL=6",
                alarms: [.before(1800)]),
            moved,
            CalendarEvent(
                uid: "0a9b8c7d6e5f4g3h2i1j0k9l8m@google.com", summary: "Depilacja laserowa – 3. zabieg",
                start: utc("2027-06-10T07:00:00Z"), durationSeconds: 2700, timeZone: "Europe/Warsaw",
                location: "Klinika Laser Med, al. Jana Pawła II 27, Warszawa", status: "TENTATIVE",
                alarms: [.before(86_400), .before(7200)]),
            CalendarEvent(
                uid: "7h6g5f4e3d2c1b0a9z8y7x6w5v@google.com", summary: "Wigilia – salon zamknięty",
                start: utc("2026-12-23T23:00:00Z"), allDay: true, durationSeconds: 86_400, status: "CONFIRMED"),
        ]
        let events = try parse(ICalendarFixtures.google)
        #expect(events.count == expected.count)
        for (got, want) in zip(fields(events), expected) { #expect(got == want) }
    }

    @Test func thunderbirdExport() throws {
        let expected = [
            CalendarEvent(
                uid: "7c1f2e3a-5b6d-4e8f-9a0b-1c2d3e4f5a6b", summary: "Manicure hybrydowy",
                start: utc("2026-11-03T16:00:00Z"), durationSeconds: 3600, timeZone: "Europe/Warsaw",
                location: "Studio Paznokci Ewa, ul. Długa 5, Gdańsk",
                notes: "Kolor: nude albo bordo.\nZabrać kartę stałego klienta (10% rabatu).",
                categories: ["Paznokcie", "Uroda"], status: "TENTATIVE", rrule: "FREQ=WEEKLY;INTERVAL=3",
                exdates: [utc("2026-11-24T16:00:00Z"), utc("2026-12-15T16:00:00Z"), utc("2027-01-05T16:00:00Z")],
                // -P1D, -PT2H, the absolute one, RELATED=END -PT1H30M of a 1 h event; PT15M (after the start) is skipped.
                alarms: [.before(86_400), .before(7200), .at(utc("2026-11-02T19:00:00Z")), .before(1800)]),
            // 24 Oct 00:00 CEST to 26 Oct 00:00 CET: two days with the 25-hour one in them.
            CalendarEvent(
                uid: "2a9d4c6e-8f10-4b32-a5c7-9e1d3f5b7a90", summary: "Weekend w SPA – Nałęczów",
                start: utc("2026-10-23T22:00:00Z"), allDay: true, durationSeconds: 176_400, categories: ["Relaks"]),
        ]
        let events = try parse(ICalendarFixtures.thunderbird)
        #expect(events.count == expected.count)  // the VTODO is not an event
        for (got, want) in zip(fields(events), expected) { #expect(got == want) }
    }

    @Test func appleCalendarExport() throws {
        let expected = [
            // The day after the US fall-back: 10:30 EST.
            CalendarEvent(
                uid: "9E5B2C1A-3D4F-4A6B-8C7D-0E1F2A3B4C5D", summary: "Facial – HydraFacial",
                start: utc("2026-11-02T15:30:00Z"), durationSeconds: 3600, timeZone: "America/New_York",
                location: "Glow Skin Studio, 350 5th Ave, New York, NY 10118, United States",  // an address is one line
                alarms: [.before(3600)]),  // the ACTION:NONE placeholder is not a reminder
            CalendarEvent(
                uid: "3F2504E0-4F89-11D3-9A0C-0305E82C3301", summary: "Video consult – dermatologist",
                start: utc("2026-11-15T17:00:00Z"), durationSeconds: 3600,
                notes: "Bring photos of the rash; list the creams used so far.", alarms: [.before(900)]),
        ]
        // Nothing floating in it, so the reader's zone does not matter.
        for zone in [warsaw, TimeZone(identifier: "America/New_York")!] {
            #expect(fields(try parse(ICalendarFixtures.apple, zone)) == expected)
        }
    }

    @Test func outlookExportWithAWindowsZoneName() throws {
        let expected = [
            // 28 Mar 2027 is the EU spring-forward day: 10:00 is already CEST.
            CalendarEvent(
                uid:
                    "040000008200E00074C5B7101A82E00800000000D0F1B6A3E64EDB01000000000000000010000000A1B2C3D4E5F60718293A4B5C6D7E8F90",
                summary: "Masaż", start: utc("2027-03-28T08:00:00Z"), durationSeconds: 3600, timeZone: "Europe/Warsaw",
                location: "Gabinet Masażu Relaks, Kraków",
                notes: "Masaż relaksacyjny 60 min. Proszę przyjść 10 minut wcześniej.\n\n", alarms: [.before(900)]),
            CalendarEvent(
                uid:
                    "040000008200E00074C5B7101A82E00800000000E1A2B3C4D5E6DB01000000000000000010000000FEDCBA98765432100123456789ABCDEF",
                summary: "Nowy Rok – salon nieczynny", start: utc("2026-12-31T23:00:00Z"), allDay: true,
                durationSeconds: 86_400),
        ]
        #expect(fields(try parse(ICalendarFixtures.outlook)) == expected)
    }

    static let fixtures = [
        "google": ICalendarFixtures.google, "thunderbird": ICalendarFixtures.thunderbird,
        "apple": ICalendarFixtures.apple, "outlook": ICalendarFixtures.outlook,
    ]

    @Test(arguments: fixtures.keys.sorted())
    func parsingTwiceGivesTheSameEventsAndUIDs(_ name: String) throws {
        let fixture = Self.fixtures[name]!
        let first = try parse(fixture)
        let second = try parse(fixture)
        #expect(first == second)
        // One event per UID and RECURRENCE-ID: a changed occurrence shares its series' UID.
        #expect(Set(first.map { "\($0.uid) \($0.recurrenceID?.timeIntervalSince1970 ?? -1)" }).count == first.count)
    }

    @Test(arguments: fixtures.keys.sorted())
    func lfAndBareCRLineEndsReadLikeCRLF(_ name: String) throws {
        let fixture = Self.fixtures[name]!
        let crlf = try parse(fixture)
        #expect(try parse(fixture.replacingOccurrences(of: "\r\n", with: "\n")) == crlf)
        #expect(try parse(fixture.replacingOccurrences(of: "\r\n", with: "\r")) == crlf)
        #expect(try parse("\u{FEFF}" + fixture) == crlf)
    }

    @Test(arguments: fixtures.keys.sorted())
    func importExportImportKeepsTheEventsAndExportIsByteIdentical(_ name: String) throws {
        let imported = try parse(Self.fixtures[name]!)
        let exported = export(imported)
        let reimported = try parse(exported)
        #expect(reimported == imported)
        #expect(export(reimported) == exported)
    }
}

@Suite("iCalendar: writing")
struct ICalendarWriterTests {
    static let sample = [
        CalendarEvent(
            uid: "a1@beautyd", summary: "Fryzjer, strzyżenie; grzywka", start: instant("2026-12-01 14:00"),
            durationSeconds: 5400, timeZone: "Europe/Warsaw", location: "ul. Żurawia 12",
            notes: "Zadzwoń dzień wcześniej.\nCena: 120 zł", categories: ["hair"], status: "CONFIRMED",
            rrule: "FREQ=WEEKLY;INTERVAL=6", exdates: [instant("2027-01-12 14:00")],
            alarms: [.before(86_400), .before(7200), .at(utc("2026-11-30T18:00:00Z"))],
            color: "pink", priceCents: 12_000, currency: "PLN", contactName: "Łucja Nowak"),
        CalendarEvent(
            uid: "a2@beautyd", summary: "Dzień SPA", start: instant("2026-12-12 00:00"), allDay: true,
            durationSeconds: 86_400, color: "#ff8800"),
        CalendarEvent(
            uid: "a3@beautyd", summary: "Konsultacja online", start: utc("2026-11-15T17:00:00Z"),
            durationSeconds: 1800, alarms: [.before(900)]),
    ]

    @Test func writesTheExactText() {
        let expected = ics(
            "BEGIN:VCALENDAR",
            "VERSION:2.0",
            "PRODID:-//beautyd//beautyd//EN",
            "CALSCALE:GREGORIAN",
            "X-WR-CALNAME:beautyd",
            "BEGIN:VTIMEZONE",
            "TZID:Europe/Warsaw",
            "X-LIC-LOCATION:Europe/Warsaw",
            "BEGIN:DAYLIGHT",
            "DTSTART:20250330T020000",
            "TZOFFSETFROM:+0100",
            "TZOFFSETTO:+0200",
            "TZNAME:GMT+2",
            "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
            "END:DAYLIGHT",
            "BEGIN:STANDARD",
            "DTSTART:20251026T030000",
            "TZOFFSETFROM:+0200",
            "TZOFFSETTO:+0100",
            "TZNAME:GMT+1",
            "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
            "END:STANDARD",
            "END:VTIMEZONE",
            "BEGIN:VEVENT",
            "UID:a1@beautyd",
            "DTSTAMP:20261123T100000Z",
            "DTSTART;TZID=Europe/Warsaw:20261201T140000",
            "DTEND;TZID=Europe/Warsaw:20261201T153000",
            "SUMMARY:Fryzjer\\, strzyżenie\\; grzywka",
            "LOCATION:ul. Żurawia 12",
            "DESCRIPTION:Zadzwoń dzień wcześniej.\\nCena: 120 zł",
            "CATEGORIES:hair",
            "STATUS:CONFIRMED",
            "RRULE:FREQ=WEEKLY;INTERVAL=6",
            "EXDATE;TZID=Europe/Warsaw:20270112T140000",
            "COLOR:pink",
            "X-BEAUTYD-COLOR:pink",
            "X-BEAUTYD-PRICE:120.00 PLN",
            "X-BEAUTYD-CONTACT:Łucja Nowak",
            "BEGIN:VALARM",
            "ACTION:DISPLAY",
            "TRIGGER:-P1D",
            "DESCRIPTION:Fryzjer\\, strzyżenie\\; grzywka",
            "END:VALARM",
            "BEGIN:VALARM",
            "ACTION:DISPLAY",
            "TRIGGER:-PT2H",
            "DESCRIPTION:Fryzjer\\, strzyżenie\\; grzywka",
            "END:VALARM",
            "BEGIN:VALARM",
            "ACTION:DISPLAY",
            "TRIGGER;VALUE=DATE-TIME:20261130T180000Z",
            "DESCRIPTION:Fryzjer\\, strzyżenie\\; grzywka",
            "END:VALARM",
            "END:VEVENT",
            "BEGIN:VEVENT",
            "UID:a2@beautyd",
            "DTSTAMP:20261123T100000Z",
            "DTSTART;VALUE=DATE:20261212",
            "DTEND;VALUE=DATE:20261213",
            "SUMMARY:Dzień SPA",
            "X-BEAUTYD-COLOR:#ff8800",
            "END:VEVENT",
            "BEGIN:VEVENT",
            "UID:a3@beautyd",
            "DTSTAMP:20261123T100000Z",
            "DTSTART:20261115T180000",  // no zone: floating, the wall time in the exporting zone
            "DTEND:20261115T183000",
            "SUMMARY:Konsultacja online",
            "BEGIN:VALARM",
            "ACTION:DISPLAY",
            "TRIGGER:-PT15M",
            "DESCRIPTION:Konsultacja online",
            "END:VALARM",
            "END:VEVENT",
            "END:VCALENDAR")
        #expect(export(Self.sample) == expected)
    }

    @Test func exportImportExportIsByteIdentical() throws {
        let first = export(Self.sample)
        let events = try parse(first)
        #expect(events == Self.sample)
        #expect(export(events) == first)
        // The reader's zone only matters for all-day dates; the same zone both ways keeps them.
        let newYork = TimeZone(identifier: "America/New_York")!
        let there = export(try parse(first, newYork), newYork)
        #expect(export(try parse(there, newYork), newYork) == there)
    }

    @Test func everyLineEndsInCRLFAndHasAtMost75Octets() {
        let text = export(
            Self.sample + [CalendarEvent(uid: String(repeating: "x", count: 300), summary: "", start: stamp)])
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\r"))
        for line in physicalLines(text) { #expect(line.count <= 75) }
    }

    @Test func foldsMultiByteTextWithoutSplittingCharactersAndUnfoldsIt() throws {
        let summary = String(repeating: "Żółć łąki źdźbło ", count: 12) + "🌸💅 koniec"
        let notes = "Pierwsza linia\n" + String(repeating: "ąęłńóśźż", count: 30)
        let event = CalendarEvent(
            uid: "fold@beautyd", summary: summary, start: utc("2026-12-01T13:00:00Z"), notes: notes)
        let text = export([event])
        let lines = physicalLines(text)
        #expect(lines.contains { $0.count == 75 || $0.count == 74 })
        for line in lines {
            #expect(line.count <= 75)
            #expect(String(validating: line, as: UTF8.self) != nil, "a line splits a UTF-8 sequence")
        }
        #expect(lines.filter { $0.first == 0x20 }.count > 6)
        let back = try only(text)
        #expect(back.summary == summary)
        #expect(back.notes == notes)
        #expect(export([back]) == text)
    }

    @Test func foldsBeforeATwoByteLetterThatWouldCrossOctet75() {
        // "SUMMARY:" is 8 octets; 66 more make 74, and "ł" (2 octets) would end at 76.
        let line = "SUMMARY:" + String(repeating: "a", count: 66) + "łąka"
        #expect(ICalendar.fold(line) == "SUMMARY:" + String(repeating: "a", count: 66) + "\r\n łąka\r\n")
        let exactly75 = "SUMMARY:" + String(repeating: "a", count: 65) + "ł"
        #expect(ICalendar.fold(exactly75) == exactly75 + "\r\n")
        let emoji = "SUMMARY:" + String(repeating: "a", count: 64) + "💅b"  // 72 + 4 > 75
        #expect(ICalendar.fold(emoji) == "SUMMARY:" + String(repeating: "a", count: 64) + "\r\n 💅b\r\n")
    }

    @Test func escapedTextRoundTrips() throws {
        let event = CalendarEvent(
            uid: "esc,ape;d\\uid", summary: #"Back\slash; semi, comma"#, start: utc("2026-12-01T13:00:00Z"),
            location: #"C:\new\table"#, notes: "line one\nline two\n\nend, really; yes \\n not a newline",
            categories: ["hair, nails", "face;spa"], contactName: "Anna \"Ania\" Nowak")
        let text = export([event])
        #expect(text.contains(#"SUMMARY:Back\\slash\; semi\, comma"#))
        #expect(text.contains(#"LOCATION:C:\\new\\table"#))
        #expect(text.contains(#"DESCRIPTION:line one\nline two\n\nend\, really\; yes \\n not a newline"#))
        #expect(text.contains(#"CATEGORIES:hair\, nails,face\;spa"#))
        #expect(try only(text) == event)
        #expect(export(try parse(text)) == text)
    }

    @Test func carriageReturnsBecomeNewlinesAndControlCharactersAreDropped() throws {
        let event = CalendarEvent(uid: "cr", summary: "a\u{07}b", start: stamp, notes: "one\r\ntwo\rthree")
        let text = export([event])
        #expect(text.contains("SUMMARY:ab\r\n"))
        #expect(text.contains(#"DESCRIPTION:one\ntwo\nthree"#))
        #expect(try only(text).notes == "one\ntwo\nthree")
    }

    @Test func emptyOptionalTextIsLeftOutSoTheRoundTripIsStable() throws {
        let event = CalendarEvent(
            uid: "e", summary: "", start: stamp, location: "", notes: "", categories: ["", "x"],
            status: "", rrule: "", color: "", contactName: "")
        let text = export([event])
        for name in ["SUMMARY", "LOCATION", "DESCRIPTION", "STATUS", "RRULE", "COLOR", "X-BEAUTYD-CONTACT"] {
            #expect(!text.contains("\r\n\(name):"))
        }
        #expect(export(try parse(text)) == text)
    }

    @Test func leadTimesAreWrittenAsShortDurations() {
        #expect(ICalendar.leadText(0) == "PT0S")
        #expect(ICalendar.leadText(900) == "-PT15M")
        #expect(ICalendar.leadText(5400) == "-PT1H30M")
        #expect(ICalendar.leadText(86_400) == "-P1D")
        #expect(ICalendar.leadText(90_061) == "-P1DT1H1M1S")
        #expect(ICalendar.leadText(604_800) == "-P1W")
        #expect(ICalendar.leadText(1_209_600) == "-P2W")
    }

    @Test func aTimeInTheRepeatedHourKeepsItsZoneAndOtherInstantsStayExact() throws {
        // 01:30Z on 25 Oct 2026 is 02:30 CET, the second 02:30 in Warsaw.
        let second230 = utc("2026-10-25T01:30:00Z")
        let event = CalendarEvent(
            uid: "fallback", summary: "Late", start: second230, durationSeconds: 3600,
            timeZone: "Europe/Warsaw", exdates: [second230])
        let text = export([event])
        #expect(text.contains("DTSTART;TZID=Europe/Warsaw:20261025T023000\r\n"))
        #expect(text.contains("DTEND;TZID=Europe/Warsaw:20261025T033000\r\n"))
        #expect(text.contains("EXDATE:20261025T013000Z\r\n"))  // 02:30 would read back as the first one
        let back = try only(text)
        // A wall time read back is its first occurrence (beautyd's rule); the end and the exdate are exact.
        #expect(back.start == utc("2026-10-25T00:30:00Z"))
        #expect(back.start.addingTimeInterval(TimeInterval(back.durationSeconds)) == utc("2026-10-25T02:30:00Z"))
        #expect(back.exdates == [second230])
        #expect(export([back]) == text)
    }

    @Test func allDayEventsAreWrittenInTheirZoneAndRoundedToWholeDays() throws {
        // A two-day event over the fall-back (49 h) and a one-day one given as 24 h on a 25 h day.
        let weekend = CalendarEvent(
            uid: "w", summary: "SPA", start: instant("2026-10-24 00:00"), allDay: true, durationSeconds: 176_400)
        let day = CalendarEvent(
            uid: "d", summary: "Day", start: instant("2026-10-25 00:00"), allDay: true, durationSeconds: 86_400)
        let text = export([weekend, day])
        #expect(text.contains("DTSTART;VALUE=DATE:20261024\r\nDTEND;VALUE=DATE:20261026\r\n"))
        #expect(text.contains("DTSTART;VALUE=DATE:20261025\r\nDTEND;VALUE=DATE:20261026\r\n"))
        let back = try parse(text)
        #expect(back[1].durationSeconds == 90_000)
        #expect(export(back) == text)
    }

    @Test func anUnknownZoneNameIsWrittenInUTC() throws {
        let event = CalendarEvent(uid: "z", summary: "x", start: utc("2026-12-01T13:00:00Z"), timeZone: "Mars/Olympus")
        let text = export([event])
        #expect(text.contains("DTSTART:20261201T130000Z\r\n"))
        #expect(try only(text).timeZone == nil)
    }
}

@Suite("iCalendar: reading times, zones and durations")
struct ICalendarTimeTests {
    @Test func utcFloatingAndZonedStarts() throws {
        let utcEvent = try only(oneEvent("UID:u", "DTSTART:20261201T130000Z"))
        #expect(utcEvent.start == utc("2026-12-01T13:00:00Z"))
        #expect(utcEvent.timeZone == nil)
        #expect(utcEvent.durationSeconds == 0)  // RFC 5545: a DATE-TIME with no end is an instant
        let floating = oneEvent("UID:f", "DTSTART:20261201T140000", "DURATION:PT45M")
        #expect(try only(floating).start == utc("2026-12-01T13:00:00Z"))
        #expect(try only(floating, TimeZone(identifier: "America/New_York")!).start == utc("2026-12-01T19:00:00Z"))
        #expect(try only(floating).timeZone == nil)
        #expect(try only(floating).durationSeconds == 2700)
        let zoned = try only(oneEvent("UID:z", "DTSTART;TZID=America/New_York:20261201T140000"))
        #expect(zoned.start == utc("2026-12-01T19:00:00Z"))
        #expect(zoned.timeZone == "America/New_York")
    }

    // Expected instants checked with Python's zoneinfo.
    @Test func aWallTimeSkippedBySpringForwardIsReadWithTheOffsetBeforeTheGap() throws {
        let event = try only(oneEvent("UID:g", "DTSTART;TZID=Europe/Warsaw:20260329T023000"))
        #expect(event.start == utc("2026-03-29T01:30:00Z"))  // 03:30 CEST (RFC 5545 §3.3.5)
        #expect(event.startWall == nil)  // a single event: no series keeps the wall time
    }

    @Test func aRepeatedWallTimeIsItsFirstOccurrence() throws {
        #expect(
            try only(oneEvent("UID:o", "DTSTART;TZID=Europe/Warsaw:20261025T023000")).start
                == utc("2026-10-25T00:30:00Z"))
        #expect(
            try only(oneEvent("UID:n", "DTSTART;TZID=America/New_York:20261101T013000")).start
                == utc("2026-11-01T05:30:00Z"))
    }

    @Test func durationDaysAreNominalAndHoursExact() throws {
        // From 10:00 CET on 28 Mar 2026 to 10:00 CEST the next day is 23 hours.
        let day = try only(oneEvent("UID:d", "DTSTART;TZID=Europe/Warsaw:20260328T100000", "DURATION:P1D"))
        #expect(day.durationSeconds == 82_800)
        let hours = try only(oneEvent("UID:h", "DTSTART;TZID=Europe/Warsaw:20260328T100000", "DURATION:PT24H"))
        #expect(hours.durationSeconds == 86_400)
        let utcDay = try only(oneEvent("UID:u", "DTSTART:20260328T100000Z", "DURATION:P1D"))
        #expect(utcDay.durationSeconds == 86_400)
        let mixed = try only(oneEvent("UID:m", "DTSTART:20261201T100000Z", "DURATION:P1W2DT3H4M5S"))
        #expect(mixed.durationSeconds == 9 * 86_400 + 3 * 3600 + 4 * 60 + 5)
    }

    @Test func allDayDefaultsToOneDayAndAcceptsDuration() throws {
        let plain = try only(oneEvent("UID:a", "DTSTART;VALUE=DATE:20261201"))
        #expect(plain.allDay && plain.durationSeconds == 86_400 && plain.timeZone == nil)
        #expect(plain.start == utc("2026-11-30T23:00:00Z"))
        let spring = try only(oneEvent("UID:s", "DTSTART;VALUE=DATE:20260329"))
        #expect(spring.durationSeconds == 82_800)
        let twoDays = try only(oneEvent("UID:t", "DTSTART;VALUE=DATE:20261201", "DURATION:P2D"))
        #expect(twoDays.durationSeconds == 172_800)
        // A TZID on a DATE (not allowed by RFC 5545) is ignored: all-day dates are the reader's.
        let tagged = try only(oneEvent("UID:x", "DTSTART;TZID=America/New_York;VALUE=DATE:20261201"))
        #expect(tagged.start == utc("2026-11-30T23:00:00Z") && tagged.timeZone == nil)
    }

    @Test func dtendMayUseAnotherZone() throws {
        let event = try only(oneEvent("UID:e", "DTSTART;TZID=Europe/Warsaw:20261201T140000", "DTEND:20261201T140000Z"))
        #expect(event.durationSeconds == 3600)
    }

    @Test func prefixedTZIDsFromOlderThunderbirdAndLibical() throws {
        for tzid in [
            "/mozilla.org/20070129_1/Europe/Warsaw", "/freeassociation.sourceforge.net/Tzfile/Europe/Warsaw",
            "/Europe/Warsaw",
        ] {
            let event = try only(oneEvent("UID:p", "DTSTART;TZID=\(tzid):20261201T140000"))
            #expect(event.timeZone == "Europe/Warsaw")
            #expect(event.start == utc("2026-12-01T13:00:00Z"))
        }
    }

    @Test func quotedTZIDAndWindowsNames() throws {
        let quoted = try only(oneEvent("UID:q", #"DTSTART;TZID="W. Europe Standard Time":20260701T090000"#))
        #expect(quoted.timeZone == "Europe/Berlin")
        #expect(quoted.start == utc("2026-07-01T07:00:00Z"))
        let eastern = try only(oneEvent("UID:e", "DTSTART;TZID=Eastern Standard Time:20260701T090000"))
        #expect(eastern.timeZone == "America/New_York")
        #expect(eastern.start == utc("2026-07-01T13:00:00Z"))
    }

    @Test func everyWindowsNameInTheTableIsAZoneHere() {
        for (windows, iana) in ZoneResolver.windowsZones {
            #expect(TimeZone(identifier: iana) != nil, "\(windows) → \(iana)")
            // Foundation reads "UTC" and "UTC-11" itself (as fixed offsets); no other name is a zone already.
            #expect(
                TimeZone(identifier: windows) == nil || windows.hasPrefix("UTC"), "\(windows) is already a zone name")
        }
    }

    private func customZone(_ tzid: String, _ parts: [String], start: String = "20261201T140000") -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTIMEZONE", "TZID:\(tzid)"] + parts + [
            "END:VTIMEZONE", "BEGIN:VEVENT", "UID:c", "DTSTART;TZID=\"\(tzid)\":\(start)", "END:VEVENT",
            "END:VCALENDAR",
        ]).joined(separator: "\r\n") + "\r\n"
    }

    @Test func aVTimezoneWithOneFixedOffsetIsUsed() throws {
        let standard = { (offset: String) in
            [
                "BEGIN:STANDARD", "DTSTART:16010101T000000", "TZOFFSETFROM:\(offset)", "TZOFFSETTO:\(offset)",
                "END:STANDARD",
            ]
        }
        let moscow = try only(customZone("Customized Time Zone", standard("+0300")))
        #expect(moscow.start == utc("2026-12-01T11:00:00Z"))
        #expect(moscow.timeZone == "Etc/GMT-3")
        let india = try only(customZone("Customized Time Zone 1", standard("+0530")))
        #expect(india.start == utc("2026-12-01T08:30:00Z"))
        #expect(india.timeZone == nil)  // no IANA name for a bare +05:30: written back in UTC
        let west = try only(customZone("(UTC-03:00) Somewhere", standard("-0300")))
        #expect(west.start == utc("2026-12-01T17:00:00Z"))
        #expect(west.timeZone == "Etc/GMT+3")
        #expect(try only(export([west])) == west)
    }

    @Test func aVTimezoneNamingItsIANAZoneIsUsed() throws {
        let event = try only(
            customZone(
                "Polska",
                [
                    "X-LIC-LOCATION:Europe/Warsaw", "BEGIN:DAYLIGHT", "TZOFFSETFROM:+0100",
                    "TZOFFSETTO:+0200", "DTSTART:19700329T020000", "END:DAYLIGHT",
                ],
                start: "20260701T120000"))
        #expect(event.timeZone == "Europe/Warsaw")
        #expect(event.start == utc("2026-07-01T10:00:00Z"))
    }

    @Test func exdatesAndRdatesInListsAndPeriods() throws {
        let event = try only(
            oneEvent(
                "UID:r", "DTSTART;TZID=Europe/Warsaw:20261201T140000", "RRULE:FREQ=DAILY;COUNT=5",
                "EXDATE:20261202T140000,20261203T130000Z",  // floating means the event's zone
                "EXDATE;TZID=America/New_York:20261204T080000",
                "EXDATE;TZID=Europe/Warsaw:20261202T140000",  // a repeat is dropped
                "RDATE;VALUE=PERIOD:20261210T130000Z/20261210T140000Z,20261211T130000Z/PT1H",
                "RDATE;VALUE=DATE:20261224"))
        #expect(
            event.exdates == [utc("2026-12-02T13:00:00Z"), utc("2026-12-03T13:00:00Z"), utc("2026-12-04T13:00:00Z")])
        #expect(
            event.rdates == [utc("2026-12-10T13:00:00Z"), utc("2026-12-11T13:00:00Z"), utc("2026-12-23T23:00:00Z")])
        #expect(event.rrule == "FREQ=DAILY;COUNT=5")
    }
}

@Suite("iCalendar: alarms, beautyd properties, UIDs")
struct ICalendarEventFieldTests {
    @Test func triggers() throws {
        let event = try only(
            oneEvent(
                "UID:t", "DTSTART:20261201T130000Z", "DURATION:PT1H",
                "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-P1W", "END:VALARM",
                "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=START:-PT0S", "END:VALARM",
                "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=END:-P1D", "END:VALARM",  // 23 h before the start
                // at the end: after the start
                "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=END:PT0S", "END:VALARM",
                "BEGIN:VALARM", "ACTION:AUDIO", "TRIGGER:-PT15M", "END:VALARM",
                "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M", "END:VALARM",  // the same reminder again
                "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;VALUE=DATE-TIME:20261201T090000", "END:VALARM",  // floating
                "BEGIN:VALARM", "ACTION:DISPLAY", "END:VALARM"))  // no TRIGGER: skipped
        #expect(
            event.alarms == [
                .before(604_800), .before(0), .before(82_800), .before(900), .at(utc("2026-12-01T08:00:00Z")),
            ])
    }

    @Test func beautydPropertiesAndColour() throws {
        let event = try only(
            oneEvent(
                "UID:b", "DTSTART:20261201T130000Z", "COLOR:turquoise", "X-BEAUTYD-COLOR:teal",
                "X-BEAUTYD-PRICE:45.50 EUR", "X-BEAUTYD-CONTACT:Ewa Nowak\\, Studio"))
        #expect(event.color == "teal")
        #expect(event.priceCents == 4550 && event.currency == "EUR")
        #expect(event.contactName == "Ewa Nowak, Studio")
        let other = try only(oneEvent("UID:c", "DTSTART:20261201T130000Z", "COLOR:turquoise", "X-BEAUTYD-PRICE:120"))
        #expect(
            other.color == nil && other.extraLines == ["COLOR:turquoise"],
            "a colour beautyd does not show is kept as it came")
        #expect(other.priceCents == 12_000 && other.currency == nil)
        #expect(export([other]).contains("X-BEAUTYD-PRICE:120.00\r\n"))
    }

    @Test func propertyAndParameterNamesAreCaseInsensitive() throws {
        let event = try only(
            oneEvent("uid:lower", "dtstart;tzid=Europe/Warsaw:20261201T140000", "summary:Hi", "status:cancelled"))
        #expect(
            event.uid == "lower" && event.summary == "Hi" && event.status == "CANCELLED"
                && event.timeZone == "Europe/Warsaw")
    }

    @Test func aMissingUIDIsSynthesizedFromTheEventAndStable() throws {
        let a = oneEvent("DTSTAMP:20261101T000000Z", "DTSTART:20261201T130000Z", "SUMMARY:Manicure")
        let sameButReexported = oneEvent("DTSTAMP:20261122T101010Z", "DTSTART:20261201T130000Z", "SUMMARY:Manicure")
        let other = oneEvent("DTSTAMP:20261101T000000Z", "DTSTART:20261201T130000Z", "SUMMARY:Pedicure")
        let uid = try only(a).uid
        #expect(
            uid.hasPrefix("synthesized-") && uid.hasSuffix("@beautyd") && uid.count == "synthesized-@beautyd".count + 16
        )
        #expect(try only(a).uid == uid)
        #expect(try only(sameButReexported).uid == uid)
        #expect(try only(other).uid != uid)
        #expect(
            try only(oneEvent("UID:", "DTSTART:20261201T130000Z", "SUMMARY:Manicure")).uid.hasPrefix("synthesized-"))
    }

    @Test func aRepeatedUIDKeepsTheHighestSequence() throws {
        let text = ics(
            "BEGIN:VCALENDAR", "VERSION:2.0",
            "BEGIN:VEVENT", "UID:dup", "SEQUENCE:2", "DTSTART:20261201T130000Z", "SUMMARY:v2", "END:VEVENT",
            "BEGIN:VEVENT", "UID:other", "DTSTART:20261201T130000Z", "END:VEVENT",
            "BEGIN:VEVENT", "UID:dup", "SEQUENCE:1", "DTSTART:20261201T130000Z", "SUMMARY:v1", "END:VEVENT",
            "BEGIN:VEVENT", "UID:dup", "SEQUENCE:3", "DTSTART:20261201T130000Z", "SUMMARY:v3", "END:VEVENT",
            "END:VCALENDAR")
        #expect(try parse(text).map(\.summary) == ["v3", ""])
    }

    @Test func severalCalendarsInOneFile() throws {
        let text = ics(
            "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:1", "DTSTART:20261201T130000Z", "END:VEVENT", "END:VCALENDAR",
            "", "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:2", "DTSTART:20261202T130000Z", "END:VEVENT", "END:VCALENDAR")
        #expect(try parse(text).map(\.uid) == ["1", "2"])
    }

    @Test func unknownComponentsAndPropertiesAreNotChecked() throws {
        let text = ics(
            "BEGIN:VCALENDAR", "VERSION:2.0",
            "BEGIN:VTODO", "UID:t", "DUE:tomorrow", "BEGIN:VALARM", "TRIGGER:soon", "END:VALARM", "END:VTODO",
            "BEGIN:VJOURNAL", "UID:j", "DTSTART:whenever", "END:VJOURNAL",
            "BEGIN:X-CUSTOM", "FOO:bar", "END:X-CUSTOM",
            "BEGIN:VEVENT", "UID:e", "DTSTART:20261201T130000Z", "X-ANYTHING;X-P=\"a:b;c\":whatever", "GEO:52.2;21.0",
            "BEGIN:X-NESTED", "X:1", "END:X-NESTED", "END:VEVENT",
            "END:VCALENDAR")
        #expect(try parse(text).map(\.uid) == ["e"])
    }

    @Test func parameterValuesAreUnquotedAndCaretDecoded() throws {
        let line =
            #"x-apple-structured-location;VALUE=URI;X-ADDRESS="Main St^n5, Town";X-TITLE=^'Glow^' ^^ Co,Other:geo:1,2"#
        let property = try ICalendar.property(Array(line.utf8), line: 1)
        #expect(property.name == "X-APPLE-STRUCTURED-LOCATION")
        #expect(property.params.map(\.name) == ["VALUE", "X-ADDRESS", "X-TITLE"])
        #expect(property.params[1].values == ["Main St\n5, Town"])
        #expect(property.params[2].values == ["\"Glow\" ^ Co", "Other"])
        #expect(property.value == "geo:1,2")
    }

    @Test func foldingInsideAnEscapeAndAfterTabs() throws {
        let text =
            "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:f\r\nDTSTART:20261201T130000Z\r\n"
            + "SUMMARY:Manicure \\\r\n , pedicure\\\r\n\t; spa\r\n"
            + "DESCRIPTION:ż\r\n ł\r\n\tw\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let event = try only(text)
        #expect(event.summary == "Manicure , pedicure; spa")
        #expect(event.notes == "żłw")
    }
}

@Suite("iCalendar: malformed files")
struct ICalendarErrorTests {
    static let cases: [(name: String, text: String, line: Int, fragment: String)] = [
        ("empty file", "", 1, "empty"),
        (
            "missing BEGIN:VCALENDAR",
            ics("VERSION:2.0", "BEGIN:VEVENT", "UID:a", "DTSTART:20261201T130000Z", "END:VEVENT"), 1, "BEGIN:VCALENDAR"
        ),
        (
            "missing END:VEVENT before the next event",
            ics(
                "BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:a", "DTSTART:20261201T130000Z",
                "BEGIN:VEVENT", "UID:b", "DTSTART:20261202T130000Z", "END:VEVENT", "END:VCALENDAR"), 6,
            "missing END:VEVENT"
        ),
        (
            "missing END:VEVENT before END:VCALENDAR",
            ics("BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:a", "DTSTART:20261201T130000Z", "END:VCALENDAR"),
            6, "missing END:VEVENT"
        ),
        (
            "missing END:VCALENDAR",
            ics("BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:a", "DTSTART:20261201T130000Z", "END:VEVENT"),
            6, "missing END:VCALENDAR"
        ),
        ("END without BEGIN", oneEvent("UID:a", "DTSTART:20261201T130000Z", "END:VALARM"), 6, "END:VALARM"),
        ("DTSTART:2026-13-45", oneEvent("UID:a", "SUMMARY:x", "DTSTART:2026-13-45"), 6, "2026-13-45"),
        ("month 13", oneEvent("UID:a", "DTSTART:20261345T100000"), 5, "20261345T100000"),
        ("30 February", oneEvent("UID:a", "DTSTART;VALUE=DATE:20260230"), 5, "20260230"),
        ("hour 24", oneEvent("UID:a", "DTSTART:20261201T240000Z"), 5, "20261201T240000Z"),
        ("bad DTEND", oneEvent("UID:a", "DTSTART:20261201T130000Z", "DTEND:tomorrow"), 6, "DTEND"),
        (
            "DTEND before DTSTART", oneEvent("UID:a", "DTSTART:20261201T130000Z", "DTEND:20261201T120000Z"), 6,
            "before DTSTART"
        ),
        (
            "bad EXDATE", oneEvent("UID:a", "DTSTART:20261201T130000Z", "EXDATE:20261208T130000Z,2026-12-15"), 6,
            "2026-12-15"
        ),
        (
            "TRIGGER:soon",
            oneEvent(
                "UID:a", "DTSTART:20261201T130000Z", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:soon", "END:VALARM"),
            8, "TRIGGER 'soon'"
        ),
        (
            "date-time TRIGGER that is not one",
            oneEvent(
                "UID:a", "DTSTART:20261201T130000Z", "BEGIN:VALARM", "TRIGGER;VALUE=DATE-TIME:-PT15M", "END:VALARM"), 7,
            "TRIGGER"
        ),
        ("DURATION:PT", oneEvent("UID:a", "DTSTART:20261201T130000Z", "DURATION:PT"), 6, "DURATION 'PT'"),
        ("DURATION:1h", oneEvent("UID:a", "DTSTART:20261201T130000Z", "DURATION:1h"), 6, "DURATION '1h'"),
        ("negative DURATION", oneEvent("UID:a", "DTSTART:20261201T130000Z", "DURATION:-PT1H"), 6, "negative"),
        ("DURATION out of order", oneEvent("UID:a", "DTSTART:20261201T130000Z", "DURATION:PT1M1H"), 6, "DURATION"),
        ("a line without ':'", oneEvent("UID:a", "DTSTART:20261201T130000Z", "SUMMARY Manicure"), 6, "no ':'"),
        (
            "text that is no property", oneEvent("UID:a", "DTSTART:20261201T130000Z", "Proszę przyjść: 10 min"), 6,
            "property name"
        ),
        ("parameter without a value", oneEvent("UID:a", "DTSTART;TZID:20261201T130000"), 5, "parameter"),
        ("unterminated quote", oneEvent("UID:a", "DTSTART;TZID=\"Europe/Warsaw:20261201T130000"), 5, "quoted"),
        ("continuation with nothing before", " BEGIN:VCALENDAR\r\n", 1, "continuation"),
        (
            "a VTIMEZONE with daylight rules that do not say when they start",
            ics(
                "BEGIN:VCALENDAR", "BEGIN:VTIMEZONE", "TZID:Moja strefa", "BEGIN:STANDARD", "TZOFFSETTO:+0100",
                "END:STANDARD",
                "BEGIN:DAYLIGHT", "TZOFFSETTO:+0200", "END:DAYLIGHT", "END:VTIMEZONE",
                "BEGIN:VEVENT", "UID:a", "DTSTART;TZID=Moja strefa:20261201T140000", "END:VEVENT", "END:VCALENDAR"), 4,
            "Moja strefa"
        ),
        (
            "a bad TZOFFSETTO",
            ics(
                "BEGIN:VCALENDAR", "BEGIN:VTIMEZONE", "TZID:Fixed", "BEGIN:STANDARD", "TZOFFSETTO:1 hour",
                "END:STANDARD", "END:VTIMEZONE",
                "BEGIN:VEVENT", "UID:a", "DTSTART;TZID=Fixed:20261201T140000", "END:VEVENT", "END:VCALENDAR"), 5,
            "TZOFFSETTO"
        ),
        ("text after END:VCALENDAR", ics("BEGIN:VCALENDAR", "END:VCALENDAR", "SUMMARY:x"), 3, "after END:VCALENDAR"),
        (
            "a calendar inside an event",
            oneEvent("UID:a", "DTSTART:20261201T130000Z", "BEGIN:VCALENDAR", "END:VCALENDAR"), 6, "inside VEVENT"
        ),
    ]

    @Test(arguments: cases.indices)
    func reportsTheLine(_ index: Int) {
        let (name, text, line, fragment) = Self.cases[index]
        do {
            let events = try ICalendar.parse(text, defaultZone: warsaw)
            Issue.record("\(name): parsed \(events.count) events instead of failing")
        } catch let error as ICalendarError {
            #expect(error.line == line, "\(name): \(error)")
            #expect(error.message.contains(fragment), "\(name): \(error)")
            #expect(error.description == "line \(line): \(error.message)")
        } catch {
            Issue.record("\(name): unexpected \(error)")
        }
    }

    @Test func lineNumbersCountTheFoldedLinesOfTheFile() {
        let text = ics(
            "BEGIN:VCALENDAR",  // 1
            "BEGIN:VEVENT",  // 2
            "UID:a",  // 3
            "DESCRIPTION:a long description that was fold",  // 4
            " ed over",  // 5
            " three lines",  // 6
            "",  // 7
            "DTSTART:20261301T100000",  // 8
            "END:VEVENT",
            "END:VCALENDAR")
        #expect(
            throws: ICalendarError(
                line: 8,
                .verbatim(
                    "DTSTART '20261301T100000' is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS, Z for UTC)"))
        ) {
            try ICalendar.parse(text, defaultZone: warsaw)
        }
    }

    @Test func oneBadEventFailsTheWholeFile() {
        let text = ICalendarFixtures.google.replacingOccurrences(of: "TRIGGER:-P1D", with: "TRIGGER:soon")
        #expect(throws: ICalendarError.self) { try ICalendar.parse(text, defaultZone: warsaw) }
    }
}
