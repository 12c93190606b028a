import BeautyCalDAV
import BeautyCore
import BeautyLocalization
import BeautyStore
import Foundation
import Logging

/// What `sync status` shows of an account's doses on the phone.
public struct PhoneTaskStatus: Sendable {
    public var enabled: Bool
    public var listURL: String?
    public var listName: String?
    public var privateMode: Bool
    /// The deletion guard held a poll back: nothing is skipped or put back until the user says.
    public var paused: Bool
    /// Doses due and unanswered with a task on the phone.
    public var openDoses: Int
    public var lastPollAt: Date?
    public var nextRunAt: Date?
    public var lastError: String?
    public var lastErrorText: TranslatableText?
    public var lastReport: PhoneTaskReport?
    /// Answers that gave way, tasks put back: the last 30 days, the latest first.
    public var reports: [DoseTaskReportRow]
}

/// The dose loop (docs/PHONE_TASKS.md §7): one for all accounts whose doses are on, each account's
/// runs serialized with its appointment syncs. It waits for `noticeDoses` or the earliest deadline
/// of `PhoneTaskSchedule`; with nothing pending it has no timer at all.
extension SyncCoordinator {
    /// A dose or medication changed (an answer, a miss, an edit, a zone change): write what the tasks need.
    nonisolated func noticeDoses() { doseWakeups.notify() }

    var lateWindow: TimeInterval { TimeInterval(settings.config.nagCount * settings.config.nagIntervalSeconds) }

    func runDoses() async {
        guard database != nil, doseAnswers != nil else { return }
        // At start: bring every list in line once (and poll those with a dose open).
        var noticed = true
        while !Task.isCancelled {
            let accounts = doseAccounts()
            if !accounts.isEmpty {
                if noticed {
                    // More may follow (an import, a burst of answers): go once they pause.
                    while await doseWakeups.wait(timeout: Self.debounce) { if Task.isCancelled { return } }
                }
                let current = clock()
                let runs = accounts.compactMap { account -> (String, Bool)? in
                    // Paused by the deletion guard: only the user lets it go on (`syncDosesNow`).
                    guard !account.dosesPaused else { return nil }
                    let next = nextDoseRun(account, now: current)
                    if let next, next.at <= current { return (account.name, next.polls) }
                    return noticed ? (account.name, false) : nil
                }
                await withTaskGroup(of: Void.self) { group in
                    for (name, poll) in runs {
                        group.addTask { _ = await self.serially(name) { await self.syncDoses(name, poll: poll) } }
                    }
                }
            }
            if Task.isCancelled { break }
            let now = clock()
            let next = doseAccounts().compactMap { nextDoseRun($0, now: now)?.at }.min()
            let timeout = next.map { Duration.milliseconds(max(0, Int64($0.timeIntervalSince(now) * 1000))) }
            doseLoopWait = (true, next)
            noticed = await doseWakeups.wait(timeout: timeout)
            doseLoopWait = (false, nil)
            doseLoopWakes += 1
        }
    }

    /// Accounts whose doses are on and that are not paused by a restore.
    func doseAccounts() -> [SyncAccount] {
        ((try? store.accounts()) ?? []).filter { account in
            account.dosesEnabled && account.dosesListURL != nil
                && account.lastError != SyncAccount.restoredPause(account.name).english
        }
    }

    /// The next run of `account`'s dose list and whether it polls.
    func nextDoseRun(_ account: SyncAccount, now: Date) -> (at: Date, polls: Bool)? {
        guard let database, !account.dosesPaused else { return nil }
        let config = settings.config
        guard let times = try? database.doseTasks.times(account: account.name, now: now, lateWindow: lateWindow)
        else { return nil }
        let medications = (try? database.medications.tasked()) ?? []
        return PhoneTaskSchedule.next(
            times: times, state: doseStates[account.name] ?? PhoneTaskState(),
            poll: TimeInterval(config.dosesPollSeconds),
            windowEntry: PhoneTaskSchedule.windowEntry(
                medications: medications, days: config.dosesDays, zone: zone.current, now: now),
            now: now)
    }

