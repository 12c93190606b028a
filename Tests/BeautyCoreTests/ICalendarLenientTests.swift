@testable import BeautyCore
import BeautyTestSupport
import Foundation
import Testing

/// One VEVENT in a minimal VCALENDAR; the event begins at line 3, its own lines start at line 4.
private func oneEvent(_ lines: String...) -> String {
    (["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT"] + lines + ["END:VEVENT", "END:VCALENDAR"]).joined(
        separator: "\r\n") + "\r\n"
}

private func read(_ text: String) throws -> ICalendar.Import { try ICalendar.read(text, defaultZone: warsaw) }

private func only(_ text: String) throws -> (event: CalendarEvent, warnings: [ImportWarning]) {
    let result = try read(text)
    try #require(result.events.count == 1)
    return (result.events[0], result.warnings)
}

private func export(_ events: [CalendarEvent]) -> String {
    ICalendar.serialize(events, stamp: utc("2026-11-23T10:00:00Z"), defaultZone: warsaw)
}

@Suite("iCalendar: everything RFC 5545 allows in an event")
struct ICalendarRecurrenceSetTests {
    @Test func rdatesWithoutAnRRuleAreASeries() throws {
        let (event, _) = try only(
            oneEvent(
                "UID:r", "SUMMARY:Henna", "DTSTART;TZID=Europe/Warsaw:20261201T100000",
                "RDATE;TZID=Europe/Warsaw:20261208T100000,20261215T100000"))
        let a = event.appointment()
        #expect(a.recurrence?.rule == "" && a.recurrence?.rdates.count == 2)
        let starts = AppointmentOccurrences.starts(of: a, from: .distantPast, to: .distantFuture, zone: warsaw)
        #expect(starts == [instant("2026-12-01 10:00"), instant("2026-12-08 10:00"), instant("2026-12-15 10:00")])
    }

    @Test func severalRRulesAreTheirUnion() throws {
        let (event, _) = try only(
            oneEvent(
                "UID:two", "SUMMARY:Gym", "DTSTART;TZID=Europe/Warsaw:20261201T180000",
                "RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=18", "RRULE:FREQ=WEEKLY;BYDAY=TH;COUNT=18"))
        #expect(event.rrule == "FREQ=WEEKLY;BYDAY=TU;COUNT=18" && event.moreRules == ["FREQ=WEEKLY;BYDAY=TH;COUNT=18"])
        let starts = AppointmentOccurrences.starts(
            of: event.appointment(), from: .distantPast, to: .distantFuture, zone: warsaw)
        // DTSTART is the first instance of each rule: 18 Tuesdays and 17 Thursdays.
        #expect(starts.count == 35)
        #expect(export([event]).components(separatedBy: "RRULE:FREQ=WEEKLY").count == 3, "both rules are written back")
    }

    @Test func aDateTimeExdateWithATZIDOnAnAllDaySeriesExcludesItsDay() throws {
        let (event, _) = try only(
            oneEvent(
                "UID:d", "SUMMARY:Dzień SPA", "DTSTART;VALUE=DATE:20261201", "DTEND;VALUE=DATE:20261202",
                "RRULE:FREQ=DAILY;COUNT=3", "EXDATE;TZID=America/New_York:20261202T000000"))
        #expect(event.exdates == [instant("2026-12-02 00:00")])
        let starts = AppointmentOccurrences.starts(
            of: event.appointment(), from: .distantPast, to: .distantFuture, zone: warsaw)
        #expect(starts == [instant("2026-12-01 00:00"), instant("2026-12-03 00:00")])
        #expect(export([event]).contains("EXDATE;VALUE=DATE:20261202\r\n"), "the export keeps the same day")
    }
}

