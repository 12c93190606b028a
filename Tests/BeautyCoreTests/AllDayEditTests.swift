import BeautyCore
import BeautyTestSupport
import Foundation
import Testing

@Suite("An edit that makes a timed appointment all-day")
struct AllDayEditTests {
    let epoch = Date(timeIntervalSince1970: 0)

    func timed(_ start: Date, durationSeconds: Int = 3600) -> Appointment {
        Appointment(title: "Haircut", start: start, durationSeconds: durationSeconds,
                    reminders: [.before(86_400), .before(7200)], createdAt: epoch, updatedAt: epoch)
    }

    @Test func itLastsADayFromMidnightAndItsLeadTimesCountFromMidnight() throws {
        let stored = timed(instant("2030-03-05 16:00"))
        var edited = stored
        edited.allDay = true
        let a = try AppointmentDraft.editing(stored, to: edited, durationGiven: false, placesStart: true).resolved(zone: warsaw)
        #expect(a.start == instant("2030-03-05 00:00") && a.durationSeconds == 86_400 && a.end == instant("2030-03-06 00:00"))
        var withID = a
        withID.id = 1
        #expect(ReminderPlanner.triggers(for: withID).map(\.fireAt) == [instant("2030-03-04 00:00"), instant("2030-03-04 22:00")],
                "1d before is the previous midnight, not 16:00")
    }

    @Test func aDurationGivenOrAnAppointmentAlreadyAllDayKeepsItsLength() throws {
        let stored = timed(instant("2030-03-05 16:00"))
        var edited = stored
        edited.allDay = true
        edited.durationSeconds = 2 * 86_400
        #expect(try AppointmentDraft.editing(stored, to: edited, durationGiven: true, placesStart: true)
            .resolved(zone: warsaw).durationSeconds == 2 * 86_400)
        var allDay = timed(instant("2030-03-05 00:00"), durationSeconds: 3 * 86_400)
        allDay.allDay = true
        var retitled = allDay
        retitled.title = "Spa days"
        #expect(try AppointmentDraft.editing(allDay, to: retitled, durationGiven: false, placesStart: false)
            .resolved(zone: warsaw).durationSeconds == 3 * 86_400)
        var timedAgain = allDay
        timedAgain.allDay = false
        #expect(try AppointmentDraft.editing(allDay, to: timedAgain, durationGiven: false, placesStart: true)
            .resolved(zone: warsaw).durationSeconds == 3 * 86_400, "only becoming all-day changes the length")
    }
}
