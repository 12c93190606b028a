import BeautyNotify
import BeautyStore
import Foundation
import Logging

/// The daemon's parts wired together: the store, the notifier, the event hub, the live settings, the
/// scheduler and the request handler. beautyd serves it on a socket with signals and systemd around it;
/// the in-process tests call its request handler and drive its scheduler's clock.
public struct Daemon: Sendable {
    public let store: AppDatabase
    public let notifier: any Notifier
    public let hub: EventHub
    public let settings: SettingsBox
    public let scheduler: Scheduler
    public let sync: SyncCoordinator
    public let requests: RequestHandler
    /// Imports staged in chunks, daemon-wide (tests read how many are open).
    let importStages: ImportStages
}

/// Wires the daemon's parts. beautyd passes the wall clock, the zone it follows live and the timerfd
/// (the defaults); a test passes a clock and zone it sets and a timer that fires when it moves its clock.
/// `socket` is what `status` reports as the socket.
public func makeDaemon(
    store: AppDatabase, notifier: any Notifier, config: DaemonConfig, socket: String, logger: Logger,
    clock: @escaping @Sendable () -> Date = Date.init, zone: any ZoneSource = LocalZone.shared,
    timer: DeadlineTimerFactory = WallClockTimer.factory, importLimits: ImportStages.Limits = .standard
) throws -> Daemon {
    let hub = EventHub()
    let settings = SettingsBox(config)
    let scheduler = try Scheduler(
        store: store, notifier: notifier, hub: hub, settings: settings, logger: logger,
        clock: clock, zone: zone, timer: timer)
    let sync = SyncCoordinator(
        store: store, settings: settings, scheduler: scheduler, logger: logger, clock: clock, zone: zone)
    let importStages = ImportStages(limits: importLimits)
    let controllers: [any RequestController] = [
        UnsplitRequests(
            store: store, scheduler: scheduler, sync: sync, notifier: notifier, settings: settings, startedAt: clock(),
            socketPath: socket, logger: logger, clock: clock, zone: zone, importStages: importStages),
        BudgetController(budget: store.budget, settings: settings, logger: logger, clock: clock),
        CategoryController(categories: store.categories),
        MedicationController(
            medications: store.medications, history: store.history, scheduler: scheduler, logger: logger, clock: clock,
            zone: zone),
        DoseController(
            medications: store.medications, deliveries: store.deliveries, scheduler: scheduler, clock: clock, zone: zone
        ),
        HistoryController(history: store.history, clock: clock),
        NotificationsController(store: store, scheduler: scheduler, logger: logger),
    ]
    let requests = RequestHandler(controllers: controllers, databasePath: store.path, logger: logger)
    return Daemon(
        store: store, notifier: notifier, hub: hub, settings: settings, scheduler: scheduler, sync: sync,
        requests: requests, importStages: importStages)
}
