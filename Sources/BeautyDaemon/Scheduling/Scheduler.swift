import BeautyCore
import BeautyNotify
import BeautyProtocol
import BeautyStore
import Foundation
import Logging
import NIOCore
import NIOPosix

/// Drives deliveries: asks the pure planner what is due, hands it to the notifier, records each
/// delivery in the store, and arms one absolute wall-clock deadline for the next trigger.
public actor Scheduler {
    public enum WakeReason: Sendable {
        case started, timer, clockChanged, edited, serverAppeared, configReloaded, zoneChanged
    }

    private let store: AppDatabase
    private let notifier: any Notifier
    private let hub: EventHub
    private let clock: @Sendable () -> Date
    private var config: DaemonConfig
    private var logger: Logger
    private let wakes: AsyncStream<WakeReason>
    private let wakeContinuation: AsyncStream<WakeReason>.Continuation
    private var timer: WallClockTimer?
    private let zoneChanged = Flag()
    /// Keys that failed last time: logged loudly once, then quietly until they succeed.
    private var failingKeys = Set<String>()
    /// What the last failed delivery waits for, until a pass delivers without failure.
    private let holds = DeliveryHoldBox()
    /// Shown notifications whose record could not be written (the database locked, the disk full): written
    /// at each pass until it works. Their rows stay "delivering", which no pass shows again and a start counts as fired.
    private var unrecorded: [ShownDelivery] = []

    /// A thread for the scheduler alone (one per process; beautyd has one scheduler). On the event
    /// loops shared with other work, each pass (a few reads, a write when something fires) queued
    /// behind request work and the requests behind it: durable adds fell from ~700/s to ~300/s,
    /// and a burst of requests could hold a due reminder back. Idle, it sleeps in epoll.
    private static let thread = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    /// Held here: an unowned executor reference must not outlive the executor object.
    private let executor: any SerialExecutor = Scheduler.thread.next().executor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    public init(store: AppDatabase, notifier: any Notifier, hub: EventHub, config: DaemonConfig, logger: Logger,
                clock: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.notifier = notifier
        self.hub = hub
        self.config = config
        self.logger = logger
        self.clock = clock
        (wakes, wakeContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(16))
    }

    /// Asks the loop to look again (after an edit, a reload, a server appearing). Never blocks.
    public nonisolated func wake(_ reason: WakeReason) {
        wakeContinuation.yield(reason)
    }

    public func update(config: DaemonConfig) {
        self.config = config
        wake(.configReloaded)
    }

    /// What due reminders wait for, nil if the last pass had no failure (for `status`; never waits for the actor).
    nonisolated func hold() -> DeliveryHold? { holds.current }

    /// Records what a failed delivery waits for.
    private func held(by error: any Error, otherwise: String = "a notification server") -> DeliveryHold {
        let hold = DeliveryHold(error, databasePath: store.path, otherwise: otherwise)
        holds.current = hold
        return hold
    }

    /// The deadline the timer is armed for (for `status`).
    public func armedDeadline() -> Date? { timer?.deadline }

    /// Runs until the task is cancelled: one pass per wake, never a periodic tick. Its writes (and
    /// its child tasks') overtake clients' waiting ones, so a busy client cannot make a reminder late.
    public func run() async throws {
        try await WritePriority.$urgent.withValue(true) { try await loop() }
    }

    private func loop() async throws {
        let timer = try WallClockTimer(queue: DispatchQueue(label: "beautyd.timer")) { [wakeContinuation] wake in
            wakeContinuation.yield(wake == .deadline ? .timer : .clockChanged)
        }
        self.timer = timer
        defer { timer.arm(at: nil) }
        for key in try store.settleInterruptedDeliveries(at: clock()) {
            logger.warning("a delivery was interrupted by a crash while being shown; counted as shown", metadata: ["delivery_key": "\(key)"])
        }
        LocalZone.shared.watch(queue: DispatchQueue(label: "beautyd.zone")) { [wakeContinuation, zoneChanged] _ in
            // A flag, not only a wake reason: wakes are coalesced and one must never be lost.
            zoneChanged.set()
            wakeContinuation.yield(.zoneChanged)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await self.consumeNotifierEvents() }
            group.addTask {
                await self.pass(reason: .started)
                for await reason in self.wakes {
                    if Task.isCancelled { break }
                    await self.pass(reason: reason)
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    public nonisolated func stop() { wakeContinuation.finish() }

    // MARK: - One pass

    private func pass(reason: WakeReason) async {
        do {
            let now = clock()
            // The store knows the zone it planned in, so a change while the daemon was stopped shows at start.
            let plannedIn = try store.plannedZone()
            // A database with no zone recorded (new, or from before zones were recorded) is taken as
            // planned in this one: re-planning it would drop and re-make every coming dose, racing the
            // first client's adds and changing the dose ids it was just given.
            if plannedIn == nil {
                try store.recordPlannedZone(LocalZone.shared.current)
            }
            if zoneChanged.take() || (plannedIn != nil && plannedIn != LocalZone.shared.current.identifier) {
                logger.notice("time zone is now \(LocalZone.shared.current.identifier): re-planning local-time schedules")
                try store.replanForZoneChange(now: now, zone: LocalZone.shared.current)
            }
            try store.planDoses(now: now, zone: LocalZone.shared.current)
            try store.planSeries(now: now, zone: LocalZone.shared.current)
            try store.planWater(now: now, zone: LocalZone.shared.current)
            try store.planDailyTip(now: now, zone: LocalZone.shared.current, at: config.dailyTipAt)
            var pending = try store.dueTriggers(at: now)
            if let next = try store.nextTrigger(after: now) { pending.append(next) }
            let plan = SchedulePlanner.plan(
                now: now, pending: pending, maxLateness: TimeInterval(config.maxLatenessSeconds),
                lateAfter: reason == .started ? 0 : SchedulePlanner.lateAfter)
            if reason == .clockChanged { logger.notice("wall clock changed: rescheduling") }


            if !plan.expired.isEmpty {
                try store.markMissed(plan.expired.map(\.key), at: now)
                for trigger in plan.expired {
                    logger.warning("reminder too late to show, recorded as missed", metadata: metadata(trigger))
                    hub.publish(DaemonEvent(.missed, at: now, key: trigger.key, itemKind: trigger.itemKind, itemID: trigger.itemID))
                }
            }
            var failed = !recordShownDeliveries()
            if try notificationsEnabled() {
                for trigger in plan.deliver where !(await deliver(trigger)) { failed = true }
                if !plan.catchUp.isEmpty, !(await deliverGroup(plan.catchUp)) { failed = true }
            } else {
                // Switched off: record them as due but show nothing, so switching on brings no flood.
                // An unanswered dose still counts its re-notifications, so it ends up missed, not open for ever.
                for trigger in plan.deliver + plan.catchUp {
                    if trigger.itemKind == .medication, trigger.source == .nag {
                        try silentNag(trigger, at: now)
                        continue
                    }
                    try store.markSuppressed([trigger.key], at: now)
                    hub.publish(DaemonEvent(.suppressed, at: now, key: trigger.key, itemKind: trigger.itemKind,
                                            itemID: trigger.itemID, title: title(of: trigger)))
                }
            }

            // Delivering may have added rows (re-notifications, low-stock warnings): ask the ledger again.
            var wakeAt = try store.nextTrigger(after: now)?.fireAt ?? plan.nextWake
            if let due = try store.dueTriggers(at: clock(), limit: 1).first, !plan.deliver.contains(due), !plan.catchUp.contains(due) {
                wakeAt = min(wakeAt ?? due.fireAt, due.fireAt)
            }
            for planning in [try store.nextPlanningInstant(), try store.nextSeriesPlanningInstant()].compactMap({ $0 }) {
                wakeAt = min(wakeAt ?? planning, max(planning, now))
            }
            if failed {
                let delay = holds.current?.retryDelay(configured: config.retrySeconds) ?? TimeInterval(config.retrySeconds)
                let retry = clock().addingTimeInterval(delay)
                wakeAt = min(wakeAt ?? retry, retry)
            } else {
                holds.current = nil
            }
            timer?.arm(at: wakeAt)
        } catch {
            let hold = held(by: error, otherwise: "the scheduler")
            logger.error("scheduler pass failed, reminders waiting for \(hold.waitingFor)")
            timer?.arm(at: clock().addingTimeInterval(hold.retryDelay(configured: config.retrySeconds)))
        }
    }

    /// `notifier.show`, abandoned when the scheduler's task is cancelled (shutdown): a notification server
    /// that never answers Notify must not hold up a stop for the D-Bus timeout. An abandoned show is not
    /// recorded as fired, so the reminder is shown at the next start.
    private func show(_ notification: DesktopNotification, for keys: [String]) async throws -> ShowOutcome {
        // Durably "delivering" before the server hears of it: a crash from here on never repeats it.
        try store.markDelivering(keys, at: clock())
        let notifier = self.notifier
        let outcome = ResumeOnce<ShowOutcome>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard outcome.install(continuation) else { return }
                Task {
                    do { outcome.resume(.success(try await notifier.show(notification))) } catch { outcome.resume(.failure(error)) }
                }
            }
        } onCancel: {
            outcome.resume(.failure(CancellationError()))
        }
    }

    private func metadata(_ trigger: Trigger) -> Logger.Metadata {
        ["item_id": "\(trigger.itemID)", "item_kind": "\(trigger.itemKind.rawValue)", "delivery_key": "\(trigger.key)"]
    }

    private func notificationsEnabled() throws -> Bool {
        try store.setting(Self.notificationsSetting) != "off"
    }

    static let notificationsSetting = "notifications"

    /// Shows one reminder and records it as fired; false (and still pending) if no server took it.
    private func deliver(_ trigger: Trigger) async -> Bool {
        if trigger.itemKind == .medication { return await deliverDose(trigger) }
        if trigger.itemKind == .water || trigger.itemKind == .tip { return await deliverPlannerNotice(trigger) }
        do {
            guard let notification = content.appointment(trigger) else {
                let now = clock()
                try store.markMissed([trigger.key], at: now)  // its item is gone
                hub.publish(DaemonEvent(.missed, at: now, key: trigger.key, itemKind: trigger.itemKind,
                                        itemID: trigger.itemID, detail: "item deleted"))
                return true
            }
            return try await showThenRecord(notification, for: [trigger.key], as: "reminder", metadata: metadata(trigger)) { [self] firedAt in
                try store.markFired([trigger.key], at: firedAt)
                let lateMs = Int(firedAt.timeIntervalSince(trigger.fireAt) * 1000)
                logger.info("reminder delivered: \(notification.summary) (\(lateMs) ms after due)", metadata: metadata(trigger))
                hub.publish(DaemonEvent(.fired, at: firedAt, key: trigger.key, itemKind: trigger.itemKind,
                                        itemID: trigger.itemID, title: notification.summary))
            }
        } catch {
            return notShown([trigger.key], error, as: "reminder", metadata: metadata(trigger))
        }
    }

    /// A notification of `keys` to show and the record of it once shown, kept until that record is written.
    private struct ShownDelivery {
        let keys: [String]
        let description: String
        let metadata: Logger.Metadata?
        let shownAt: Date
        let record: (Date) throws -> Void
    }

    /// Shows `notification` and then runs `record` with the time it was shown (marks it fired, tells
    /// listeners). Throws if the show failed; once shown it is never shown again: a `record` that fails
    /// is kept and tried again at each pass. False while the record waits.
    private func showThenRecord(_ notification: DesktopNotification, for keys: [String], as description: String,
                                metadata: Logger.Metadata? = nil, record: @escaping (Date) throws -> Void) async throws -> Bool {
        _ = try await show(notification, for: keys)
        return self.record(ShownDelivery(keys: keys, description: description, metadata: metadata, shownAt: clock(), record: record))
    }

    /// Runs `shown.record`; if it fails, keeps it for the next pass (logged the first time only).
    private func record(_ shown: ShownDelivery, retry: Bool = false) -> Bool {
        do {
            try shown.record(shown.shownAt)
            failingKeys.subtract(shown.keys)
            return true
        } catch {
            let hold = held(by: error, otherwise: "the scheduler")
            unrecorded.append(shown)
            if !retry {
                logger.warning("\(shown.description) shown; recording it waits for \(hold.waitingFor)", metadata: shown.metadata)
            }
            return false
        }
    }

    /// Writes the records of notifications shown at earlier passes; false if one still cannot be written.
    private func recordShownDeliveries() -> Bool {
        let waiting = unrecorded
        unrecorded = []
        return waiting.map { record($0, retry: true) }.allSatisfy { $0 }
    }

    /// A delivery that failed before its notification was shown: what it waits for goes to `status`, its rows
    /// return to pending for the next try, and the wait is logged once until it succeeds.
    private func notShown(_ keys: [String], _ error: any Error, as description: String, metadata: Logger.Metadata? = nil) -> Bool {
        let hold = held(by: error)
        try? store.recordFailure(keys, error: "\(error)")
        if !failingKeys.isSuperset(of: keys) {
            failingKeys.formUnion(keys)
            logger.warning("\(description) waiting for \(hold.waitingFor)", metadata: metadata)
        }
        return false
    }

    /// Several reminders missed while away become one notification.
    private func deliverGroup(_ triggers: [Trigger]) async -> Bool {
        // Members the server has already shown (it answered their Notify late) are recorded as shown
        // and left out: the others get a notification that tells only of them. Once shown, a record
        // that cannot be written yet is kept and written later, never shown again; so a failure
        // returns only the members not shown yet to pending.
        var members = triggers
        do {
            while case .shownEarlier(let shown) = try await show(missedWhileAway(members), for: members.map(\.key)) {
                let early = members.filter { shown.contains($0.key) }
                _ = record(ShownDelivery(keys: early.map(\.key), description: "missed-while-away reminders", metadata: nil,
                                         shownAt: clock()) { [self] firedAt in
                    try recordFired(early, at: firedAt, detail: "shown when the notification server answered late")
                })
                members.removeAll { shown.contains($0.key) }
                if members.isEmpty { return true }
            }
            let shown = members
            return record(ShownDelivery(keys: shown.map(\.key), description: "missed-while-away reminders", metadata: nil,
                                        shownAt: clock()) { [self] firedAt in
                try recordFired(shown, at: firedAt, detail: "missed while away")
                logger.notice("delivered \(shown.count) reminders missed while away as one notification")
            })
        } catch {
            return notShown(members.map(\.key), error, as: "missed-while-away reminders")
        }
    }

    /// One notification telling of several reminders, named by its members and covering each of them.
    private func missedWhileAway(_ triggers: [Trigger]) -> DesktopNotification {
        let items = triggers.map { (title: title(of: $0) ?? "(deleted)", occurrence: $0.occurrence) }
        let text = NotificationText.missedWhileAway(items, zone: LocalZone.shared.current)
        return DesktopNotification(
            key: "catch-up/" + triggers.map(\.key).sorted().joined(separator: ","), summary: text.summary, body: text.body,
            category: ItemKind.appointment.notificationCategory, covers: triggers.map(\.key))
    }

    private func recordFired(_ triggers: [Trigger], at firedAt: Date, detail: String) throws {
        try store.markFired(triggers.map(\.key), at: firedAt)
        for trigger in triggers {
            hub.publish(DaemonEvent(.fired, at: firedAt, key: trigger.key, itemKind: trigger.itemKind,
                                    itemID: trigger.itemID, title: title(of: trigger), detail: detail))
        }
    }

    private func title(of trigger: Trigger) -> String? {
        switch trigger.itemKind {
        case .appointment: return try? store.appointment(id: trigger.itemID).title
        case .medication: return (try? store.dose(id: trigger.itemID)).flatMap { try? store.medication(id: $0.medicationID).name }
        case .water: return "Drink water"
        case .tip: return Tips.tip(id: Int(trigger.itemID))?.title
        }
    }

    private var content: NotificationContent { NotificationContent(store: store, zone: LocalZone.shared.current) }

    /// Shows a dose (or re-shows an unanswered one in place); after `nag_count` re-notifications it is missed.
    private func deliverDose(_ trigger: Trigger) async -> Bool {
        if trigger.source == .lowStock { return await deliverLowStock(trigger) }
        do {
            let now = clock()
            guard let dose = try? store.dose(id: trigger.itemID), let medication = try? store.medication(id: dose.medicationID),
                  dose.state.isOpen
            else {
                try store.markMissed([trigger.key], at: now)  // answered or deleted meanwhile: nothing to show
                return true
            }
            if trigger.source == .nag, dose.nagCount >= config.nagCount {
                let shown = try store.shownKey(ofDose: trigger.itemID)
                try giveUp(on: trigger, medication: medication, at: now)
                if let shown { await notifier.close(key: shown) }
                return true
            }
            let previous = try store.shownKey(ofDose: trigger.itemID)
            let notification = content.dose(trigger, dose: dose, medication: medication, nagCount: config.nagCount,
                                            replacesKey: trigger.source == .plan ? nil : previous)
            return try await showThenRecord(notification, for: [trigger.key], as: "dose", metadata: metadata(trigger)) { [self] firedAt in
                try store.markFired([trigger.key], at: firedAt)
                try store.doseShown(trigger, at: firedAt, nagInterval: TimeInterval(config.nagIntervalSeconds))
                let lateMs = Int(firedAt.timeIntervalSince(trigger.fireAt) * 1000)
                logger.info("dose notification shown: \(medication.name) (\(trigger.source.rawValue), \(lateMs) ms after due)",
                            metadata: metadata(trigger))
                hub.publish(DaemonEvent(trigger.source == .nag ? .renotified : .fired, at: firedAt, key: trigger.key,
                                        itemKind: .medication, itemID: trigger.itemID, title: medication.name))
            }
        } catch {
            return notShown([trigger.key], error, as: "dose", metadata: metadata(trigger))
        }
    }

    private func deliverLowStock(_ trigger: Trigger) async -> Bool {
        do {
            guard let dose = try? store.dose(id: trigger.itemID), let medication = try? store.medication(id: dose.medicationID) else {
                try store.markMissed([trigger.key], at: clock())
                return true
            }
            return try await showThenRecord(content.lowStock(medication, key: trigger.key), for: [trigger.key], as: "low-stock warning",
                                            metadata: metadata(trigger)) { [self] firedAt in
                try store.markFired([trigger.key], at: firedAt)
                hub.publish(DaemonEvent(.lowStock, at: firedAt, key: trigger.key, itemKind: .medication, itemID: trigger.itemID,
                                        title: medication.name))
            }
        } catch {
            return notShown([trigger.key], error, as: "low-stock warning", metadata: metadata(trigger))
        }
    }

    /// An unanswered dose after its last re-notification: recorded as missed.
    private func giveUp(on trigger: Trigger, medication: Medication, at now: Date) throws {
        _ = try store.markDoseMissed(id: trigger.itemID)
        try store.markMissed([trigger.key], at: now)
        logger.warning("dose not confirmed after \(config.nagCount) reminders: recorded as missed", metadata: metadata(trigger))
        hub.publish(DaemonEvent(.missed, at: now, key: trigger.key, itemKind: .medication,
                                itemID: trigger.itemID, title: medication.name))
    }

    /// A re-notification that comes due while notifications are off: counted, not shown.
    private func silentNag(_ trigger: Trigger, at now: Date) throws {
        guard let dose = try? store.dose(id: trigger.itemID), let medication = try? store.medication(id: dose.medicationID),
              dose.state.isOpen
        else { try store.markMissed([trigger.key], at: now); return }
        if dose.nagCount >= config.nagCount { return try giveUp(on: trigger, medication: medication, at: now) }
        try store.markSuppressed([trigger.key], at: now)
        try store.doseShown(trigger, at: now, nagInterval: TimeInterval(config.nagIntervalSeconds))
        hub.publish(DaemonEvent(.suppressed, at: now, key: trigger.key, itemKind: .medication, itemID: trigger.itemID,
                                title: medication.name))
    }

    /// Water reminders and the daily tip: shown unless no longer wanted (e.g. today's water goal reached).
    private func deliverPlannerNotice(_ trigger: Trigger) async -> Bool {
        do {
            guard let notification = try content.plannerNotice(trigger, now: clock()) else {
                try store.markMissed([trigger.key], at: clock())  // not needed any more: recorded, not shown
                return true
            }
            return try await showThenRecord(notification, for: [trigger.key], as: "\(trigger.itemKind.rawValue) reminder",
                                            metadata: metadata(trigger)) { [self] firedAt in
                try store.markFired([trigger.key], at: firedAt)
                hub.publish(DaemonEvent(.fired, at: firedAt, key: trigger.key, itemKind: trigger.itemKind,
                                        itemID: trigger.itemID, title: notification.summary))
            }
        } catch {
            return notShown([trigger.key], error, as: "\(trigger.itemKind.rawValue) reminder", metadata: metadata(trigger))
        }
    }

    // MARK: - Dose answers (notification buttons and `beautyctl dose`)

    /// Records taken / skipped / snoozed for a dose, closes its notification, and warns once on low stock.
    public func answerDose(id: Int64, _ state: Dose.State, at confirmedAt: Date, snoozeSeconds: Int? = nil) async throws -> DoseAnswer {
        let now = clock()
        if state == .snoozed, let dose = try? store.dose(id: id), dose.scheduledAt > now {
            // Snoozing a dose before it is due would show it earlier than planned.
            throw ValidationError(field: "id", "dose \(id) is not due yet (scheduled \(Timestamps(zone: LocalZone.shared.current).short(dose.scheduledAt))); snooze a dose once it is due")
        }
        let until = state == .snoozed ? now.addingTimeInterval(TimeInterval(snoozeSeconds ?? config.snoozeSeconds)) : nil
        let answer = try store.answerDose(id: id, state, confirmedAt: confirmedAt, now: now, snoozeUntil: until)
        guard answer.changed else { return answer }
        let shown = answer.shownKey
        if let shown {
            // Not awaited: this runs for `beautyctl dose`, and a close queued behind a hung Notify on the
            // GLib thread could otherwise hold the request up for the D-Bus timeout (~25 s).
            Task { [notifier] in await notifier.close(key: shown) }
        }
        logger.info("dose \(state.rawValue)", metadata: ["item_id": "\(id)", "item_kind": "medication"])
        if let event = DaemonEvent.Kind(answer: state) {
            hub.publish(DaemonEvent(event, at: now, key: shown, itemKind: .medication, itemID: id,
                                    title: try? store.medication(id: answer.dose.medicationID).name,
                                    detail: until.map { WireJSON.formatInstant($0) }))
        }
        if let low = answer.lowStock {
            logger.notice("stock of \(low.name) is down to \(NotificationContent.number(low.stock ?? 0))")
        }
        wake(.edited)
        return answer
    }

    // MARK: - Answers from the notification server

    private func consumeNotifierEvents() async {
        for await event in notifier.events {
            if Task.isCancelled { return }
            await handle(event)
        }
    }

    private func handle(_ event: NotifierEvent) async {
        let now = clock()
        do {
            switch event {
            case .serverAppeared:
                logger.info("notification server appeared on the bus")
                wake(.serverAppeared)
            case .serverVanished:
                logger.notice("notification server left the bus; reminders will wait for it")
            case let .action(key, action) where key.hasPrefix(ItemKind.medication.rawValue + "/"):
                guard let trigger = try store.delivery(key: key)?.trigger else { return }
                if let state = NotificationAction(rawValue: action)?.doseAnswer { _ = try await answerDose(id: trigger.itemID, state, at: now) }
            case .closed(let key, _) where key.hasPrefix(ItemKind.medication.rawValue + "/"):
                break  // closing a dose popup is not an answer: it will be shown again
            case let .action(key, action) where NotificationAction(rawValue: action) == .snooze:
                guard try store.settle(key, as: .snoozed, at: now) > 0 else { return }
                let until = now.addingTimeInterval(TimeInterval(config.snoozeSeconds))
                _ = try store.scheduleSnooze(of: key, until: until)
                logger.info("reminder snoozed until \(Timestamps().short(until))", metadata: ["delivery_key": "\(key)"])
                hub.publish(DaemonEvent(.snoozed, at: now, key: key, detail: WireJSON.formatInstant(until)))
                wake(.edited)
            case let .action(key, action) where NotificationAction(rawValue: action) == .dismiss:
                if try store.settle(key, as: .dismissed, at: now) > 0 {
                    hub.publish(DaemonEvent(.dismissed, at: now, key: key))
                }
            case let .closed(key, reason) where CloseReason(code: reason) == .dismissed:
                if try store.settle(key, as: .dismissed, at: now) > 0 {
                    hub.publish(DaemonEvent(.dismissed, at: now, key: key))
                }
            case .action, .closed:
                break
            }
        } catch {
            logger.error("could not record the answer \(event): \(error)")
        }
    }
}

/// A thread-safe one-shot signal.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false

    func set() { lock.withLock { raised = true } }

    /// True once per `set()`.
    func take() -> Bool {
        lock.withLock {
            defer { raised = false }
            return raised
        }
    }
}

/// A continuation resumed by whichever comes first (an answer or a cancellation), exactly once.
final class ResumeOnce<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, Error>?
    private var early: Result<T, Error>?
    private var done = false

    /// Hands over the continuation; false (and already resumed) if the outcome came first.
    func install(_ continuation: CheckedContinuation<T, Error>) -> Bool {
        let result: Result<T, Error>? = lock.withLock {
            if let early { done = true; return early }
            self.continuation = continuation
            return nil
        }
        guard let result else { return true }
        continuation.resume(with: result)
        return false
    }

    func resume(_ result: Result<T, Error>) {
        let waiting: CheckedContinuation<T, Error>? = lock.withLock {
            guard !done else { return nil }
            guard let continuation else {
                if early == nil { early = result }
                return nil
            }
            done = true
            self.continuation = nil
            return continuation
        }
        waiting?.resume(with: result)
    }
}
