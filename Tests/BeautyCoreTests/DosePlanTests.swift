import BeautyCore
import BeautyTestSupport
import Foundation
import Testing

/// The dose rows a planning stores, decided in Core with an injected instant and zone.
@Suite("Dose plan (pure, injected clock and zone)")
struct DosePlanTests {
    let warsaw = TimeZone(identifier: "Europe/Warsaw")!

    func twiceDaily(start: String?, createdAt: Date, timeZone: String? = nil) -> Medication {
        Medication(
            name: "Iron", startDate: start.map { try! LocalDate(parsing: $0) },
            schedule: MedicationSchedule(
                kind: .times, times: [ClockTime(hour: 8, minute: 0), ClockTime(hour: 20, minute: 0)]),
            timeZone: timeZone, createdAt: createdAt, updatedAt: createdAt)
    }

    @Test func firstPlanRecordsTodaysPastDoseWithoutNotifyingIt() {
        let now = instant("2026-06-01 12:00")
        let plan = DosePlanner.plan(
            twiceDaily(start: "2026-05-01", createdAt: instant("2026-05-01 09:00")), plannedUntil: nil, now: now,
            zone: warsaw)
        #expect(
            plan.doses == [
                instant("2026-06-01 08:00"), instant("2026-06-01 20:00"), instant("2026-06-02 08:00"),
                instant("2026-06-02 20:00"), instant("2026-06-03 08:00"),
            ])
        #expect(plan.until == now.addingTimeInterval(DosePlanner.horizon))
        #expect(plan.doses.filter(plan.notifies) == Array(plan.doses.dropFirst()))
    }

    @Test func withoutStartDateTheDosesBeforeTheAddNeverExisted() {
        let added = instant("2026-06-01 09:30")
        let plan = DosePlanner.plan(
            twiceDaily(start: nil, createdAt: added), plannedUntil: nil, now: added, zone: warsaw)
        #expect(plan.doses.first == instant("2026-06-01 20:00"))
    }

    @Test func nextPlanContinuesWhereTheLastEnded() {
        let now = instant("2026-06-02 10:00")
        let plan = DosePlanner.plan(
            twiceDaily(start: "2026-05-01", createdAt: instant("2026-05-01 09:00")),
            plannedUntil: instant("2026-06-03 12:00"), now: now, zone: warsaw)
        #expect(plan.doses == [instant("2026-06-03 20:00"), instant("2026-06-04 08:00")])
        #expect(DosePlanner.nextPlanning(plannedUntil: plan.until) == instant("2026-06-03 10:00"))
        #expect(DosePlanner.replanningLimit(now: now) == instant("2026-06-03 10:00"))
    }

    @Test func aPinnedMedicationIsPlannedInItsOwnZone() {
        let now = instant("2026-06-01 00:00", "UTC")
        let plan = DosePlanner.plan(
            twiceDaily(start: "2026-05-01", createdAt: instant("2026-05-01 09:00"), timeZone: "America/New_York"),
            plannedUntil: nil, now: now, zone: warsaw)
        #expect(plan.doses.first == instant("2026-05-31 08:00", "America/New_York"))
    }
}
