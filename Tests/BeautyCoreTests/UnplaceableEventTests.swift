@testable import BeautyCore
import BeautyTestSupport
import Foundation
import Testing

/// Real files (Tests/BeautyTestSupport/Fixtures/README.md) whose events cannot all be placed in time.
private func fixture(_ name: String) throws -> String {
    try String(contentsOfFile: try Locations.fixture("calendars/" + name), encoding: .utf8)
}

private func english(_ warnings: [ImportWarning]) -> [String] { warnings.map { "\($0.line): \($0.message)" } }

@Suite("iCalendar: an event that cannot be placed is left out or read in local time, the rest imported")
struct UnplaceableEventTests {
    @Test func rfc7986ImageEventsWithoutDTSTARTAreListedWithTheirUIDTodosAndJournalsCounted() throws {
        let read = try ICalendar.read(try fixture("icalendar-rfc_7986_image.ics"), defaultZone: warsaw)
        #expect(read.events.isEmpty)
        #expect(
            read.skippedEvents.map(\.line) == [2, 14] && read.skippedEvents.map(\.uid) == ["uri-event", "data-event"])
        #expect(
            read.skippedEvents.first?.message
                == "VEVENT '(no title)' (UID uri-event) has no DTSTART: it cannot be placed in time and is not imported"
        )
        #expect(read.skipped.description == "2 VTODO, 2 VJOURNAL")
    }

    @Test func rfc7986ConferencesWithoutDTSTARTOrUIDIsNamedByItsLine() throws {
        let read = try ICalendar.read(try fixture("icalendar-rfc_7986_conferences.ics"), defaultZone: warsaw)
        #expect(read.events.isEmpty && read.skippedEvents.count == 1)
        let skipped = try #require(read.skippedEvents.first)
        #expect(skipped.line == 2 && skipped.uid == nil && skipped.summary == nil)
        #expect(
            skipped.message
                == "VEVENT '(no title)' has no DTSTART and no UID: it cannot be placed in time and is not imported")
    }

    @Test func rfc9253RelatedToExamplesWithoutDTSTARTAreSkipped() throws {
        let read = try ICalendar.read(try fixture("icalendar-issue_798_related_to.ics"), defaultZone: warsaw)
        #expect(read.events.isEmpty && read.skippedEvents.map(\.line) == [2, 5])
    }

    @Test func theEventWithAStartIsImportedBesideOnesWithout() throws {
        let read = try ICalendar.read(try fixture("icalendar-issue_722_missing_timezones.ics"), defaultZone: warsaw)
        let event = try #require(read.events.first)
        #expect(read.events.count == 1 && event.summary == "an event with a custom tz name")
        #expect(
            event.start == utc("2014-08-29T12:00:00Z") && event.durationSeconds == 3 * 3600
                && event.timeZone == "America/New_York")
        #expect(read.skippedEvents.map(\.line) == [9, 15], "the changed occurrence and the RDATEs without a start")
        #expect(read.skipped.description == "1 VTODO")
    }

    @Test func aTZIDThatNamesNoZoneIsLocalTimeWithAWarningNamingTheEvent() throws {
        let read = try ICalendar.read(
            try fixture("icalendar-issue_722_missing_VTIMEZONE_custom.ics"), defaultZone: warsaw)
        let event = try #require(read.events.first)
        #expect(
            event.start == utc("2014-08-29T06:00:00Z") && event.timeZone == nil, "floating: it follows the user's zone")
        #expect(
            english(read.warnings) == [
                "2: VEVENT has no SUMMARY: imported with the title '(no title)'",
                "3: unknown time zone 'CUSTOM_tzid' (not an IANA or Windows name, and the file has no VTIMEZONE for it): '(no title)' is imported in local time, now Europe/Warsaw",
            ])
    }

    @Test func outlookFileWithAnAliasAnUnknownZoneAnEventWithoutStartAndATodo() throws {
        let read = try ICalendar.read(try fixture("outlook-unplaceable.ics"), defaultZone: warsaw)
        #expect(read.events.map(\.summary) == ["Koloryzacja", ""])
        #expect(read.events[0].timeZone == "Europe/Berlin" && read.events[0].start == utc("2030-12-04T09:00:00Z"))
        #expect(
            read.events[1].timeZone == nil && read.events[1].start == utc("2030-12-05T08:00:00Z")
                && read.events[1].durationSeconds == 1800)
        #expect(read.skippedEvents.map(\.line) == [29] && read.skippedEvents.first?.summary == "Henna brwi")
        #expect(read.skipped.description == "1 VTODO")
        #expect(
            english(read.warnings).contains { $0.hasPrefix("25: unknown time zone 'CUSTOM_tzid'") },
            "\(english(read.warnings))")
        #expect(!english(read.warnings).contains { $0.contains("Western/Central Europe") }, "a known alias is no guess")
    }

    @Test func unknownZonesAreNamedOncePerEventAndEXDATEsFollowToo() throws {
        let text = """
            BEGIN:VCALENDAR\r
            BEGIN:VEVENT\r
            UID:a\r
            SUMMARY:Peeling\r
            DTSTART;TZID=Mars/Olympus_Mons:20261201T140000\r
            DTEND;TZID=Mars/Olympus_Mons:20261201T150000\r
            RRULE:FREQ=WEEKLY;COUNT=3\r
            EXDATE;TZID=Nowhere:20261208T140000\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:b\r
            SUMMARY:Masaż\r
            DTSTART;TZID=Mars/Olympus_Mons:20261202T140000\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let read = try ICalendar.read(text, defaultZone: warsaw)
        #expect(read.events.map(\.start) == [utc("2026-12-01T13:00:00Z"), utc("2026-12-02T13:00:00Z")])
        #expect(read.events[0].exdates == [utc("2026-12-08T13:00:00Z")])
        #expect(read.warnings.map(\.line) == [5, 8, 13])
        #expect(read.warnings.map(\.text.args.first) == ["Mars/Olympus_Mons", "Nowhere", "Mars/Olympus_Mons"])
        #expect(read.warnings.map { $0.text.args[1] } == ["Peeling", "Peeling", "Masaż"])
    }

    @Test func cldrWindowsZoneNamesAndOutlooksAlias() throws {
        for (tzid, iana) in [
            ("Ekaterinburg Standard Time", "Asia/Yekaterinburg"), ("Afghanistan Standard Time", "Asia/Kabul"),
            ("Western/Central Europe", "Europe/Berlin"), ("W. Europe Standard Time", "Europe/Berlin"),
        ] {
            let read = try ICalendar.read(
                "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:z\r\nDTSTART;TZID=\"\(tzid)\":20261201T100000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
                defaultZone: warsaw)
            #expect(
                read.events.first?.timeZone == iana && read.warnings.count == 1, "\(tzid): \(english(read.warnings))")
        }
        #expect(ZoneResolver.windowsZones.count >= 139, "every zone of CLDR's windowsZones.xml")
    }

    @Test func bareVEVENTsWithoutVCALENDARAreOneCalendarWithAWarning() throws {
        let read = try ICalendar.read(try fixture("icalendar-rfc_9074_example_1.ics"), defaultZone: warsaw)
        let event = try #require(read.events.first)
        #expect(read.events.count == 1 && event.summary == "Meeting" && event.start == utc("2021-03-02T15:30:00Z"))
        #expect(event.alarms == [.before(15 * 60)])
        #expect(
            english(read.warnings).first == "1: the file has no BEGIN:VCALENDAR: its events were read as one calendar")
    }

    @Test func bareEventsBeforeAndAfterARealCalendar() throws {
        let text = [
            "BEGIN:VEVENT", "UID:a", "DTSTART:20261201T100000Z", "END:VEVENT",
            "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:b", "DTSTART:20261202T100000Z", "END:VEVENT", "END:VCALENDAR",
            "BEGIN:VEVENT", "UID:c", "DTSTART:20261203T100000Z", "END:VEVENT",
        ].joined(separator: "\n")
        let read = try ICalendar.read(text, defaultZone: warsaw)
        #expect(read.events.map(\.uid) == ["a", "b", "c"])
        #expect(
            read.warnings.filter { $0.message.hasPrefix("the file has no BEGIN:VCALENDAR") }.map(\.line) == [1, 11])
    }

    @Test func whatIsNotICalendarIsStillRefused() {
        for (name, text) in [
            ("empty", ""), ("CSV", "uuid,amount_ml,start,end\nx,250,2026-11-27T10:00:00Z,\n"),
            (
                "a property before any component",
                "VERSION:2.0\nBEGIN:VEVENT\nUID:a\nDTSTART:20261201T100000Z\nEND:VEVENT\n"
            ),
            ("an unknown component at the top", "BEGIN:VCARD\nFN:Anna\nEND:VCARD\n"),
        ] {
            #expect(throws: ICalendarError.self, "\(name)") { try ICalendar.read(text, defaultZone: warsaw) }
        }
    }
}