@Suite("iCalendar: valid files are not refused whole")
struct ICalendarLenientTests {
    @Test func anEventWithoutSummaryGetsATitleAndAWarning() throws {
        let google = try read(ICalendarFixtures.google)
        #expect(
            google.events[0].extraLines == [
                "CREATED:20261120T180344Z", "LAST-MODIFIED:20261120T180512Z", "SEQUENCE:0", "TRANSP:OPAQUE",
            ])
        let result = try read(
            ICalendarFixtures.google.replacingOccurrences(of: "SUMMARY:Fryzjer – koloryzacja\r\n", with: ""))
        let untitled = try #require(result.events.first { $0.summary.isEmpty })
        #expect(untitled.appointment().title == "(no title)")
        let warning = try #require(result.warnings.first { $0.message.contains("no SUMMARY") })
        #expect(warning.line == untitled.line && warning.message.contains("(no title)"))
        #expect(try Validation.appointment(untitled.appointment()).title == "(no title)")
    }

    @Test func aLocationWithLineBreaksIsKeptOnOneLine() throws {
        let (event, warnings) = try only(
            oneEvent(
                "UID:l", "SUMMARY:Fryzjer", "DTSTART:20261201T130000Z",
                "LOCATION:Salon Łucja\\nul. Żurawia 12\\n\\n00-503 Warszawa"))
        #expect(event.location == "Salon Łucja, ul. Żurawia 12, 00-503 Warszawa")
        #expect(warnings.map(\.line) == [7] && warnings[0].message.contains("LOCATION"))
        #expect(
            try Validation.appointment(event.appointment()).address == "Salon Łucja, ul. Żurawia 12, 00-503 Warszawa")
    }

    @Test func categoriesMapOntoTheTreeAndTheRestStayTagsAsGiven() throws {
        let (event, _) = try only(
            oneEvent(
                "UID:c", "SUMMARY:x", "DTSTART:20261201T130000Z",
                "CATEGORIES:Beauty Day,Manicure", "CATEGORIES:Work\\, Sarah,hair/cut"))
        #expect(event.categories == ["Beauty Day", "Manicure", "Work, Sarah", "hair/cut"])
        let tree = [(name: "hair/cut", title: "Haircut"), (name: "nails/manicure", title: "Manicure")]
        let assigned = CategoryAssignment.assign(event.appointment().tags, tree: tree)
        #expect(assigned.category == "nails/manicure" && assigned.tags == ["Beauty Day", "Work, Sarah", "hair/cut"])
        // Export writes the category first, so importing it again gives the same split.
        var a = event.appointment()
        (a.category, a.tags) = assigned
        let again = try only(export([CalendarEvent(a, contactName: nil)])).event.appointment()
        #expect(CategoryAssignment.assign(again.tags, tree: tree) == assigned)
    }

    @Test func unknownPropertiesAndSubcomponentsAreKeptAsTheyCameAndWrittenBack() throws {
        let text = oneEvent(
            "UID:k", "SUMMARY:x", "DTSTART:20261201T130000Z", "X-GOOGLE-CONFERENCE:https://meet.google.com/abc",
            "ATTENDEE;CN=\"Nowak, Anna\";PARTSTAT=ACCEPTED:mailto:anna@example.com", "SEQUENCE:3",
            "BEGIN:X-NESTED", "X-A:1", "END:X-NESTED")
        let (event, warnings) = try only(text)
        #expect(
            event.extraLines == [
                "X-GOOGLE-CONFERENCE:https://meet.google.com/abc",
                "ATTENDEE;CN=\"Nowak, Anna\";PARTSTAT=ACCEPTED:mailto:anna@example.com", "SEQUENCE:3",
                "BEGIN:X-NESTED", "X-A:1", "END:X-NESTED",
            ])
        #expect(warnings.isEmpty, "kept whole, nothing to report: \(warnings)")
        let written = export([event])
        #expect(written.contains("ATTENDEE;CN=\"Nowak, Anna\";PARTSTAT=ACCEPTED:mailto:anna@example.com\r\n"))
        #expect(try only(written).event == event)
    }

    @Test func beyondTheCapPerEventWhatIsNotKeptIsReported() throws {
        let big = "ATTACH;ENCODING=BASE64;VALUE=BINARY:" + String(repeating: "A", count: 40_000)
        let (event, warnings) = try only(oneEvent("UID:b", "SUMMARY:x", "DTSTART:20261201T130000Z", "X-SMALL:1", big))
        #expect(event.extraLines == ["X-SMALL:1"])
        #expect(warnings.count == 1 && warnings[0].line == 8 && warnings[0].message.contains("not kept"), "\(warnings)")
    }

    @Test func alarmsThatAreNoReminderAreKeptAndReported() throws {
        let (event, warnings) = try only(
            oneEvent(
                "UID:a", "SUMMARY:x", "DTSTART:20261201T130000Z", "DURATION:PT1H",
                "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=END:PT0S", "END:VALARM",  // 8: after the start
                // Apple's placeholder
                "BEGIN:VALARM", "ACTION:NONE", "TRIGGER;VALUE=DATE-TIME:19760401T005545Z", "END:VALARM",
                "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M", "END:VALARM",
                "BEGIN:VALARM", "ACTION:AUDIO", "TRIGGER:-PT15M", "END:VALARM",  // 20: the same reminder
                "BEGIN:VALARM", "ACTION:DISPLAY", "END:VALARM"))  // 24: no TRIGGER
        #expect(event.alarms == [.before(900)])
        #expect(event.extraLines.filter { $0 == "BEGIN:VALARM" }.count == 3)
        #expect(warnings.map(\.line) == [8, 20, 24], "\(warnings)")
        #expect(try only(export([event])).event == event, "the kept alarms come back as they were")
    }

    @Test func statusDoneCycleContactAndPhoneRoundTrip() throws {
        var a = Appointment(
            title: "Henna", start: utc("2026-12-01T13:00:00Z"), status: .done, repeatAfterDoneSeconds: 42 * 86_400)
        a.uid = "h@beautyd"
        let event = CalendarEvent(a, contactName: "Salon Anna", contactPhone: "+48 600 100 200")
        let text = export([event])
        #expect(
            text.contains("STATUS:CONFIRMED\r\n") && text.contains("X-BEAUTYD-STATUS:DONE\r\n")
                && text.contains("X-BEAUTYD-CYCLE:P6W\r\n"))
        #expect(text.contains("X-BEAUTYD-CONTACT;X-BEAUTYD-PHONE=+48 600 100 200:Salon Anna\r\n"))
        let back = try only(text).event
        #expect(
            back == event && back.appointment().status == .done
                && back.appointment().repeatAfterDoneSeconds == 42 * 86_400)
    }

    @Test func valuesBeautydCannotUseAreKeptAsTheyCameWithAWarning() throws {
        let (event, warnings) = try only(
            oneEvent(
                "UID:v", "SUMMARY:x", "DTSTART:20261201T130000Z", "COLOR:turquoise",
                "X-BEAUTYD-PRICE:lots", "STATUS:TENTATIVE"))
        #expect(event.color == nil && event.priceCents == nil)
        #expect(event.extraLines == ["COLOR:turquoise", "X-BEAUTYD-PRICE:lots"])
        #expect(warnings.map(\.line) == [7, 8, 9], "\(warnings)")
    }

    @Test func componentsThatAreNotEventsAreCounted() throws {
        let text = [
            "BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:t", "END:VTODO", "BEGIN:VTODO", "UID:t2", "END:VTODO",
            "BEGIN:VJOURNAL", "UID:j", "END:VJOURNAL", "BEGIN:VEVENT", "UID:e", "DTSTART:20261201T130000Z",
            "END:VEVENT",
            "END:VCALENDAR",
        ].joined(separator: "\r\n")
        let result = try read(text)
        #expect(result.events.count == 1)
        #expect(
            result.skipped.kinds == [
                .init(name: "VTODO", count: 2, firstLine: 2), .init(name: "VJOURNAL", count: 1, firstLine: 8),
            ])
    }

    @Test func anAllDayEventEndingOnItsOwnDayOrWithoutAnEndLastsThatDay() throws {
        let same = try only(oneEvent("UID:s", "SUMMARY:x", "DTSTART;VALUE=DATE:20261201", "DTEND;VALUE=DATE:20261201"))
            .event
        let open = try only(oneEvent("UID:o", "SUMMARY:x", "DTSTART;VALUE=DATE:20261201")).event
        #expect(same.durationSeconds == 86_400 && open.durationSeconds == 86_400)
        #expect(try only(export([same])).event == same)
    }
}
