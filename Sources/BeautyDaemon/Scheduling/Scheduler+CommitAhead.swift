import BeautyCore
import BeautyStore
import Foundation

/// The deliveries of the next due instant are committed `commit_ahead_ms` before it, in one
/// transaction; at the instant their Notify calls are sent back to back, in a stable order, none
/// waiting for the answer to the one before, with nothing written in between (and so nothing waiting for
/// a client's write); once answered they are recorded in one transaction.
extension Scheduler {
    /// At the committed instant: shows what is still committed for it. Before it, a clock or zone
    /// change or a reload takes the commitment back (an edit needs nothing: it replaces or removes
    /// its pending rows, and what is shown is read again at the instant). Nil when nothing was shown.
    func showCommitted(reason: WakeReason) async throws -> Bool? {
        guard let instant = committedInstant else { return nil }
        switch reason {
        case .clockChanged, .zoneChanged, .configReloaded, .started:
            try store.deliveries.takeBackCommitments()
            committedInstant = nil
            return nil
        case .timer, .edited, .serverAppeared:
            guard clock() >= instant else { return nil }
        }
        guard try notificationsEnabled() else {
            try store.deliveries.takeBackCommitments()  // switched off meanwhile: the pass records them as suppressed
            committedInstant = nil
            return nil
        }
        // Committed rows are left out of the passes' due deliveries: only this shows them.
        let due = try store.deliveries.committedAhead(for: instant)
        committedInstant = nil
        committedKeys = Set(due.map(\.key))
        sentInBurst = []
        burstInstant = instant
        defer {
            committedKeys = []
            sentInBurst = nil
            burstInstant = nil
        }
        var shown = true
        for trigger in due where !(await deliver(trigger)) { shown = false }
        let sent = sentInBurst ?? []
        sentInBurst = nil
        if !(await answerBurst(sent)) { shown = false }
        return shown
    }

    /// Arms the timer for `wakeAt`; when that is a delivery's instant, for `commit_ahead_ms` (`CommitLead`) before it,
    /// and once that time has come, commits the instant's deliveries and arms the timer for the instant.
    func arm(for wakeAt: Date?) throws {
        let armedBefore = timer.deadline
        if let committed = committedInstant {
            timer.arm(at: min(wakeAt ?? committed, committed))
            return
        }
        commitLead.configured = TimeInterval(config.commitAheadMilliseconds) / 1000
        let lead = commitLead.lead
        guard lead > 0, let wakeAt, try notificationsEnabled(),
            let next = try store.deliveries.next(after: clock()), next.fireAt == wakeAt
        else {
            timer.arm(at: wakeAt)
            return
        }
        if wakeAt.timeIntervalSince(clock()) > lead {
            timer.arm(at: wakeAt.addingTimeInterval(-lead))
            return
        }
        let committing = clock()
        let committed = try store.deliveries.commitAhead(dueAt: wakeAt)
        if !committed.isEmpty { committedInstant = wakeAt }
        // Timed from the deadline this pass was woken for, when that was this commit's.
        if let armed = armedBefore, armed <= committing, wakeAt.timeIntervalSince(armed) <= lead + 0.001 {
            commitLead.record(clock().timeIntervalSince(armed))
        }
        // For benchmarks/firing.py: how far ahead of the instant the commit ended, how long it took (its wait
        // for a write in progress and its fsync), and how late this pass began after the timer's deadline.
        logger.debug(
            "committed ahead",
            metadata: [
                "deliveries": "\(committed.count)", "instant": "\(wakeAt.timeIntervalSince1970)",
                "margin_ms": "\(Self.milliseconds(wakeAt.timeIntervalSince(clock())))",
                "commit_ms": "\(Self.milliseconds(clock().timeIntervalSince(committing)))",
                "pass_began_late_ms": "\(Self.milliseconds(committing.timeIntervalSince(armedBefore ?? committing)))",
                "lead_ms": "\(Self.milliseconds(lead))",
            ])
        timer.arm(at: wakeAt)
    }

    private static func milliseconds(_ interval: TimeInterval) -> String { String(format: "%.2f", interval * 1000) }
}
