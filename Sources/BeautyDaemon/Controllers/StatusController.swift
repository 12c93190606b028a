import BeautyCore
import BeautyNotify
import BeautyProtocol
import BeautyStore
import Foundation

/// status: the daemon's state, counts, the next reminder and the notification server.
struct StatusController: RequestController {
    /// The counts and the next reminder's title, read across the areas, and the file's path.
    let database: AppDatabase
    let scheduler: Scheduler
    let notifier: any Notifier
    let startedAt: Date
    let socketPath: String
    let clock: @Sendable () -> Date

    func addRoutes(to router: inout RequestRouter) {
        router.register(ViewRPC.status) { (_: NoParams) in try status() }
    }

    func status() throws -> StatusResult {
        let now = clock()
        let server = notifier.serverInfo()
        let hold = scheduler.hold()
        let snapshot = try database.status.snapshot(at: now, settingKey: Scheduler.notificationsSetting)
        var next: StatusResult.NextTrigger?
        if let trigger = snapshot.nextTrigger {
            next = .init(
                fireAt: trigger.fireAt, itemKind: trigger.itemKind, itemID: trigger.itemID,
                title: database.title(of: trigger) ?? "?")
        }
        return StatusResult(
            version: BeautyVersion.current, pid: getpid(), startedAt: startedAt,
            uptimeSeconds: Int(now.timeIntervalSince(startedAt)), database: database.path, socket: socketPath,
            counts: .init(
                appointments: snapshot.appointments, contacts: snapshot.contacts,
                medications: snapshot.medications,
                pendingDeliveries: snapshot.pendingDeliveries,
                waitingDeliveries: snapshot.waitingDeliveries),
            nextTrigger: next,
            notificationServer: .init(
                reachable: server.reachable, name: server.name, vendor: server.vendor,
                version: server.version, capabilities: server.capabilities, lastError: server.lastError,
                lastErrorText: server.lastErrorText),
            waitingFor: hold?.waitingFor, waitingForText: hold?.text,
            notificationsEnabled: snapshot.setting != "off")
    }
}
