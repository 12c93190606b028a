import BeautyCore
import BeautyStore
import Foundation

/// The deliveries of the next due instant are committed `commit_ahead_ms` before it, in one
/// transaction; at the instant their Notify calls are sent back to back, in a stable order, none
/// waiting for the answer to the one before, with nothing written in between (and so nothing waiting for
/// a client's write); once answered they are recorded in one transaction.
extension Scheduler {
    /// The deliveries of a committed instant and their notifications, built just after the commit.
    struct PreparedInstant {
        let instant: Date
        /// `store.writer.writes` once the commit ahead was written: any other value at the instant means a
        /// write since (an edit, an answer, a setting), and what is shown is read again.
        let writes: UInt64
        /// What the text was built with besides the store: a reload, a new session language or zone (whose
        /// wake may come after the instant's) makes it built again.
        let config: DaemonConfig
        let zone: String
        /// In showing order.
        let triggers: [Trigger]
        /// By delivery key; a delivery that shows nothing (its item gone...) is worked out again at the instant.
        let shows: [String: PreparedShow]
    }

    /// At the committed instant: shows what is still committed for it, as built at the commit when nothing it
    /// was built from changed since (`isCurrent`: no read at the instant), else read again. Before it, a clock or zone change or a
    /// reload takes the commitment back (an edit needs nothing: it replaces or removes its pending rows, and
    /// its write makes what is shown read again). Nil when nothing was shown.
    func showCommitted(reason: WakeReason) async throws -> Bool? {
        guard let instant = committedInstant else { return nil }
        switch reason {
        case .clockChanged, .zoneChanged, .configReloaded, .started:
            try takeBackCommitments()
            return nil
        case .timer, .edited, .serverAppeared:
            guard clock() >= instant else { return nil }
        }
        let built = prepared.flatMap { isCurrent($0, for: instant) ? $0 : nil }
        prepared = nil
        // Switching notifications off is a write: built ahead (after the setting was read), they were on.
        guard try built != nil || notificationsEnabled() else {
            try takeBackCommitments()  // switched off meanwhile: the pass records them as suppressed
            return nil
        }
        // Committed rows are left out of the passes' due deliveries: only this shows them.
        let due = try built?.triggers ?? store.deliveries.committedAhead(for: instant)
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
        for trigger in due {
            if let show = built?.shows[trigger.key] {
                if !(await deliver(show)) { shown = false }
            } else if !(await deliver(trigger)) {
                shown = false
            }
        }
        let sent = sentInBurst ?? []
        sentInBurst = nil
        if !(await answerBurst(sent)) { shown = false }
        return shown
    }

    private func takeBackCommitments() throws {
        prepared = nil
        try store.deliveries.takeBackCommitments()
        committedInstant = nil
    }

    /// Builds the notifications of `triggers`, committed for `instant` by the write that made `writes`.
    private func prepare(_ triggers: [Trigger], for instant: Date, writes: UInt64) -> PreparedInstant {
        var shows: [String: PreparedShow] = [:]
        for trigger in triggers {
            if case .show(let show)? = try? delivery(for: trigger, at: instant) { shows[trigger.key] = show }
        }
        return PreparedInstant(
            instant: instant, writes: writes, config: config, zone: zone.current.identifier, triggers: triggers,
            shows: shows)
    }

    /// Whether what was built for `instant` is still what would be built now: nothing written, the same
    /// configuration and zone, and the instant just come (after a suspend, a water reminder's day is checked again).
    private func isCurrent(_ built: PreparedInstant, for instant: Date) -> Bool {
        built.instant == instant && built.writes == store.writer.writes
            && clock().timeIntervalSince(instant) < Self.builtAheadFor && built.config == config
            && built.zone == zone.current.identifier
    }

    /// How long after its instant what was built ahead is shown as built.
    static let builtAheadFor: TimeInterval = 1

    /// Arms the timer for `wakeAt`; when that is a delivery's instant, for `commit_ahead_ms` (`CommitLead`) before it,
    /// and once that time has come, commits the instant's deliveries and arms the timer for the instant.
    func arm(for wakeAt: Date?) throws {
        let armedBefore = timer.deadline
        // Counted before anything is read here: a write by anyone else from now to the commit (notifications
        // switched off, an edit) makes the count differ, and the instant reads everything again.
        let writesBefore = store.writer.writes
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
        if !committed.isEmpty {
            committedInstant = wakeAt
            // Built only if nothing but the commit was written since the setting was read above.
            prepared =
                store.writer.writes == writesBefore + 1
                ? prepare(committed, for: wakeAt, writes: writesBefore + 1) : nil
        }
        // Timed from the deadline this pass was woken for, when that was this commit's (and the building's).
        if let armed = armedBefore, armed <= committing, wakeAt.timeIntervalSince(armed) <= lead + 0.001 {
            commitLead.record(clock().timeIntervalSince(armed))
        }
        // For benchmarks/firing.py: how far ahead of the instant the commit ended, how long it took (its wait
        // for a write in progress, its fsync, the notifications built), and how late this pass began after the timer's deadline.
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
