import BeautyCore
@testable import BeautyDaemon
import BeautyStore
import BeautyTestSupport
import Foundation
import Testing

/// When the dose loop next runs for an account (docs/PHONE_TASKS.md §7), with an injected clock and zone.
@Suite("Doses on the phone: when the dose loop runs")
struct PhoneTaskScheduleTests {
    let now = instant("2030-01-15 07:00")
    let poll: TimeInterval = 60

    func next(_ times: DoseTaskTimes, _ state: PhoneTaskState = PhoneTaskState(), windowEntry: Date? = nil)
        -> (at: Date, polls: Bool)?
    {
        PhoneTaskSchedule.next(times: times, state: state, poll: poll, windowEntry: windowEntry, now: now)
    }

    @Test("nothing pending: no run at all")
    func nothingPending() {
        #expect(next(DoseTaskTimes(open: 0, nextDue: nil, nextLateEnd: nil)) == nil)
    }

    @Test("a poll at the next due instant; a push when a dose enters the window, whichever comes first")
    func dueAndWindow() throws {
        let due = instant("2030-01-15 08:00"), entry = instant("2030-01-15 07:30")
        let first = try #require(next(DoseTaskTimes(open: 0, nextDue: due, nextLateEnd: nil)))
        #expect(first.at == due && first.polls)
        let pushed = try #require(next(DoseTaskTimes(open: 0, nextDue: due, nextLateEnd: nil), windowEntry: entry))
        #expect(pushed.at == entry && !pushed.polls)
        let later = try #require(
            next(DoseTaskTimes(open: 0, nextDue: nil, nextLateEnd: nil), windowEntry: instant("2030-01-16 08:00")))
        #expect(later.at == instant("2030-01-16 08:00") && !later.polls)
    }

    @Test(
        "while a dose is open: every doses_poll after the last poll, at once when none was made, and the late window's end"
    )
    func openDoses() throws {
        var state = PhoneTaskState()
        let open = DoseTaskTimes(
            open: 1, nextDue: instant("2030-01-15 20:00"), nextLateEnd: instant("2030-01-15 07:20"))
        let never = try #require(next(open, state))
        #expect(never.at == now && never.polls)
        state.lastPollAt = now.addingTimeInterval(-10)
        state.lastRunAt = now.addingTimeInterval(-10)
        #expect(next(open, state)?.at == now.addingTimeInterval(50))
        let ending = DoseTaskTimes(open: 1, nextDue: nil, nextLateEnd: now.addingTimeInterval(20))
        #expect(next(ending, state)?.at == now.addingTimeInterval(20))
    }

    @Test("a deadline the last run did not clear waits a poll interval; a newer one a second at least: never a loop")
    func floor() {
        var state = PhoneTaskState()
        state.lastRunAt = now
        let past = DoseTaskTimes(open: 0, nextDue: nil, nextLateEnd: now.addingTimeInterval(-60))
        #expect(next(past, state)?.at == now.addingTimeInterval(poll))
        state.lastRunAt = now.addingTimeInterval(-120)
        #expect(next(past, state)?.at == now.addingTimeInterval(-60))
    }

    @Test("after a failure with a dose open: nothing before the retry instant (it ran every second)")
    func failureWithADoseOpen() {
        var state = PhoneTaskState()
        state.lastRunAt = now
        state.lastPollAt = now.addingTimeInterval(-600)
        state.failures = 3
        state.retryAt = now.addingTimeInterval(240)
        let open = DoseTaskTimes(open: 1, nextDue: nil, nextLateEnd: now.addingTimeInterval(1200))
        let run = next(open, state)
        #expect(run?.at == now.addingTimeInterval(240) && run?.polls == true)
        #expect(next(open, state, windowEntry: now.addingTimeInterval(5))?.at == now.addingTimeInterval(240))
    }

    @Test("after a failure: a poll at the retry instant")
    func retry() {
        var state = PhoneTaskState()
        state.retryAt = now.addingTimeInterval(30)
        let run = next(DoseTaskTimes(open: 0, nextDue: nil, nextLateEnd: nil), state)
        #expect(run?.at == now.addingTimeInterval(30) && run?.polls == true)
    }

    @Test("the window's next entry: the first dose after now + days, days earlier; none for as-needed")
    func windowEntry() {
        let daily = TaskedMedication(
            medication: Medication(
                id: 1, name: "D", schedule: MedicationSchedule(kind: .times, times: [ClockTime(hour: 8, minute: 0)])),
            key: "0000000a")
        let zone = TimeZone(identifier: "Europe/Warsaw")!
        #expect(
            PhoneTaskSchedule.windowEntry(medications: [daily], days: 7, zone: zone, now: now)
                == instant("2030-01-15 08:00"))
        let asNeeded = TaskedMedication(medication: Medication(id: 2, name: "P", schedule: .asNeeded), key: "0000000b")
        #expect(PhoneTaskSchedule.windowEntry(medications: [asNeeded], days: 7, zone: zone, now: now) == nil)
    }
}
