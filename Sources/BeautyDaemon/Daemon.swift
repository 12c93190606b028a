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

/// Wires the daemon's parts. beautyd passes its session's language, the wall clock, the zone it follows
/// live and the timerfd (the defaults); a test passes a language, a clock and a zone it sets and a timer that
/// fires when it moves its clock. `socket` is what `status` reports as the socket.
public func makeDaemon(
    store: AppDatabase, notifier: any Notifier, config: DaemonConfig, session: SessionLanguage, socket: String,
    logger: Logger, clock: @escaping @Sendable () -> Date = Date.init, zone: any ZoneSource = LocalZone.shared,
    timer: DeadlineTimerFactory = WallClockTimer.factory, importLimits: ImportStages.Limits = .standard
) throws -> Daemon {
    let hub = EventHub()
    let settings = SettingsBox(config, session: session)
    let scheduler = try Scheduler(
        store: store, notifier: notifier, hub: hub, settings: settings, logger: logger,
        clock: clock, zone: zone, timer: timer)
    let remindersChanged: @Sendable () -> Void = { scheduler.wake(.edited) }
    let sync = SyncCoordinator(
        store: store.sync, appointments: store.appointments, categories: store.categories, settings: settings,
        remindersChanged: remindersChanged, logger: logger, clock: clock, zone: zone, database: store,
        doseAnswers: scheduler)
    // Weak: the coordinator holds the scheduler (its dose answers), and a cycle kept the database open
    // after beautyd stopped (its WAL was never checkpointed and removed).
    scheduler.doseNotices.listen { [weak sync] in sync?.noticeDoses() }
    let importStages = ImportStages(limits: importLimits)
    let details = AppointmentDetails(
        appointments: store.appointments, occurrences: store.occurrences, database: store, clock: clock, zone: zone)
    let controllers: [any RequestController] = [
        StatusController(
            database: store, scheduler: scheduler, notifier: notifier, startedAt: clock(), socketPath: socket,
            clock: clock),
        AgendaController(database: store, clock: clock, zone: zone),
        EventController(),
        BudgetController(budget: store.budget, settings: settings, logger: logger, clock: clock),
        CategoryController(categories: store.categories),
        ContactController(contacts: store.contacts, database: store, settings: settings, logger: logger, zone: zone),
        BackupController(database: store, scheduler: scheduler, logger: logger, clock: clock, zone: zone),
        SyncController(
            store: store.sync, categories: store.categories, sync: sync, settings: settings,
            remindersChanged: remindersChanged, logger: logger, clock: clock, zone: zone),
        AppointmentController(
            appointments: store.appointments,
            occurrences: OccurrenceController(
                occurrences: store.occurrences, details: details, scheduler: scheduler, settings: settings,
                logger: logger, clock: clock, zone: zone),
            details: details,
            references: AppointmentReferences(database: store, categories: store.categories), scheduler: scheduler,
            settings: settings, logger: logger, clock: clock, zone: zone),
        AppointmentImportController(
            appointments: store.appointments, categories: store.categories, database: store, scheduler: scheduler,
            settings: settings, logger: logger, clock: clock, zone: zone, importStages: importStages),
        MeasurementController(measurements: store.measurements, logger: logger, clock: clock, zone: zone),
        TipController(),
        WaterController(
            water: store.water, planner: store, scheduler: scheduler, logger: logger, clock: clock, zone: zone),
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