    /// Runs `name`'s doses now, after its syncs under way; `allowDeletions` lets a poll the deletion
    /// guard held back go through. Nil when the account has no doses on the phone.
    func syncDosesNow(name: String, allowDeletions: Bool = false) async -> PhoneTaskReport? {
        await serially(name) { await self.syncDoses(name, poll: true, allowDeletions: allowDeletions) }
    }

    @discardableResult
    func syncDoses(_ name: String, poll: Bool, allowDeletions: Bool = false) async -> PhoneTaskReport? {
        guard let database, let doseAnswers, let account = try? store.account(named: name), account.dosesEnabled
        else { return nil }
        let config = settings.config
        var state = doseStates[name] ?? PhoneTaskState()
        let started = clock()
        do {
            var engine = PhoneTaskEngine(
                database: database, server: try doseClient(for: account), account: account, answers: doseAnswers,
                zone: zone.current, now: clock, days: config.dosesDays, lateWindow: lateWindow,
                localizer: Localizer.forLanguage(config.shownLanguage), logger: logger)
            engine.allowDeletions = allowDeletions
            engine.deletionShare = config.syncMaxDeletionShare
            let report = try await SyncTimeLimit.run(seconds: config.syncTimeoutSeconds) { [engine] in
                try await engine.run(poll: poll)
            }
            state.lastRunAt = started
            if report.polled { state.lastPollAt = started }
            state.failures = 0
            state.retryAt = nil
            state.lastErrorText = Self.doseRunTrouble(report)
            state.lastError = state.lastErrorText?.english
            state.lastReport = report
            doseStates[name] = state
            logger.info(
                "doses \(name): polled \(report.polled), read \(report.read), created \(report.created), written \(report.written), deleted \(report.deleted), answers \(report.answersApplied), \(report.requests) requests"
            )
            return report
        } catch {
            state.lastRunAt = started
            state.failures += 1
            let wait = SyncDecision.backOff(failures: state.failures, cap: TimeInterval(config.syncIntervalSeconds))
            state.retryAt = clock().addingTimeInterval(wait)
            state.lastError = "\(error)"
            state.lastErrorText = SyncErrorText.of(error)
            doseStates[name] = state
            if !Task.isCancelled {
                logger.warning("doses \(name) failed (next attempt in \(Int(wait)) s): \(error)")
            }
            return nil
        }
    }

    /// What went wrong in a run that ended, for the dose status; nil when nothing did.
    static func doseRunTrouble(_ report: PhoneTaskReport) -> TranslatableText? {
        var trouble: [TranslatableText] = []
        if report.stillRefused {
            trouble.append(
                TranslatableText(
                    "the server refused beautyd's writes to the dose list although the tasks had not changed (412 Precondition Failed, %s refusals); they are tried again at the next run",
                    [.plain(report.preconditionFailures)]))
        }
        if !report.unreadable.isEmpty {
            trouble.append(
                TranslatableText(
                    "tasks on the dose list that cannot be read (%s), no answer taken from them: %s",
                    [.plain(report.unreadable.count), .plain(report.unreadable.prefix(3).joined(separator: "; "))]))
        }
        return trouble.dropFirst().reduce(trouble.first) { joined, next in
            joined.map { TranslatableText("%s; %s", [.message($0), .message(next)]) }
        }
    }

    /// What `sync status` shows of `account`'s doses; nil for an unknown account.
    func dosesStatus(account name: String) -> PhoneTaskStatus? {
        guard let database, let account = try? store.account(named: name) else { return nil }
        let now = clock()
        let state = doseStates[name] ?? PhoneTaskState()
        return PhoneTaskStatus(
            enabled: account.dosesEnabled, listURL: account.dosesListURL, listName: account.dosesListName,
            privateMode: account.dosesPrivate, paused: account.dosesPaused,
            openDoses: (try? database.doseTasks.times(account: name, now: now, lateWindow: lateWindow).open) ?? 0,
            lastPollAt: state.lastPollAt,
            nextRunAt: account.dosesEnabled ? nextDoseRun(account, now: now)?.at : nil,
            lastError: state.lastError, lastErrorText: state.lastErrorText, lastReport: state.lastReport,
            reports: (try? database.doseTasks.reports(account: name, now: now)) ?? [])
    }
}
