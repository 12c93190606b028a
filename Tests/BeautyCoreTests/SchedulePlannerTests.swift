import BeautyCore
import BeautyTestSupport
import Foundation
import Testing

@Suite("Schedule planner (pure, injected clock)")
struct SchedulePlannerTests {
    func trigger(_ id: Int64, fireAt: Date, occurrence: Date? = nil) -> Trigger {
        let occurrence = occurrence ?? fireAt.addingTimeInterval(3600)
        return Trigger(
            key: Trigger.key(kind: .appointment, itemID: id, occurrence: occurrence, fireAt: fireAt),
            itemKind: .appointment, itemID: id, occurrence: occurrence, fireAt: fireAt)
    }

    let now = utc("2026-12-01T12:00:00Z")
    let twelveHours: TimeInterval = 12 * 3600

    @Test func nothingPendingMeansNoWake() {
        let plan = SchedulePlanner.plan(now: now, pending: [], maxLateness: twelveHours)
        #expect(plan == SchedulePlan())
        #expect(plan.nextWake == nil)
    }

    @Test func futureTriggerOnlyArmsTheEarliestDeadline() {
        let soon = trigger(1, fireAt: now.addingTimeInterval(5))
        let later = trigger(2, fireAt: now.addingTimeInterval(500))
        let plan = SchedulePlanner.plan(now: now, pending: [later, soon], maxLateness: twelveHours)
        #expect(plan.deliver.isEmpty && plan.catchUp.isEmpty && plan.expired.isEmpty)
        #expect(plan.nextWake == soon.fireAt)
    }

    @Test func dueExactlyNowIsDeliveredNotLater() {
        let due = trigger(1, fireAt: now)
        let plan = SchedulePlanner.plan(now: now, pending: [due], maxLateness: twelveHours)
        #expect(plan.deliver == [due])
        #expect(plan.nextWake == nil)
    }

    @Test func oneSecondBeforeIsNotDue() {
        let almost = trigger(1, fireAt: now.addingTimeInterval(0.001))
        let plan = SchedulePlanner.plan(now: now, pending: [almost], maxLateness: twelveHours)
        #expect(plan.deliver.isEmpty)
        #expect(plan.nextWake == almost.fireAt)
    }

    @Test func aSlightlyLateWakeStillDeliversIndividually() {
        let a = trigger(1, fireAt: now.addingTimeInterval(-2))
        let b = trigger(2, fireAt: now.addingTimeInterval(-1))
        let plan = SchedulePlanner.plan(now: now, pending: [b, a], maxLateness: twelveHours)
        #expect(plan.deliver == [a, b])
        #expect(plan.catchUp.isEmpty)
    }

    @Test func severalMissedWhileAwayAreGrouped() {
        let a = trigger(1, fireAt: now.addingTimeInterval(-3600))
        let b = trigger(2, fireAt: now.addingTimeInterval(-1800))
        let onTime = trigger(3, fireAt: now)
        let plan = SchedulePlanner.plan(now: now, pending: [onTime, b, a], maxLateness: twelveHours)
        #expect(plan.catchUp == [a, b])
        #expect(plan.deliver == [onTime])
    }

    @Test func atStartUpEverythingAlreadyDueWasMissedWhileAway() {
        let a = trigger(1, fireAt: now.addingTimeInterval(-5))
        let b = trigger(2, fireAt: now.addingTimeInterval(-2))
        let plan = SchedulePlanner.plan(now: now, pending: [a, b], maxLateness: twelveHours, lateAfter: 0)
        #expect(plan.catchUp == [a, b])
        #expect(plan.deliver.isEmpty)
        // Due exactly now is on time, not missed.
        let onTime = trigger(3, fireAt: now)
        #expect(
            SchedulePlanner.plan(now: now, pending: [onTime], maxLateness: twelveHours, lateAfter: 0).deliver == [
                onTime
            ])
    }

    @Test func oneMissedWhileAwayIsDeliveredOnItsOwn() {
        let a = trigger(1, fireAt: now.addingTimeInterval(-3600))
        let plan = SchedulePlanner.plan(now: now, pending: [a], maxLateness: twelveHours)
        #expect(plan.deliver == [a])
        #expect(plan.catchUp.isEmpty)
    }

    @Test func olderThanMaxLatenessIsOnlyRecordedAsMissed() {
        let stale = trigger(1, fireAt: now.addingTimeInterval(-twelveHours - 1))
        let edge = trigger(2, fireAt: now.addingTimeInterval(-twelveHours))
        let plan = SchedulePlanner.plan(now: now, pending: [stale, edge], maxLateness: twelveHours)
        #expect(plan.expired == [stale])
        #expect(plan.deliver == [edge])
    }

    @Test func tiesAreOrderedByKeySoTheOrderIsStable() {
        let b = trigger(2, fireAt: now)
        let a = trigger(1, fireAt: now)
        #expect(SchedulePlanner.plan(now: now, pending: [b, a], maxLateness: twelveHours).deliver == [a, b])
        #expect(SchedulePlanner.plan(now: now, pending: [a, b], maxLateness: twelveHours).deliver == [a, b])
    }
}

@Suite("Reminder triggers of appointments")
struct ReminderPlannerTests {
    let start = instant("2026-12-01 14:00")

    func appointment(_ reminders: [Reminder], status: Appointment.Status = .scheduled, id: Int64? = 7) -> Appointment {
        Appointment(id: id, title: "Haircut", start: start, status: status, reminders: reminders)
    }

    @Test func leadTimesAndAbsoluteRemindersBecomeSortedTriggers() {
        let absolute = instant("2026-11-30 20:00")
        let triggers = ReminderPlanner.triggers(for: appointment([.before(7200), .before(86_400), .at(absolute)]))
        #expect(triggers.map(\.fireAt) == [instant("2026-11-30 14:00"), absolute, instant("2026-12-01 12:00")])
        #expect(Set(triggers.map(\.key)).count == 3)
        #expect(triggers.allSatisfy { $0.occurrence == start && $0.itemID == 7 && $0.itemKind == .appointment })
    }

    @Test func remindersFallingOnTheSameInstantFireOnce() {
        let triggers = ReminderPlanner.triggers(for: appointment([.before(3600), .at(instant("2026-12-01 13:00"))]))
        #expect(triggers.count == 1)
    }

    @Test func doneCancelledAndUnsavedAppointmentsHaveNoTriggers() {
        #expect(ReminderPlanner.triggers(for: appointment([.before(60)], status: .done)).isEmpty)
        #expect(ReminderPlanner.triggers(for: appointment([.before(60)], status: .cancelled)).isEmpty)
        #expect(ReminderPlanner.triggers(for: appointment([.before(60)], id: nil)).isEmpty)
    }

    @Test func keysAreStableAcrossRecomputationAndChangeWhenTheTimeMoves() {
        let first = ReminderPlanner.triggers(for: appointment([.before(3600)]))
        let again = ReminderPlanner.triggers(for: appointment([.before(3600)]))
        #expect(first == again)
        var moved = appointment([.before(3600)])
        moved.start = start.addingTimeInterval(1800)
        #expect(ReminderPlanner.triggers(for: moved).first?.key != first.first?.key)
    }

    @Test func reminderKeepsWallClockAcrossDSTBecauseItIsAnInstantBeforeStart() {
        // 2h before 01:30 on the fall-back night in Warsaw is elapsed time, not wall time.
        let night = instant("2026-10-25 04:00")
        let a = Appointment(id: 1, title: "x", start: night, reminders: [.before(7200)])
        #expect(ReminderPlanner.triggers(for: a).first?.fireAt == night.addingTimeInterval(-7200))
    }
}
