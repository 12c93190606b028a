import BeautyCalDAV
import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// The daemon's sync: one CalDAV client per account, each account's syncs one at a time (accounts
/// side by side, so a slow server holds back only its own), and the loop that
/// starts them at the interval, right after local changes (debounced), and after failures with a
/// growing back-off. With no account it waits for a notice alone and never wakes.
public actor SyncCoordinator {
    let store: SyncStore
    /// Gives the appointments without a UID theirs before each sync (`SyncEngine`).
    let appointments: AppointmentStore
    /// The tree a server's categories are checked against, as an import's are.
    let categories: CategoryStore
    let settings: SettingsBox
    /// Called when a sync changed appointments, so their reminders are armed at once (the scheduler's wake).
    let remindersChanged: @Sendable () -> Void
    let logger: Logger
    let clock: @Sendable () -> Date
    let zone: any ZoneSource
    let wakeups = SyncWakeups()
    private var clients: [String: CalDAVClient] = [:]
    /// The account each client was made for: a restore may bring an account of the same name for
    /// another server, user or password file, which must not inherit the client and its credentials.
    private var clientAccounts: [String: SyncAccount] = [:]
    /// The last failure of each account as a template (the store keeps it in English).
    private var failures: [String: TranslatableText] = [:]
    /// Each account's sync in progress and those waiting: each waits for the one before.
    private var tails: [String: Task<Void, Never>] = [:]
    private var outboxObservation: OutboxObservation?
    /// The whole store and the Scheduler's answer path, for doses on the phone (nil: no dose loop).
    let database: AppDatabase?
    let doseAnswers: (any PhoneTaskAnswers)?
    /// What wakes the dose loop: `noticeDoses` (an answer, a miss, an edit) or its own deadline.
    let doseWakeups = SyncWakeups()
    /// A client per account on its dose list, and the account each was made for.
    private var doseClients: [String: (client: CalDAVClient, account: SyncAccount)] = [:]
    /// Where each account's doses stand (in memory: polls, failures, the last run).
    var doseStates: [String: PhoneTaskState] = [:]
    /// While the dose loop waits: the instant it will wake by itself (nil: only a notice wakes it).
    var doseLoopWait: (waiting: Bool, until: Date?) = (false, nil)
    /// Times the dose loop woke (for the tests: a notice was handled).
    var doseLoopWakes = 0

    /// Local changes are pushed once no other change came for this long (an import, several edits).
    static let debounce: Duration = .seconds(2)

    init(
        store: SyncStore, appointments: AppointmentStore, categories: CategoryStore, settings: SettingsBox,
        remindersChanged: @escaping @Sendable () -> Void, logger: Logger,
        clock: @escaping @Sendable () -> Date,
        zone: any ZoneSource, database: AppDatabase? = nil, doseAnswers: (any PhoneTaskAnswers)? = nil
    ) {
        self.database = database
        self.doseAnswers = doseAnswers
        self.store = store
        self.appointments = appointments
        self.categories = categories
        self.settings = settings
        self.remindersChanged = remindersChanged
        self.logger = logger
        self.clock = clock
        self.zone = zone
    }

    // MARK: - Syncing

    /// Syncs `name` (every account when nil) now, whatever the back-off, after any sync under way.
    /// `allowDeletions`: apply deletions `DeletionGuard` would hold back.
    func syncNow(name: String?, allowDeletions: Bool = false) async throws -> [SyncReport] {
        let accounts = try store.accounts()
        if let name, !accounts.contains(where: { $0.name == name }) { throw SyncSetup.unknown(name, accounts) }
        // An account a restore brought stays paused until the user names it: it may point anywhere.
        let names = accounts.filter { account in
            if let name { return account.name == name }
            return account.lastError != SyncAccount.restoredPause(account.name).english
        }.map(\.name)
        return await syncSideBySide(names, allowDeletions: allowDeletions)
    }

    /// Syncs `names` at once, each after its own sync under way; the reports in the order of `names`.
    private func syncSideBySide(_ names: [String], allowDeletions: Bool = false) async -> [SyncReport] {
        await withTaskGroup(of: (Int, SyncReport).self) { group in
            for (index, name) in names.enumerated() {
                group.addTask {
                    (index, await self.serially(name) { await self.sync(name, allowDeletions: allowDeletions) })
                }
            }
            var reports = [SyncReport?](repeating: nil, count: names.count)
            for await (index, report) in group { reports[index] = report }
            return reports.compactMap { $0 }
        }
    }

    func serially<T: Sendable>(_ account: String, _ body: @escaping @Sendable () async -> T) async -> T {
        let previous = tails[account]
        let task = Task { () -> T in
            await previous?.value
            return await body()
        }
        tails[account] = Task { _ = await task.value }
        // The sync runs in a task of its own (the next one waits for it): the daemon stopping cancels
        // the caller, and must reach the sync too.
        return await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }

    private func sync(_ name: String, allowDeletions: Bool = false) async -> SyncReport {
        // Read again: the sync before this one moved the token on.
        guard let account = try? store.account(named: name) else {
            var report = SyncReport(account: name)
            report.errorText = TranslatableText("no sync account named '%s'", [.plain(name)])
            report.error = report.errorText?.english
            return report
        }
        do {
            let first = try store.accounts().first?.name == name
            let config = settings.config
            let tree = try categories.all().map { (name: $0.name, title: $0.title) }
            var engine = SyncEngine(
                store: store, appointments: appointments, server: try client(for: account), account: account,
                takesNewEvents: first,
                zone: zone.current,
                now: clock,
                check: { appointments, names, phones in
                    try AppointmentImportCheck.checked(
                        appointments, contactNames: names, contactPhones: phones, firstIndex: 0,
                        tree: tree, currency: config.currency)
                },
                logger: logger)
            engine.allowDeletions = allowDeletions
            engine.deletionShare = config.syncMaxDeletionShare
            let report = try await SyncTimeLimit.run(seconds: config.syncTimeoutSeconds) { [engine] in
                try await engine.run()
            }
            if report.fetched + report.removed + report.conflicts > 0 { remindersChanged() }
            try store.recordOutcome(account: name, at: clock(), error: nil, nextAttemptAt: nil)
            logger.info(
                "sync \(name): fetched \(report.fetched), pushed \(report.pushed), removed \(report.removed), conflicts \(report.conflicts), \(report.requests) requests"
            )
            return report
        } catch  where Task.isCancelled {
            // The daemon is stopping (the engine or the sync_timeout timer may be the one to say so):
            // not a failure of the server's, so no back-off is recorded.
            remindersChanged()
            logger.notice("sync \(name): stopped before it finished")
            var report = SyncReport(account: name)
            report.errorText = TranslatableText("the sync was stopped before it finished", [])
            report.error = report.errorText?.english
            return report
        } catch {
            // What the pull stored before the failure has reminders to arm too.
            remindersChanged()
            let message = "\(error)"
            failures[name] = SyncErrorText.of(error)
            let wait = SyncDecision.backOff(
                failures: account.failures + 1, cap: TimeInterval(settings.config.syncIntervalSeconds))
            try? store.recordOutcome(
                account: name, at: clock(), error: message, nextAttemptAt: clock().addingTimeInterval(wait))
            logger.warning("sync \(name) failed (next attempt in \(Int(wait)) s): \(message)")
            var report = SyncReport(account: name)
            report.error = message
            report.errorText = failures[name]
            return report
        }
    }

    /// `lastError` of the store as a template, when it is the failure this run recorded.
    func failureText(account: String, lastError: String?) -> TranslatableText? {
        failures[account].flatMap { $0.english == lastError ? $0 : nil }
    }

    /// A client on `account`'s dose list (its tasks lie outside the event calendar the other client keeps to).
    func doseClient(for account: SyncAccount) throws -> CalDAVClient {
        if let (client, made) = doseClients[account.name] {
            if Self.sameServer(made, account), made.dosesListURL == account.dosesListURL { return client }
            doseClients[account.name] = nil
            Task { try? await client.shutdown() }
        }
        guard let list = account.dosesListURL, let url = URL(string: list) else {
            throw CalDAVError.malformed("dose list URL \(account.dosesListURL ?? "")")
        }
        let client = try makeClient(account, on: url)
        doseClients[account.name] = (client, account)
        return client
    }

    func dropDoseClient(_ name: String) async {
        guard let (client, _) = doseClients.removeValue(forKey: name) else { return }
        try? await client.shutdown()
    }

    func client(for account: SyncAccount) throws -> CalDAVClient {
        if let client = clients[account.name] {
            if let made = clientAccounts[account.name], Self.sameServer(made, account) { return client }
            clients[account.name] = nil
            Task { try? await client.shutdown() }
        }
        guard let url = URL(string: account.calendarURL) else {
            throw CalDAVError.malformed("calendar URL \(account.calendarURL)")
        }
        let client = try makeClient(account, on: url)
        clients[account.name] = client
        clientAccounts[account.name] = account
        return client
    }

    /// A client with `account`'s credentials whose requests keep to the collection at `url`.
    private func makeClient(_ account: SyncAccount, on url: URL) throws -> CalDAVClient {
        let credentials: any CalDAVCredentialSource =
            try account.passwordFile.map { try PasswordFileCredentials(user: account.user, passwordFile: $0) }
            ?? SyncSetup.keyring(user: account.user, account: account.name, url: url)
        return try CalDAVClient(
            account: CalDAVAccount(
                url: url, credentials: credentials, allowInsecure: account.insecure,
                requestDeadline: .seconds(settings.config.syncRequestTimeoutSeconds)))
    }

    private static func sameServer(_ one: SyncAccount, _ other: SyncAccount) -> Bool {
        one.url == other.url && one.calendarURL == other.calendarURL && one.user == other.user
            && one.passwordFile == other.passwordFile && one.insecure == other.insecure
    }

    /// Forgets the account's clients and where its doses stood (removed, or its settings changed).
    func dropClient(_ name: String) async {
        doseStates[name] = nil
        await dropDoseClient(name)
        guard let client = clients.removeValue(forKey: name) else { return }
        try? await client.shutdown()
    }

    func shutdown() async {
        outboxObservation?.cancel()
        outboxObservation = nil
        for name in clients.keys { await dropClient(name) }
        for name in doseClients.keys { await dropDoseClient(name) }
    }

    // MARK: - The loop

    /// A local change or a new account: sync soon.
    nonisolated func notice() { wakeups.notify() }

    func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.runDoses() }
            await runAppointments()
            group.cancelAll()
        }
    }

    private func runAppointments() async {
        do {
            let wakeups = self.wakeups
            outboxObservation = try store.observeOutbox { wakeups.notify() }
        } catch {
            logger.error("sync: cannot watch for local changes, they go at the interval: \(error)")
        }
        await adoptConfiguredAccounts()
        while !Task.isCancelled {
            let accounts = (try? store.accounts()) ?? []
            let now = clock()
            let next = accounts.map { due($0) }.min()
            // At least a second apart, even if the store could not record the last outcome.
            let timeout = next.map { Duration.milliseconds(max(1000, Int64($0.timeIntervalSince(now) * 1000))) }
            let changed = await wakeups.wait(timeout: timeout)
            if Task.isCancelled { break }
            if changed {
                // More changes may follow (an import, a burst of edits): go once they pause.
                while await wakeups.wait(timeout: Self.debounce) { if Task.isCancelled { return } }
            }
            let current = clock(), started = Date()
            // A notice with nothing queued (an account added, a reload) only sets the next deadline.
            let queued = changed && !((try? store.outbox().isEmpty) ?? true)
            let names = ((try? store.accounts()) ?? []).filter { account in
                let backingOff = account.nextAttemptAt.map { $0 > current } ?? false
                return due(account) <= current || (queued && !backingOff)
            }.map(\.name)
            _ = await syncSideBySide(names)
            // The syncs' own writes to the outbox are no reason to sync again; a change made meanwhile is.
            wakeups.clear()
            if (try? store.outbox())?.contains(where: { $0.queuedAt > started }) == true { wakeups.notify() }
        }
    }

    /// When `account` should next sync by itself: after a failure its back-off, else the interval.
    private func due(_ account: SyncAccount) -> Date {
        if account.failures > 0, let next = account.nextAttemptAt { return next }
        return (account.lastSyncAt ?? account.createdAt).addingTimeInterval(
            TimeInterval(settings.config.syncIntervalSeconds))
    }

    /// Accounts of `[sync.NAME]` tables not yet stored are set up (discovery) and added.
    func adoptConfiguredAccounts() async {
        for wanted in settings.config.syncAccounts {
            guard (try? store.account(named: wanted.name)) == nil else { continue }
            do {
                _ = try await SyncSetup(
                    store: store, clock: clock,
                    doseListName: DoseTaskPlan.listName(localizer: .forLanguage(settings.config.shownLanguage))
                ).add(wanted.addParams)
                logger.notice("sync: added account \(wanted.name) from the configuration")
            } catch {
                logger.error("sync: account \(wanted.name) of the configuration not added: \(error)")
            }
        }
    }
}
