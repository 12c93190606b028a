import BeautyCore
import Foundation
import Testing

/// The plans that decide reminders, with an injected clock and zone: the store only writes them.
@Suite struct ReminderPlansTests {
    let warsaw = TimeZone(identifier: "Europe/Warsaw")!

    func local(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        LocalTime.instant(year: 2026, month: 12, day: day, hour: hour, minute: minute, in: warsaw)!
    }

    @Test("a single visit is planned whole; a series two weeks ahead, with how far it reaches")
    func appointments() {
        let now = local(1, 8)
        var single = Appointment(title: "Haircut", start: local(20, 10), reminders: [.before(3_600)])
        single.id = 7
        let plan = AppointmentReminderPlan(for: single, now: now, zone: warsaw, allDay: AllDayReminders(zone: warsaw))
        #expect(plan.plannedUntil == nil && plan.triggers.map(\.fireAt) == [local(20, 9)])

        var weekly = single
        weekly.start = local(2, 10)
        weekly.recurrence = AppointmentRecurrence(rule: "FREQ=WEEKLY")
        let series = AppointmentReminderPlan(for: weekly, now: now, zone: warsaw, allDay: AllDayReminders(zone: warsaw))
        #expect(series.plannedUntil == now.addingTimeInterval(AppointmentReminderPlan.seriesHorizon))
        #expect(series.triggers.map(\.fireAt) == [local(2, 9), local(9, 9)])
    }

    @Test("water: the coming reminders of today and tomorrow, none on a day whose goal is reached, none when off")
    func water() {
        let every3h = WaterReminder(
            enabled: true, everySeconds: 3 * 3_600, windowStart: ClockTime(hour: 9, minute: 0),
            windowEnd: ClockTime(hour: 15, minute: 0))
        let now = local(1, 10)
        let all = WaterReminderPlan.wanted(every3h, now: now, zone: warsaw) { _ in false }
        #expect(all.map(\.fireAt) == [local(1, 12), local(1, 15), local(2, 9), local(2, 12), local(2, 15)])
        let todayDone = WaterReminderPlan.wanted(every3h, now: now, zone: warsaw) { $0 < local(2, 0) }
        #expect(todayDone.map(\.fireAt) == [local(2, 9), local(2, 12), local(2, 15)])
        var off = every3h
        off.enabled = false
        #expect(WaterReminderPlan.wanted(off, now: now, zone: warsaw) { _ in false }.isEmpty)
    }

    @Test("the daily tip: today unless passed or shown, and tomorrow; none without a time")
    func tip() {
        let at = ClockTime(hour: 9, minute: 30)
        let early = DailyTipPlan.wanted(at: at, now: local(1, 8), zone: warsaw) { _ in false }
        #expect(early.map(\.fireAt) == [local(1, 9, 30), local(2, 9, 30)])
        let shownToday = DailyTipPlan.wanted(at: at, now: local(1, 8), zone: warsaw) {
            $0 == LocalDate(local(1, 8), in: warsaw)
        }
        #expect(shownToday.map(\.fireAt) == [local(2, 9, 30)])
        #expect(
            DailyTipPlan.wanted(at: at, now: local(1, 10), zone: warsaw) { _ in false }.map(\.fireAt) == [
                local(2, 9, 30)
            ])
        #expect(DailyTipPlan.wanted(at: nil, now: local(1, 8), zone: warsaw) { _ in false }.isEmpty)
    }
}
