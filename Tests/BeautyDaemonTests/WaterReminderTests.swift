import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

/// Hydration reminders with the clock moved by the test: on the planned instant, none once the goal is reached.
@Suite("Water reminders in process")
struct WaterReminderTests {
    @Test("a hydration reminder fires on the second; once the goal is reached the day's next one is skipped")
    func hydrationReminders() async throws {
        let daemon = try await InProcessDaemon(now: instant("2030-01-15 10:00"))
        let goal = try await daemon.call(WaterRPC.goal, WaterGoalParams(goalMl: 500))
        #expect(goal.goalMl == 500, "\(goal)")

        // Every two hours from 09:00: the next one is at 11:00.
        let settings = try await daemon.call(
            WaterRPC.remind,
            WaterRemindParams(
                enabled: true, everySeconds: 7200, windowStart: ClockTime(hour: 9, minute: 0),
                windowEnd: ClockTime(hour: 21, minute: 0)))
        let due = instant("2030-01-15 11:00")
        #expect(settings.enabled && settings.upcoming.first == due, "upcoming \(settings.upcoming), due \(iso(due))")
        let next = try await daemon.call(ViewRPC.status).nextTrigger
        #expect(next?.itemKind == .water && next?.fireAt == due, "\(String(describing: next))")
        #expect(await daemon.armed(for: due), "next wake \(String(describing: daemon.timer.deadline))")
        try await daemon.advance(to: due.addingTimeInterval(-0.5))
        #expect(daemon.notifier.shown.isEmpty, "shown before it was due: \(daemon.notifier.shown)")

        try await daemon.advance(to: due)
        let shown = await daemon.notifier.waitForShown(1)
        try #require(shown.count == 1, "expected one water reminder, got \(shown)")
        #expect(shown[0].summary == "Time for a glass of water", "\(shown[0])")
        #expect(shown[0].category == "x-beautyd.water", "\(shown[0])")
        #expect(shown[0].body.contains("0 of 500 ml"), "\(shown[0].body)")

        // The next reminder is at 13:00; then the goal is reached: it must not be shown.
        let later = instant("2030-01-15 13:00")
        let again = try await daemon.call(WaterRPC.remind, WaterRemindParams())
        #expect(again.upcoming.first == later, "upcoming \(again.upcoming), due \(iso(later))")
        try await daemon.advance(to: instant("2030-01-15 12:00"))
        let drunk = try await daemon.call(WaterRPC.add, WaterAddParams(amountMl: 500))
        #expect(drunk.day.goalReached == true, "\(drunk)")
        let settled = try await daemon.call(WaterRPC.remind, WaterRemindParams())
        let tomorrow = instant("2030-01-16 00:00")
        #expect(settled.upcoming.allSatisfy { $0 >= tomorrow }, "today's reminders should be gone: \(settled.upcoming)")
        try await daemon.run(until: later.addingTimeInterval(1.5))
        #expect(
            daemon.notifier.shown.count == 1,
            "a reminder was shown after the goal was reached: \(daemon.notifier.shown)")
        let now = try await daemon.call(ViewRPC.now)
        #expect(now.water?.goalReached == true && now.water?.totalMl == 500, "\(String(describing: now.water))")

        // Switched off: nothing planned any more.
        let off = try await daemon.call(WaterRPC.remind, WaterRemindParams(enabled: false))
        #expect(!off.enabled && off.upcoming.isEmpty, "\(off)")
        #expect(try await daemon.call(ViewRPC.status).nextTrigger?.itemKind != .water)
    }
}
