import BeautyCore
import BeautyTestSupport
import Foundation
import Testing

/// A series reminds at most once a minute, whatever its rule: `RRULE:FREQ=SECONDLY` with a VALARM
/// from a server gave a popup a second. Pure: the occurrences and the clock are given.
@Suite struct SeriesReminderSpacingTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!
    let start = instant("2030-03-01 10:00")

    func series(_ rule: String, reminders: [Reminder] = [.before(0)]) -> Appointment {
        var a = Appointment(id: 9, title: "Every second", start: start, reminders: reminders)
        a.recurrence = AppointmentRecurrence(rule: rule)
        return a
    }

    func fireTimes(_ a: Appointment, from: Date, seconds: TimeInterval) -> [Date] {
        let occurrences = AppointmentOccurrences.starts(
            of: a, from: from, to: from.addingTimeInterval(seconds), zone: zone)
        return ReminderPlanner.triggers(for: a, occurrences: occurrences).map(\.fireAt).filter {
            $0 >= from && $0 < from.addingTimeInterval(seconds)
        }
    }

    @Test("FREQ=SECONDLY with a VALARM: one reminder in 15 seconds, at most five in five minutes, a minute apart")
    func secondlyRemindsOnceAMinute() {
        let a = series("FREQ=SECONDLY")
        #expect(fireTimes(a, from: start, seconds: 15) == [start])
        let fives = fireTimes(a, from: start, seconds: 300)
        #expect((2...5).contains(fives.count), "\(fives)")
        #expect(zip(fives, fives.dropFirst()).allSatisfy { $1.timeIntervalSince($0) >= 60 }, "\(fives)")
        #expect(ReminderPlanner.remindsLessOftenThanItOccurs(a))
    }

    @Test("planned again from any instant, the same reminders: none moves and none comes twice")
    func planningAgainKeepsTheSameReminders() {
        let a = series("FREQ=SECONDLY;INTERVAL=7")
        let whole = Set(fireTimes(a, from: start, seconds: 600))
        for offset in [1.0, 13, 59, 61, 200] {
            let later = start.addingTimeInterval(offset)
            let replanned = fireTimes(a, from: later, seconds: 600 - offset)
            #expect(Set(replanned).isSubset(of: whole), "from +\(offset) s: \(replanned)")
            #expect(zip(replanned, replanned.dropFirst()).allSatisfy { $1.timeIntervalSince($0) >= 60 }, "\(replanned)")
        }
    }

    @Test("a series a minute apart or slower, and a single appointment, keep every reminder")
    func slowerSeriesAndSingleAppointmentsAreUntouched() {
        let hourly = series("FREQ=HOURLY", reminders: [.before(600), .before(300)])
        #expect(fireTimes(hourly, from: start.addingTimeInterval(-3600), seconds: 5 * 3600).count == 8)
        #expect(!ReminderPlanner.remindsLessOftenThanItOccurs(hourly))
        let minutely = series("FREQ=MINUTELY")
        #expect(fireTimes(minutely, from: start, seconds: 600).count == 10)
        let single = Appointment(id: 3, title: "Once", start: start, reminders: [.before(0), .before(30)])
        #expect(ReminderPlanner.triggers(for: single).count == 2)
    }
}
