import BeautyProtocol
import BeautyStore
import Logging

/// notifications: the switch that turns every notification off and on again.
struct NotificationsController: RequestController {
    let store: AppDatabase
    let scheduler: Scheduler
    let logger: Logger

    func addRoutes(to router: inout RequestRouter) {
        router.register(MedicationRPC.notifications, notifications)
    }

    func notifications(_ p: NotificationsParams) throws -> NotificationsResult {
        if let enabled = p.enabled {
            try store.setSetting(Scheduler.notificationsSetting, enabled ? "on" : "off")
            logger.notice("notifications switched \(enabled ? "on" : "off")")
            scheduler.wake(.edited)
        }
        return NotificationsResult(enabled: try store.setting(Scheduler.notificationsSetting) != "off")
    }
}
