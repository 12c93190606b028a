import BeautyCore
import BeautyStore
import Foundation

/// Where an account's doses on the phone stand between runs (kept by `SyncCoordinator`, in memory).
public struct PhoneTaskState: Sendable {
    public var lastRunAt: Date?
    public var lastPollAt: Date?
    /// Failed runs in a row, and when the next one may go.
    public var failures = 0
    public var retryAt: Date?
    /// In English; `lastErrorText` to translate (nil for a library's own words).
    public var lastError: String?
    public var lastErrorText: TranslatableText?
    public var lastReport: PhoneTaskReport?

    public init() {}
}

/// When an account's dose list next needs a run (docs/PHONE_TASKS.md §7). Pure: the times of its
/// tasks, its state, the poll interval and the clock are given.
enum PhoneTaskSchedule {
    /// The next run: a poll at each tasked dose's due instant, every `poll` while a dose is open, at
    /// the end of a late window; a push when a dose enters the window; a retry after a failure. Nil
    /// when nothing is pending: no timer at all.
    static func next(
        times: DoseTaskTimes, state: PhoneTaskState, poll: TimeInterval, windowEntry: Date?, now: Date
    ) -> (at: Date, polls: Bool)? {
        var polls: [Date] = []
        if let due = times.nextDue { polls.append(due) }
        if let end = times.nextLateEnd { polls.append(end) }
        if times.open > 0 { polls.append((state.lastPollAt ?? .distantPast).addingTimeInterval(poll)) }
        var pushes: [Date] = []
        if let windowEntry { pushes.append(windowEntry) }
        if let retry = state.retryAt { polls.append(retry) }
        // Never a loop against a server: after a failure nothing goes before the retry instant (the
        // open dose's poll, due since the last poll that worked, would otherwise go every second); a
        // deadline the last run already had and did not clear (a write the server keeps refusing) waits
        // a poll interval; any other goes at least a second after the last run.
        func paced(_ deadline: Date) -> Date {
            var at = deadline
            if let last = state.lastRunAt {
                at = at <= last ? last.addingTimeInterval(poll) : max(at, last.addingTimeInterval(1))
            } else {
                at = max(at, now)
            }
            if let retry = state.retryAt { at = max(at, retry) }
            return at
        }
        let poll = polls.map(paced).min()
        let push = pushes.map(paced).min()
        switch (poll, push) {
        case (nil, nil): return nil
        case let (p?, nil): return (p, true)
        case let (nil, q?): return (q, false)
        case let (p?, q?): return p <= q ? (p, true) : (q, false)
        }
    }

    /// The first instant after `now` at which a dose of `medications` enters the window of `days` days.
    static func windowEntry(medications: [TaskedMedication], days: Int, zone: TimeZone, now: Date) -> Date? {
        let horizon = now.addingTimeInterval(TimeInterval(days) * 86_400)
        return medications.compactMap { tasked in
            DosePlanner.doses(
                for: tasked.medication, from: horizon, to: horizon.addingTimeInterval(2 * 86_400),
                zone: tasked.medication.zone(default: zone)
            ).first
        }.min().map { $0.addingTimeInterval(-TimeInterval(days) * 86_400) }
    }
}
