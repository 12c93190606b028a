@testable import BeautyDaemon
import BeautyCore
import BeautyTestSupport
import Foundation
import Testing

/// One live configuration: what a reload puts in the daemon's `SettingsBox` is what the scheduler
/// plans and shows with, with no second copy to fall behind.
@Suite("Scheduler: the settings box is its configuration")
struct LiveSettingsTests {
    @Test func aTipTimeReloadedIntoTheBoxIsPlannedByTheNextPass() async throws {
        let now = instant("2026-06-01 08:00", testTimeZone.identifier)
        let daemon = try await InProcessDaemon(now: now)
        #expect(daemon.timer.deadline == nil, "nothing is due before the reload")
        daemon.daemon.settings.config.dailyTipAt = ClockTime(hour: 9, minute: 0)
        daemon.daemon.scheduler.wake(.configReloaded)
        #expect(
            await daemon.armed(for: instant("2026-06-01 09:00", testTimeZone.identifier)),
            "the pass after the reload plans today's tip from the box")
    }

    @Test func aReloadGivesTheStoreTheNewAllDayReminderTime() async throws {
        let daemon = try await InProcessDaemon(now: instant("2026-06-01 08:00", testTimeZone.identifier))
        daemon.daemon.settings.config.allDayReminderTime = ClockTime(hour: 7, minute: 15)
        await daemon.daemon.scheduler.configReloaded()
        #expect(daemon.store.allDayReminderTime == ClockTime(hour: 7, minute: 15))
    }
}
