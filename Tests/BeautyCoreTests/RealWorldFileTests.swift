@testable import BeautyCore
import BeautyTestSupport
import Foundation
import Testing

/// Files from public calendar projects' test data (Tests/BeautyTestSupport/Fixtures/README.md).
private func fixture(_ name: String) throws -> String {
    try String(contentsOfFile: try Locations.fixture("calendars/" + name), encoding: .utf8)
}

@Suite("Real-world calendar and contact files")
struct RealWorldFileTests {
    @Test func khalAllDayRDatesWithoutARule() throws {
        let result = try ICalendar.read(try fixture("khal-event_d_rdate.ics"), defaultZone: warsaw)
        let event = try #require(result.events.first)
        let a = event.appointment()
        #expect(a.allDay && a.recurrence?.rule == "" && result.warnings.isEmpty)
        let starts = AppointmentOccurrences.starts(of: a, from: .distantPast, to: .distantFuture, zone: warsaw)
        #expect(starts == ["2015-08-12", "2015-08-13", "2015-08-14", "2015-08-15"].map { instant("\($0) 00:00") })
    }

    @Test func icalendarCategoriesWithCommasAreTagsAsGiven() throws {
        let event = try #require(
            try ICalendar.parse(try fixture("icalendar-issue_127_categories_with_commas.ics"), defaultZone: warsaw)
                .first)
        #expect(event.categories == ["Meeting, John", "Work, Sarah", "Project"])
        let a = try Validation.appointment(event.appointment())
        #expect(a.category == nil && a.tags == ["Meeting, John", "Work, Sarah", "Project"])
    }

    @Test func icalendarTodosAndJournalsAreCountedNotImported() throws {
        let result = try ICalendar.read(
            try fixture("icalendar-issue_1050_calendar_with_events_and_todos.ics"), defaultZone: warsaw)
        #expect(result.events.map(\.summary) == ["Test Event 1", "Test Event 2"])
        #expect(result.skipped.description == "1 VTODO, 1 VJOURNAL")
        #expect(result.skipped.kinds.map(\.firstLine) == [33, 38])
    }

    @Test func ical4jUTCExdatesOnAZonedSeries() throws {
        let event = try #require(
            try ICalendar.parse(try fixture("ical4j-EXDATE-IN-UTC.ics"), defaultZone: warsaw).first)
        let starts = AppointmentOccurrences.starts(
            of: event.appointment(), from: .distantPast, to: utc("2007-06-01T00:00:00Z"), zone: warsaw)
        #expect(starts == [utc("2007-05-08T10:15:00Z"), utc("2007-05-29T10:15:00Z")])
    }

    @Test func evolutionVCard3() throws {
        let result = try VCard.read(try fixture("ezvcard-John_Doe_EVOLUTION.vcf"))
        let card = try #require(result.cards.first)
        #expect(
            card.contact
                == Contact(
                    name: "Mr. John Richter, James Doe Sr.", phone: "905-666-1234", email: "john.doe@ibm.com",
                    firstName: "John", lastName: "Doe",
                    address: "ASB-123, 15 Crescent moon drive, Albaney, New York, 12345, United States of America",
                    uid: "477343c8e6bf375a9bac1f96a5000837"))
        let messages = result.warnings.map(\.message)
        #expect(
            messages.contains { $0.contains("905-555-1234") && $0.contains("not kept") },
            "the second number is reported")
        for name in ["X-AIM", "URL", "NICKNAME", "ORG", "TITLE", "CATEGORIES", "BDAY"] {
            #expect(messages.contains { $0.hasPrefix(name + " ") }, "\(name) is reported: \(messages)")
        }
    }

    @Test func gmailCardsWithoutAPhoneAreListedNotImported() throws {
        let result = try VCard.read(try fixture("ezvcard-gmail-list.vcf"))
        #expect(result.cards.isEmpty)
        #expect(
            result.warnings.map(\.line) == [1, 7, 13] && result.warnings.allSatisfy { $0.message.contains("no TEL") })
    }

    @Test func rfc6350AuthorVCard4() throws {
        let result = try VCard.read(try fixture("rfc6350-author.vcf"))
        let contact = try #require(result.cards.first?.contact)
        #expect(
            contact.name == "Simon Perreault" && contact.phone == "+1-418-656-9254"
                && contact.email == "simon.perreault@viagenie.ca")
        #expect(contact.address == "Suite D2-630, 2875 Laurier, Quebec, QC, G1V 2M2, Canada")
        #expect(result.warnings.contains { $0.message.contains("+1-418-262-6501") })
    }
}
