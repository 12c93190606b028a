import BeautyCore
import BeautyTestSupport
import Foundation
import Testing

@Suite("An edit that makes a timed appointment all-day")
struct AllDayEditTests {
    let epoch = Date(timeIntervalSince1970: 0)

    func timed(_ start: Date, durationSeconds: Int = 3600) -> Appointment {
        Appointment(
            title: "Haircut", start: start, durationSeconds: durationSeconds,
            reminders: [.before(86_400), .before(7200)], createdAt: epoch, updatedAt: epoch)
    }

    @Test func itLastsADayFromMidnightAndWholeDaysRemindAtTheAllDayTime() throws {
        let stored = timed(instant("2030-03-05 16:00"))
        var edited = stored
        edited.allDay = true
        let a = try AppointmentDraft.editing(stored, to: edited, durationGiven: false, placesStart: true).resolved(
            zone: warsaw)
        #expect(
            a.start == instant("2030-03-05 00:00") && a.durationSeconds == 86_400
                && a.end == instant("2030-03-06 00:00"))
        var withID = a
        withID.id = 1
        #expect(
            ReminderPlanner.triggers(for: withID, allDay: AllDayReminders(zone: warsaw)).map(\.fireAt)
                == [instant("2030-03-04 09:00"), instant("2030-03-04 22:00")],
            "1d before is 09:00 the day before (not midnight, not 16:00); 2h before is counted from midnight")
    }

    @Test func allDayLeadTimesKeepTheConfiguredTimeOfDayAcrossAClockChange() throws {
        var spa = Appointment(
            title: "Spa", start: instant("2030-04-01 00:00"), durationSeconds: 86_400, allDay: true,
            reminders: [
                .before(86_400), .before(2 * 86_400), .before(0), .before(1800),
                .at(instant("2030-03-31 18:00")),
            ],
            createdAt: epoch, updatedAt: epoch)
        spa.id = 7
        let rule = AllDayReminders(time: ClockTime(hour: 8, minute: 30), zone: warsaw)
        // Warsaw moves its clocks forward on 31 March 2030 at 02:00: whole days stay on 08:30.
        let triggers = ReminderPlanner.triggers(for: spa, allDay: rule)
        #expect(
            triggers.map(\.fireAt)
                == [
                    instant("2030-03-30 08:30"), instant("2030-03-31 08:30"), instant("2030-03-31 18:00"),
                    instant("2030-03-31 23:30"), instant("2030-04-01 08:30"),
                ])
        var timed = spa
        timed.allDay = false
        timed.start = instant("2030-04-01 16:00")
        #expect(
            ReminderPlanner.triggers(for: timed, allDay: rule).first?.fireAt == instant("2030-03-30 15:00"),
            "a timed visit's lead is counted from its start (48 hours, across the clock change)")
        let warnings = AppointmentDraft.warnings(
            for: spa, deliveries: triggers.map { Delivery(trigger: $0, state: .pending) }, zone: warsaw,
            now: instant("2030-03-29 12:00"), allDayTime: rule.time)
        #expect(warnings.isEmpty, "a reminder on the day, before the all-day time, is no slip: \(warnings)")
    }

    @Test func aDurationGivenOrAnAppointmentAlreadyAllDayKeepsItsLength() throws {
        let stored = timed(instant("2030-03-05 16:00"))
        var edited = stored
        edited.allDay = true
        edited.durationSeconds = 2 * 86_400
        #expect(
            try AppointmentDraft.editing(stored, to: edited, durationGiven: true, placesStart: true)
                .resolved(zone: warsaw).durationSeconds == 2 * 86_400)
        var allDay = timed(instant("2030-03-05 00:00"), durationSeconds: 3 * 86_400)
        allDay.allDay = true
        var retitled = allDay
        retitled.title = "Spa days"
        #expect(
            try AppointmentDraft.editing(allDay, to: retitled, durationGiven: false, placesStart: false)
                .resolved(zone: warsaw).durationSeconds == 3 * 86_400)
        var timedAgain = allDay
        timedAgain.allDay = false
        #expect(
            try AppointmentDraft.editing(allDay, to: timedAgain, durationGiven: false, placesStart: true)
                .resolved(zone: warsaw).durationSeconds == 3 * 86_400, "only becoming all-day changes the length")
    }
}
