@testable import BeautyCore
import Foundation
import Testing

/// A calendar of VEVENTs, CRLF-terminated.
private func calendar(_ events: [String]...) -> String {
    (["BEGIN:VCALENDAR", "VERSION:2.0"] + events.flatMap { ["BEGIN:VEVENT"] + $0 + ["END:VEVENT"] } + ["END:VCALENDAR"])
        .joined(separator: "\r\n") + "\r\n"
}

/// Every Friday at 15:00 Warsaw time from 4 December 2026.
private let weekly = [
    "UID:nails@example.org", "DTSTART;TZID=Europe/Warsaw:20261204T150000", "DURATION:PT1H",
    "SUMMARY:Manicure", "RRULE:FREQ=WEEKLY",
]
/// The 11 December visit moved to 16:00.
private let movedEleventh = [
    "UID:nails@example.org", "RECURRENCE-ID;TZID=Europe/Warsaw:20261211T150000",
    "DTSTART;TZID=Europe/Warsaw:20261211T160000", "DURATION:PT1H", "SUMMARY:Manicure (later)",
]
/// The 18 December visit cancelled.
private let cancelledEighteenth = [
    "UID:nails@example.org", "RECURRENCE-ID;TZID=Europe/Warsaw:20261218T150000",
    "DTSTART;TZID=Europe/Warsaw:20261218T150000", "DURATION:PT1H", "SUMMARY:Manicure",
    "STATUS:CANCELLED",
]

private func w(_ day: Int, _ hour: Int, month: Int = 12, year: Int = 2026) -> Date {
    LocalTime.instant(year: year, month: month, day: day, hour: hour, in: warsaw)!
}

