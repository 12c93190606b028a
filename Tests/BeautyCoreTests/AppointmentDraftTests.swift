import BeautyCore
import BeautyTestSupport
import Foundation
import Testing

@Suite("Appointment draft: the rules that make a request an appointment")
struct AppointmentDraftTests {
    let epoch = Date(timeIntervalSince1970: 0)
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    func appointment(_ start: Date, allDay: Bool = false, reminders: [Reminder] = [], timeZone: String? = nil)
        -> Appointment
    {
        Appointment(
            title: "Spa day", start: start, allDay: allDay, reminders: reminders, timeZone: timeZone,
            createdAt: epoch, updatedAt: epoch)
    }

    @Test func anAllDayStartMovesToItsDaysMidnightInTheLocalZone() throws {
        let draft = AppointmentDraft.adding(
            appointment(instant("2026-12-24 15:30"), allDay: true),
            durationSeconds: nil, defaultDurationSeconds: 3600)
        let a = try draft.resolved(zone: warsaw)
        #expect(a.start == instant("2026-12-24 00:00"))
        #expect(a.durationSeconds == 86_400, "all-day without a duration lasts a day")
    }

    @Test func aPinnedAllDayAppointmentSnapsInItsOwnZone() throws {
        // 20:00 in Warsaw is already 04:00 on the 25th in Tokyo.
        let a = try AppointmentDraft.adding(
            appointment(instant("2026-12-24 20:00"), allDay: true, timeZone: "Asia/Tokyo"),
            durationSeconds: nil, defaultDurationSeconds: 3600
        ).resolved(zone: warsaw)
        #expect(a.start == instant("2026-12-25 00:00", "Asia/Tokyo"))
    }

    @Test func aTimedAppointmentKeepsItsStartAndTakesTheDefaultDuration() throws {
        let a = try AppointmentDraft.adding(
            appointment(instant("2026-12-24 15:30")), durationSeconds: nil,
            defaultDurationSeconds: 2700
        ).resolved(zone: warsaw)
        #expect(a.start == instant("2026-12-24 15:30") && a.durationSeconds == 2700)
        let given = try AppointmentDraft.adding(
            appointment(instant("2026-12-24 15:30"), allDay: true), durationSeconds: 172_800,
            defaultDurationSeconds: 2700
        ).resolved(zone: warsaw)
        #expect(given.durationSeconds == 172_800, "a duration given is kept")
    }

