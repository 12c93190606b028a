import BeautyCore
import BeautyLocalization
import BeautyNotify
import BeautyProtocol
import BeautyStore
import Foundation
import Logging
import NIOCore
import NIOPosix

/// Drives deliveries: asks the pure planner what is due, hands it to the notifier, records each
/// delivery in the store, and arms one absolute wall-clock deadline for the next trigger.
/// It plans nothing itself: what is due when is decided in Core (`DosePlanner.plan`, `SchedulePlanner`...),
/// and the store writes those plans' rows (`AppDatabase.planAhead`, or in the transaction of an edit).
/// Its configuration is the daemon's live `SettingsBox`, read at each use, so a reload is seen at once.
public actor Scheduler {
    public enum WakeReason: Sendable {
        case started, timer, clockChanged, edited, serverAppeared, configReloaded, zoneChanged
    }

    let store: AppDatabase
    let notifier: any Notifier
    let hub: EventHub
    let clock: @Sendable () -> Date
    /// The user's zone: local-time schedules are planned in it and re-planned when it changes.
    let zone: any ZoneSource
    /// The live configuration, shared with the rest of the daemon (SIGHUP swaps what it holds).
    let settings: SettingsBox
    var config: DaemonConfig { settings.config }
    let logger: Logger
    private let wakes: AsyncStream<WakeReason>
    private let wakeContinuation: AsyncStream<WakeReason>.Continuation
    /// Made with the scheduler, before the socket listens: a process out of descriptors then fails
    /// to start, rather than losing its scheduler (and with it the whole daemon) after it said it was ready.
    let timer: any DeadlineTimer
    private let zoneChanged = Flag()
    /// Told when doses change, so their tasks on the phone follow (`noticeDoses`).
    public nonisolated let doseNotices = DoseNotices()
    /// Keys that failed last time: logged loudly once, then quietly until they succeed.
    var failingKeys = Set<String>()
    /// What the last failed delivery waits for, until a pass delivers without failure.
    let holds = DeliveryHoldBox()
    /// Shown notifications whose record could not be written (the database locked, the disk full): written
    /// at each pass until it works. Their rows stay "delivering", which no pass shows again and a start counts as fired.
    var unrecorded: [ShownDelivery] = []
    /// How long before their instant deliveries are committed.
    var commitLead = CommitLead(configured: 0)
    /// The instant whose deliveries are committed ahead (`commitAhead`): the timer is armed for it.
    var committedInstant: Date?
    /// The notifications of `committedInstant`, built at the commit ahead: shown at the instant without a read,
    /// unless anything was written since.
    var prepared: PreparedInstant?
    /// The deliveries being shown at their committed instant: already durable, so `show` writes nothing for them.
    var committedKeys: Set<String> = []
    /// While the committed deliveries are shown, the notifications sent wait here for their answers and records, so
    /// that no answer is waited for and nothing is written between two Notify calls.
    var sentInBurst: [SentDelivery]?
    /// The instant whose committed deliveries are being sent (each is noted in `store.showingProgress` first).
    var burstInstant: Date?

    /// With a timer other than the timerfd (tests), the scheduler's thread: one event loop shared by every
    /// scheduler of the process.
    private static let thread = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    /// A thread for the scheduler alone: the thread that reads its timerfd (`WallClockTimer.thread`), so that a
    /// deadline resumes it without a thread switch. On the event loops shared with other work, each pass (a few
    /// reads, a write when something fires) queued behind request work and the requests behind it: durable
    /// adds fell from ~700/s to ~300/s, and a burst of requests could hold a due reminder back. Idle, it sleeps
    /// in poll. Held here: an unowned executor reference must not outlive the executor object.
    private let executor: any SerialExecutor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    public init(
        store: AppDatabase, notifier: any Notifier, hub: EventHub, settings: SettingsBox, logger: Logger,
        clock: @escaping @Sendable () -> Date, zone: any ZoneSource, timer: DeadlineTimerFactory
    ) throws {
        self.store = store
        store.allDayReminderTime = settings.config.allDayReminderTime
        self.notifier = notifier
        self.hub = hub
        self.settings = settings
        self.logger = logger
        self.clock = clock
        self.zone = zone
        let (wakes, wakeContinuation) = AsyncStream<WakeReason>.makeStream(bufferingPolicy: .bufferingNewest(16))
        (self.wakes, self.wakeContinuation) = (wakes, wakeContinuation)
        let made = try timer { wake in
            wakeContinuation.yield(wake == .deadline ? .timer : .clockChanged)
        }
        self.timer = made
        executor = (made as? WallClockTimer)?.thread ?? Scheduler.thread.next().executor
    }

    /// Doses or medications changed (an answer, a miss, an edit, a zone change): their tasks on the
    /// phone are brought in line (`SyncCoordinator`'s dose loops). Never blocks.
    nonisolated func noticeDoses() { doseNotices.notice() }

    /// Asks the loop to look again (after an edit, a reload, a server appearing). Never blocks.
    public nonisolated func wake(_ reason: WakeReason) {
        wakeContinuation.yield(reason)
    }

    /// The settings were reloaded: the store takes the new all-day reminder time, and a pass plans with the rest.
    public func configReloaded() {
        store.allDayReminderTime = config.allDayReminderTime
        wake(.configReloaded)
    }

    /// What due reminders wait for, nil if the last pass had no failure (for `status`; never waits for the actor).
    nonisolated func hold() -> DeliveryHold? { holds.current }

    /// Records what a failed delivery waits for.
    func held(by error: any Error, otherwise: DeliveryHold.Holder = .notificationServer) -> DeliveryHold {
        let hold = DeliveryHold(error, databasePath: store.path, otherwise: otherwise)
        holds.current = hold
        return hold
    }

    /// The deadline the timer is armed for (for `status`).
    public func armedDeadline() -> Date? { timer.deadline }

    /// Runs until the task is cancelled: one pass per wake, never a periodic tick. Its writes (and
    /// its child tasks') overtake clients' waiting ones, so a busy client cannot make a reminder late.
    public func run() async throws {
        try await WritePriority.$urgent.withValue(true) { try await loop() }
    }

    private func loop() async throws {
        defer { timer.arm(at: nil) }
        let reached = store.showingProgress.read()
        for key in try store.deliveries.settleInterrupted(at: clock(), reached: reached) {
            logger.warning(
                "a delivery was interrupted by a crash while being shown; counted as shown",
                metadata: ["delivery_key": "\(key)"])
        }
        store.showingProgress.started()
        zone.watch(queue: DispatchQueue(label: "beautyd.zone")) { [wakeContinuation, zoneChanged] _ in
            // A flag, not only a wake reason: wakes are coalesced and one must never be lost.
            zoneChanged.set()
            wakeContinuation.yield(.zoneChanged)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await self.consumeNotifierEvents() }
            group.addTask { await self.passes() }
            try await group.next()
            group.cancelAll()
        }
    }

    public nonisolated func stop() { wakeContinuation.finish() }

    /// One pass per wake. The wakes are read in the scheduler's isolation, so the timer's wake resumes this
    /// loop on the scheduler's own thread, the one that read the timer: read from a task of the shared pool, a
    /// wake would first wake a pool thread and then hop here, one more thread switch before a due reminder is shown.
    private func passes() async {
        await pass(reason: .started)
        for await reason in wakes {
            if Task.isCancelled { break }
            await pass(reason: reason)
        }
    }

    // MARK: - One pass

    private func pass(reason: WakeReason) async {
        do {
            var failed = try await showCommitted(reason: reason) == false
            let now = clock()
            // The store knows the zone it planned in, so a change while the daemon was stopped shows at start.
            let plannedIn = try store.plannedZone()
            // A database with no zone recorded (new, or from before zones were recorded) is taken as
            // planned in this one: re-planning it would drop and re-make every coming dose, racing the
            // first client's adds and changing the dose ids it was just given.
            if plannedIn == nil {
                try store.recordPlannedZone(zone.current)
            }
            if zoneChanged.take() || (plannedIn != nil && plannedIn != zone.current.identifier) {
                logger.notice("time zone is now \(zone.current.identifier): re-planning local-time schedules")
                try store.replanForZoneChange(now: now, zone: zone.current)
                noticeDoses()
            }
            // An edit through the controllers (a medication changed, added or removed) wakes with `.edited`.
            if reason == .edited { noticeDoses() }
            try store.planAhead(now: now, zone: zone.current, dailyTipAt: config.dailyTipAt)
            var pending = try store.deliveries.due(at: now)
            if let next = try store.deliveries.next(after: now) { pending.append(next) }
            let plan = SchedulePlanner.plan(
                now: now, pending: pending, maxLateness: TimeInterval(config.maxLatenessSeconds),
                lateAfter: reason == .started ? 0 : SchedulePlanner.lateAfter)
            if reason == .clockChanged { logger.notice("wall clock changed: rescheduling") }

            if !plan.expired.isEmpty {
                try store.deliveries.markMissed(plan.expired.map(\.key), at: now)
                for trigger in plan.expired {
                    logger.warning("reminder too late to show, recorded as missed", metadata: metadata(trigger))
                    hub.publish(
                        DaemonEvent(
                            .missed, at: now, key: trigger.key, itemKind: trigger.itemKind, itemID: trigger.itemID))
                }
            }
            if !recordShownDeliveries() { failed = true }
            if try notificationsEnabled() {
                // Due now without a commitment ahead (added inside the lead, or a pass woken late on a busy
                // machine): sent together too, none waiting for the server's answer to the one before.
                sentInBurst = []
                for trigger in plan.deliver where !(await deliver(trigger)) { failed = true }
                let sent = sentInBurst ?? []
                sentInBurst = nil
                if !(await answerBurst(sent)) { failed = true }
                if !plan.catchUp.isEmpty, !(await deliverGroup(plan.catchUp)) { failed = true }
            } else {
                // Switched off: record them as due but show nothing, so switching on brings no flood.
                // An unanswered dose still counts its re-notifications, so it ends up missed, not open for ever.
                for trigger in plan.deliver + plan.catchUp {
                    if trigger.itemKind == .medication, trigger.source == .nag {
                        try silentNag(trigger, at: now)
                        continue
                    }
                    try store.deliveries.markSuppressed([trigger.key], at: now)
                    hub.publish(
                        DaemonEvent(
                            .suppressed, at: now, key: trigger.key, itemKind: trigger.itemKind,
                            itemID: trigger.itemID, title: store.title(of: trigger)))
                }
            }

            // Delivering may have added rows (re-notifications, low-stock warnings): ask the ledger again.
            var wakeAt = try store.deliveries.next(after: now)?.fireAt ?? plan.nextWake
            if let due = try store.deliveries.due(at: clock(), limit: 1).first, !plan.deliver.contains(due),
                !plan.catchUp.contains(due)
            {
                wakeAt = min(wakeAt ?? due.fireAt, due.fireAt)
            }
            if let planning = try store.nextPlanningInstant() {
                wakeAt = min(wakeAt ?? planning, max(planning, now))
            }
            if failed {
                let delay =
                    holds.current?.retryDelay(configured: config.retrySeconds) ?? TimeInterval(config.retrySeconds)
                let retry = clock().addingTimeInterval(delay)
                wakeAt = min(wakeAt ?? retry, retry)
            } else {
                holds.current = nil
            }
            try arm(for: wakeAt)
        } catch {
            let hold = held(by: error, otherwise: .scheduler)
            logger.error("scheduler pass failed, reminders waiting for \(hold.waitingFor)")
            let retry = clock().addingTimeInterval(hold.retryDelay(configured: config.retrySeconds))
            timer.arm(at: min(retry, committedInstant ?? retry))
        }
    }

    func metadata(_ trigger: Trigger) -> Logger.Metadata {
        ["item_id": "\(trigger.itemID)", "item_kind": "\(trigger.itemKind.rawValue)", "delivery_key": "\(trigger.key)"]
    }

    func notificationsEnabled() throws -> Bool {
        try store.setting(Self.notificationsSetting) != "off"
    }

    static let notificationsSetting = "notifications"

    var content: NotificationContent { NotificationContent(store: store, zone: zone.current, localizer: localizer) }

    /// The language of what the daemon shows, read at each use: `[ui] language` of the configuration,
    /// else the session's (`SessionLanguage`); a reload (SIGHUP) reads both again.
    var localizer: Localizer { Localizer.forLanguage(config.shownLanguage) }
}