@Suite("iCalendar: changed occurrences (RECURRENCE-ID)")
struct RecurrenceIDTests {
    @Test func aChangedOccurrenceKeepsItsSeriesUIDAndTheSeriesGetsNoExdate() throws {
        let events = try ICalendar.parse(calendar(weekly, movedEleventh, cancelledEighteenth), defaultZone: warsaw)
        #expect(events.map(\.uid) == ["nails@example.org", "nails@example.org", "nails@example.org"])
        #expect(events.map(\.recurrenceID) == [nil, w(11, 15), w(18, 15)])
        #expect(events[0].exdates.isEmpty)
        let (appointments, names, _) = CalendarEvent.importing(events, zone: warsaw)
        #expect(names.count == 3)
        #expect(appointments.map(\.recurrenceID) == [nil, w(11, 15), w(18, 15)])
        #expect(
            appointments[1].start == w(11, 16) && appointments[1].recurrence == nil
                && appointments[1].title == "Manicure (later)")
        #expect(appointments[2].status == .cancelled)
    }

    @Test func aChangedOccurrenceWithoutItsSeriesIsOneAppointmentNotASeries() throws {
        // Some programs copy the series' RRULE into the changed occurrence; alone it once gave a new series.
        let alone = movedEleventh + ["RRULE:FREQ=DAILY"]
        let events = try ICalendar.parse(calendar(alone), defaultZone: warsaw)
        #expect(events.count == 1 && events[0].rrule == "FREQ=DAILY", "the reader keeps what the file says")
        let appointments = CalendarEvent.importing(events, zone: warsaw).appointments
        #expect(appointments.count == 1)
        #expect(
            appointments[0].recurrence == nil && appointments[0].uid == "nails@example.org"
                && appointments[0].recurrenceID == w(11, 15))
        #expect(
            AppointmentOccurrences.starts(
                of: appointments[0], from: w(1, 0), to: w(1, 0, month: 1, year: 2028), zone: warsaw) == [w(11, 16)])
    }

    @Test func aRepeatedChangedOccurrenceKeepsTheHighestSequence() throws {
        let older = movedEleventh + ["SEQUENCE:1"]
        let newer =
            movedEleventh.map { $0 == "SUMMARY:Manicure (later)" ? "SUMMARY:Manicure (latest)" : $0 } + ["SEQUENCE:2"]
        let events = try ICalendar.parse(calendar(weekly, newer, older), defaultZone: warsaw)
        #expect(events.map(\.summary) == ["Manicure", "Manicure (latest)"])
    }

    @Test func thisAndFutureSplitsTheSeriesThereWithTheEventsChanges() throws {
        let fromEleventh = [
            "UID:nails@example.org", "RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Warsaw:20261211T150000",
            "DTSTART;TZID=Europe/Warsaw:20261211T170000", "DURATION:PT1H", "SUMMARY:Manicure (evenings)",
        ]
        let laterChange = [
            "UID:nails@example.org", "RECURRENCE-ID;TZID=Europe/Warsaw:20261225T150000",
            "DTSTART;TZID=Europe/Warsaw:20261224T170000", "DURATION:PT1H", "SUMMARY:Before Christmas",
        ]
        let events = try ICalendar.parse(calendar(weekly, fromEleventh, laterChange), defaultZone: warsaw)
        #expect(events[1].thisAndFuture && !events[2].thisAndFuture)
        let appointments = CalendarEvent.importing(events, zone: warsaw).appointments
        #expect(appointments.count == 3)
        let head = appointments[0], tail = appointments[1], later = appointments[2]
        #expect(head.uid == "nails@example.org" && head.recurrence?.rule == "FREQ=WEEKLY;UNTIL=20261211T135959Z")
        #expect(
            tail.uid == "nails@example.org/from-20261211T140000Z" && tail.recurrenceID == nil
                && tail.title == "Manicure (evenings)")
        #expect(tail.start == w(11, 17) && tail.recurrence?.rule == "FREQ=WEEKLY")
        // The later change now belongs to the new series, at the occurrence it has there.
        #expect(later.uid == tail.uid && later.recurrenceID == w(25, 17) && later.start == w(24, 17))
        let starts =
            AppointmentOccurrences.starts(of: head, from: w(1, 0), to: w(1, 0, month: 1, year: 2027), zone: warsaw)
            + AppointmentOccurrences.starts(of: tail, from: w(1, 0), to: w(1, 0, month: 1, year: 2027), zone: warsaw)
        #expect(starts == [w(4, 15), w(11, 17), w(18, 17), w(25, 17)])
    }

    @Test func exportWritesChangedOccurrencesAfterTheirSeriesWithItsUIDAndRecurrenceID() throws {
        let series = Appointment(
            id: 12, title: "Manicure", start: w(4, 15), durationSeconds: 3600, timeZone: "Europe/Warsaw",
            recurrence: AppointmentRecurrence(rule: "FREQ=WEEKLY", changed: [w(11, 15)]), uid: "nails@example.org")
        var moved = SeriesOccurrence.detached(from: series, at: w(11, 15))
        moved.id = 13
        moved.start = w(11, 16)
        let single = Appointment(
            id: 14, title: "Facial", start: w(5, 10), durationSeconds: 3600, uid: "facial@example.org")
        // By start time, as the daemon answers: the moved occurrence is not next to its series there.
        let events = CalendarEvent.exporting([series, single, moved], contactNames: [nil, nil, nil])
        #expect(events.map(\.summary) == ["Manicure", "Manicure", "Facial"])
        let text = ICalendar.serialize(events, stamp: w(1, 0), defaultZone: warsaw)
        #expect(!text.contains("EXDATE") && !text.contains("#"))
        #expect(text.components(separatedBy: "UID:nails@example.org\r\n").count == 3)
        #expect(text.contains("RECURRENCE-ID;TZID=Europe/Warsaw:20261211T150000\r\n"), "\(text)")

        let back = CalendarEvent.importing(try ICalendar.parse(text, defaultZone: warsaw), zone: warsaw).appointments
        #expect(back.map(\.recurrenceID) == [nil, w(11, 15), nil])
        #expect(back[1].start == w(11, 16) && back[1].uid == "nails@example.org")
    }

    @Test func anAllDaySeriesWritesItsRecurrenceIDAsADate() throws {
        let start = LocalTime.instant(year: 2026, month: 12, day: 4, hour: 0, in: warsaw)!
        let series = Appointment(
            id: 1, title: "Spa", start: start, durationSeconds: 86_400, allDay: true,
            recurrence: AppointmentRecurrence(rule: "FREQ=WEEKLY"), uid: "spa@example.org")
        var moved = SeriesOccurrence.detached(from: series, at: start.addingTimeInterval(7 * 86_400))
        moved.id = 2
        moved.title = "Spa (friend)"
        let text = ICalendar.serialize(
            CalendarEvent.exporting([series, moved], contactNames: [nil, nil]), stamp: start, defaultZone: warsaw)
        #expect(text.contains("RECURRENCE-ID;VALUE=DATE:20261211\r\n"), "\(text)")
        let back = try ICalendar.parse(text, defaultZone: warsaw)
        #expect(back[1].recurrenceID == moved.recurrenceID && back[1].recurrenceIDIsDate)
    }

    @Test func splittingACountedSeriesSharesTheCount() throws {
        let series = Appointment(
            id: 1, title: "Laser", start: w(4, 15), durationSeconds: 3600,
            recurrence: AppointmentRecurrence(rule: "FREQ=WEEKLY;COUNT=6", exdates: [w(11, 15), w(25, 15)]))
        let (head, tail) = try SeriesSplit.split(series, at: w(18, 15), zone: warsaw, newUID: nil)
        #expect(head.recurrence?.rule == "FREQ=WEEKLY;COUNT=2" && head.recurrence?.exdates == [w(11, 15)])
        #expect(
            tail.recurrence?.rule == "FREQ=WEEKLY;COUNT=4" && tail.recurrence?.exdates == [w(25, 15)]
                && tail.start == w(18, 15))
        let error = #expect(throws: ValidationError.self) {
            try SeriesSplit.split(series, at: w(18, 16), zone: warsaw, newUID: nil)
        }
        #expect(
            error?.message.contains("the nearest are 2026-12-04 15:00, 2026-12-18 15:00, 2027-01-01 15:00") == true,
            "\(String(describing: error))")
    }
}