    @Test func anEditThatLeavesTheStartAloneNeverMovesIt() throws {
        let stored = appointment(instant("2026-12-24 15:30"), allDay: true)
        #expect(
            try AppointmentDraft(appointment: stored, placesStart: false).resolved(zone: warsaw).start
                == instant("2026-12-24 15:30"))
        #expect(
            try AppointmentDraft(appointment: stored, placesStart: true).resolved(zone: warsaw).start
                == instant("2026-12-24 00:00"))
        #expect(
            try AppointmentDraft(appointment: stored, placesStart: true).resolved(zone: tokyo).start
                == instant("2026-12-24 00:00", "Asia/Tokyo"), "the user's zone decides the day")
    }

    @Test func everyBecomesAWeeklyOrDailyRuleInWholeDays() throws {
        #expect(try AppointmentDraft.everyRule(seconds: 6 * 604_800) == "FREQ=WEEKLY;INTERVAL=6")
        #expect(try AppointmentDraft.everyRule(seconds: 10 * 86_400) == "FREQ=DAILY;INTERVAL=10")
        for bad in [3600, 86_400 + 3600, 0] {
            #expect(
                throws: ValidationError(
                    field: "everySeconds", "use whole days or weeks for appointments (e.g. 2w, 30d)")
            ) {
                try AppointmentDraft.everyRule(seconds: bad)
            }
        }
        let series = AppointmentDraft.Series(everySeconds: 2 * 604_800, exdates: [instant("2026-12-15 10:00")])
        let a = try AppointmentDraft.adding(
            appointment(instant("2026-12-01 10:00")), durationSeconds: nil,
            defaultDurationSeconds: 3600, series: series
        ).resolved(zone: warsaw)
        #expect(
            a.recurrence
                == AppointmentRecurrence(rule: "FREQ=WEEKLY;INTERVAL=2", exdates: [instant("2026-12-15 10:00")]))
    }

    @Test func oneRepetitionAtATimeAndExdatesOnlyWithASeries() throws {
        let rule = AppointmentRecurrence(rule: "FREQ=MONTHLY")
        #expect(throws: ValidationError(field: "everySeconds", "use recurrence or everySeconds, not both")) {
            try AppointmentDraft.Series(recurrence: rule, everySeconds: 86_400).resolved()
        }
        #expect(
            throws: ValidationError(
                field: "repeatAfterDoneSeconds", "use recurrence or repeatAfterDoneSeconds, not both")
        ) {
            try AppointmentDraft.Series(recurrence: rule, repeatAfterDoneSeconds: 86_400).resolved()
        }
        #expect(throws: ValidationError(field: "exdates", "goes with recurrence or everySeconds")) {
            try AppointmentDraft.Series(repeatAfterDoneSeconds: 86_400, exdates: [epoch]).resolved()
        }
        let flags = AppointmentDraft.Series.Fields(
            rule: "--repeat", every: "--every", cycle: "--every", exdates: "--except")
        #expect(throws: ValidationError(field: "--except", "goes with --repeat or --every")) {
            try AppointmentDraft.Series(exdates: [epoch], fields: flags).resolved()
        }
        let merged = try AppointmentDraft.Series(
            recurrence: AppointmentRecurrence(rule: "FREQ=DAILY", exdates: [epoch]),
            exdates: [epoch, epoch.addingTimeInterval(86_400)]
        ).resolved()
        #expect(merged?.exdates == [epoch, epoch.addingTimeInterval(86_400)], "exdates join the rule's, once each")
        #expect(try AppointmentDraft.Series().resolved() == nil)
    }

    @Test func theCycleAfterDoneIsWholeDaysFromOneDayToFiveYears() throws {
        #expect(try AppointmentDraft.cycleAfterDone(42 * 86_400) == 42 * 86_400)
        #expect(throws: ValidationError(field: "every", "use whole days or weeks for appointments (e.g. 2w, 30d)")) {
            try AppointmentDraft.cycleAfterDone(36 * 3600)
        }
        #expect(throws: ValidationError(field: "every", "a cycle after done must be between 1d and 5 years")) {
            try AppointmentDraft.cycleAfterDone(6 * 366 * 86_400)
        }
        var a = appointment(instant("2026-12-01 10:00"))
        a.repeatAfterDoneSeconds = 12 * 3600
        #expect(throws: ValidationError(field: "every", "use whole days or weeks for appointments (e.g. 2w, 30d)")) {
            try Validation.appointment(a)
        }
    }

    @Test func warningsNameRemindersInThePastAndAfterTheStart() {
        var a = appointment(
            instant("2026-12-01 10:00"),
            reminders: [.before(86_400), .before(3600), .at(instant("2026-12-01 12:00"))])
        a.id = 7
        let triggers = ReminderPlanner.triggers(for: a)
        // The day-before reminder was already past when it was saved: no delivery was planned for it.
        let planned = triggers.filter { $0.fireAt != instant("2026-11-30 10:00") }.map {
            Delivery(trigger: $0, state: .pending)
        }
        #expect(
            AppointmentDraft.warnings(for: a, deliveries: planned, zone: warsaw, now: instant("2026-11-30 12:00")) == [
                "the reminder at 2026-11-30 10:00 is already in the past; it will not fire",
                "the reminder at 2026-12-01 12:00 comes after the start (2026-12-01 10:00)",
            ])
        a.status = .done
        #expect(
            AppointmentDraft.warnings(for: a, deliveries: [], zone: warsaw, now: instant("2026-11-30 12:00")).isEmpty,
            "only a scheduled appointment's reminders")
    }

    @Test func aVisitBookedAfterItBeganIsNamedAsPast() {
        let a = appointment(instant("2026-11-20 10:00"))
        #expect(
            AppointmentDraft.warnings(for: a, deliveries: [], zone: warsaw, now: instant("2026-11-27 19:00")) == [
                "it starts in the past (2026-11-20 10:00): it stays scheduled until you mark it done or cancel it"
            ])
        var done = a
        done.status = .done
        #expect(
            AppointmentDraft.warnings(for: done, deliveries: [], zone: warsaw, now: instant("2026-11-27 19:00")).isEmpty
        )
        #expect(
            AppointmentDraft.warnings(for: a, deliveries: [], zone: warsaw, now: instant("2026-11-20 09:00")).isEmpty)
    }

    @Test func aSeriesReminderBeyondThePlanningHorizonIsNotCalledPast() {
        var a = appointment(instant("2027-01-10 10:00"), reminders: [.before(3600)])
        a.id = 8
        a.recurrence = AppointmentRecurrence(rule: "FREQ=WEEKLY")
        // Added on 25 November: the first reminder is six weeks away, past the two-week planning horizon.
        #expect(
            AppointmentDraft.warnings(for: a, deliveries: [], zone: warsaw, now: instant("2026-11-25 09:00")).isEmpty)
        #expect(
            AppointmentDraft.warnings(for: a, deliveries: [], zone: warsaw, now: instant("2027-01-10 09:30")) == [
                "the reminder at 2027-01-10 09:00 is already in the past; it will not fire"
            ])
    }
}
