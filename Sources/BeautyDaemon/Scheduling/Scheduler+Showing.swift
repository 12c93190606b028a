import BeautyCore
import BeautyNotify
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// Showing a notification and recording it: durably "delivering" first, a record that fails kept for
/// the next pass, a failure before showing logged once and returned to pending.
extension Scheduler {
    /// `notifier.show`, abandoned when the scheduler's task is cancelled (shutdown) and the server has
    /// not answered within `stopGrace`: a notification server that never answers Notify must not hold
    /// up a stop for the D-Bus timeout. An abandoned show is not recorded as fired, so the reminder is
    /// shown at the next start. The grace is there because a stop usually meets a server that answers
    /// in milliseconds: abandoning its Notify at once would show that reminder a second time.
    func show(_ notification: DesktopNotification, for keys: [String]) async throws -> ShowOutcome {
        try await answer(to: try send(notification, for: keys))
    }

    /// Sends `notification` without waiting for the server's answer (`answer(to:)` waits for it); `sending`
    /// runs just before the call goes to the bus.
    func send(
        _ notification: DesktopNotification, for keys: [String], sending: @escaping @Sendable () -> Void = {}
    ) throws -> ShowReply {
        // A stop under way sends nothing new: the grace below is for a Notify already sent.
        try Task.checkCancellation()
        // Durably "delivering" before the server hears of it: a crash from here on never repeats it.
        if !committedKeys.isSuperset(of: keys) { try store.deliveries.markDelivering(keys, at: clock()) }
        return notifier.send(notification, sending: sending)
    }

    /// The server's answer to a notification sent, or a cancellation once a stop has waited `stopGrace` for it.
    func answer(to reply: ShowReply) async throws -> ShowOutcome {
        let outcome = ResumeOnce<ShowOutcome>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard outcome.install(continuation) else { return }
                Task {
                    do { outcome.resume(.success(try await reply.value)) } catch {
                        outcome.resume(.failure(error))
                    }
                }
            }
        } onCancel: {
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.stopGrace) {
                outcome.resume(.failure(CancellationError()))
            }
        }
    }

    /// How long a stop waits for the answer to a Notify already sent (systemd's stop timeout is far longer).
    static let stopGrace: TimeInterval = 3

    /// A notification of `keys` to show and the record of it once shown, kept until that record is written.
    struct ShownDelivery {
        let keys: [String]
        let description: String
        let metadata: Logger.Metadata?
        var shownAt: Date
        let record: (Date) throws -> Void
    }

    /// A notification of a burst, sent without waiting for the answer, and its record once it is answered.
    struct SentDelivery {
        let reply: ShowReply
        var shown: ShownDelivery
    }

    /// Shows `show.notification` and then runs `show.record` with the time it was shown (marks it fired, tells
    /// listeners). Throws if the show failed; once shown it is never shown again: a `record` that fails
    /// is kept and tried again at each pass. False while the record waits. In a burst (`sentInBurst`),
    /// only sends it: `answerBurst` waits for the answers and records them.
    func showThenRecord(_ show: PreparedShow) async throws -> Bool {
        if sentInBurst != nil {
            let (progress, instant, key) = (store.showingProgress, burstInstant, show.keys.max())
            let reply = try send(show.notification, for: show.keys) {
                // Noted on the notifier's thread as the call goes out, not when it is queued: a crash in between
                // leaves it pending (it was never sent), not counted as shown.
                if let instant, let key { progress.sending(key, committedFor: instant) }
            }
            sentInBurst?.append(SentDelivery(reply: reply, shown: ShownDelivery(show, shownAt: clock())))
            return true
        }
        _ = try await self.show(show.notification, for: show.keys)
        return record(ShownDelivery(show, shownAt: clock()))
    }

    /// Waits for the answers to a burst's notifications, in the order sent, then writes the records of those
    /// shown in one transaction; those no server took go back to pending, as a failed show does.
    func answerBurst(_ sent: [SentDelivery]) async -> Bool {
        var shown: [ShownDelivery] = []
        var allShown = true
        for var delivery in sent {
            do {
                _ = try await answer(to: delivery.reply)
                delivery.shown.shownAt = clock()
                shown.append(delivery.shown)
            } catch {
                let failed = delivery.shown
                allShown = notShown(failed.keys, error, as: failed.description, metadata: failed.metadata) && allShown
            }
        }
        return recordTogether(shown) && allShown
    }

    /// Runs `shown.record`; if it fails, keeps it for the next pass (logged the first time only).
    func record(_ shown: ShownDelivery, retry: Bool = false) -> Bool {
        do {
            try shown.record(shown.shownAt)
            failingKeys.subtract(shown.keys)
            return true
        } catch {
            let hold = held(by: error, otherwise: .scheduler)
            unrecorded.append(shown)
            if !retry {
                logger.warning(
                    "\(shown.description) shown; recording it waits for \(hold.waitingFor)", metadata: shown.metadata)
            }
            return false
        }
    }

    /// Runs the records of a burst in one transaction: one commit for the instant instead of one per
    /// notification. A record that fails is kept like any (its savepoint alone is rolled back); if the
    /// transaction itself cannot commit, each is written on its own.
    func recordTogether(_ burst: [ShownDelivery]) -> Bool {
        guard burst.count > 1 else { return burst.allSatisfy { record($0) } }
        let keptBefore = unrecorded.count
        do {
            return try store.writer.inOneTransaction { burst.map { record($0) }.allSatisfy { $0 } }
        } catch {
            unrecorded.removeSubrange(keptBefore...)
            return burst.map { record($0) }.allSatisfy { $0 }
        }
    }

    /// Writes the records of notifications shown at earlier passes; false if one still cannot be written.
    func recordShownDeliveries() -> Bool {
        let waiting = unrecorded
        unrecorded = []
        return waiting.map { record($0, retry: true) }.allSatisfy { $0 }
    }

    /// A delivery that failed before its notification was shown: what it waits for goes to `status`, its rows
    /// return to pending for the next try, and the wait is logged once until it succeeds.
    func notShown(_ keys: [String], _ error: any Error, as description: String, metadata: Logger.Metadata? = nil)
        -> Bool
    {
        let hold = held(by: error)
        try? store.deliveries.recordFailure(keys, error: "\(error)")
        if !failingKeys.isSuperset(of: keys) {
            failingKeys.formUnion(keys)
            logger.warning("\(description) waiting for \(hold.waitingFor)", metadata: metadata)
        }
        return false
    }
}

extension Scheduler.ShownDelivery {
    init(_ show: Scheduler.PreparedShow, shownAt: Date) {
        self.init(
            keys: show.keys, description: show.description, metadata: show.metadata, shownAt: shownAt,
            record: show.record)
    }
}
