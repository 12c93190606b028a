import BeautyCalDAV
import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// sync.add, sync.list, sync.status, sync.now, sync.rm, sync.trash, sync.restoreDeleted, sync.doses: the
/// CalDAV accounts, their syncs, the appointments pulls removed and the doses sent as tasks.
struct SyncController: RequestController {
    let store: SyncStore
    /// The tree a restored appointment's category is checked against, as an import's is.
    let categories: CategoryStore
    let sync: SyncCoordinator
    let settings: SettingsBox
    /// Called when a restore brought appointments back, so their reminders are armed at once.
    let remindersChanged: @Sendable () -> Void
    let logger: Logger
    let clock: @Sendable () -> Date
    /// The user's zone: a restored event's floating times are read in it.
    let zone: any ZoneSource

    func addRoutes(to router: inout RequestRouter) {
        router.register(SyncRPC.add) { p in try await add(p) }
        router.register(SyncRPC.list) { (_: NoParams) in SyncAccountsResult(accounts: try await accounts(nil)) }
        router.register(SyncRPC.status) { p in SyncAccountsResult(accounts: try await accounts(p.name)) }
        router.register(SyncRPC.now) { p in try await now(p) }
        router.register(SyncRPC.remove) { p in try await remove(p.name) }
        router.register(SyncRPC.trash) { p in try trash(p.name) }
        router.register(SyncRPC.restoreDeleted) { p in try restoreDeleted(p.id) }
        router.register(SyncRPC.doses) { p in try await doses(p) }
    }

    /// Syncs the appointments, then the dose list of each account whose doses are on.
    func now(_ p: SyncNowParams) async throws -> SyncNowResult {
        let allowDeletions = p.allowDeletions ?? false
        var reports = try await sync.syncNow(name: p.name, allowDeletions: allowDeletions)
        for index in reports.indices {
            let name = reports[index].account
            guard let account = try store.account(named: name), account.dosesEnabled else { continue }
            if let run = await sync.syncDosesNow(name: name, allowDeletions: allowDeletions) {
                reports[index].doses = Self.wire(run)
            } else {
                var failed = SyncDosesReport()
                let status = await sync.dosesStatus(account: name)
                failed.error = status?.lastError
                failed.errorText = status?.lastErrorText
                reports[index].doses = failed
            }
        }
        return SyncNowResult(accounts: reports)
    }

    static func wire(_ run: PhoneTaskReport) -> SyncDosesReport {
        var report = SyncDosesReport()
        report.requests = run.requests
        report.polled = run.polled
        report.read = run.read
        report.created = run.created
        report.written = run.written
        report.deleted = run.deleted
        report.putBack = run.putBack
        report.phoneAnswers = run.answersApplied
        report.reports = run.reports
        report.paused = run.paused
        return report
    }

    static func wire(_ row: DoseTaskReportRow, zone: TimeZone) -> SyncDoseReportInfo {
        let kind: SyncDoseReportKind =
            switch row.kind {
            case .phoneOverruled: .phoneOverruled
            case .desktopOverruled: .desktopOverruled
            case .phoneReopened: .phoneReopened
            case .putBack: .putBack
            }
        let answer: SyncDoseAnswer? = row.answer.map {
            switch $0 {
            case .taken: .taken
            case .skipped: .skipped
            case .missed: .missed
            }
        }
        return SyncDoseReportInfo(
            kind: kind, uid: row.uid, medicationID: row.medicationID, medication: row.medicationName,
            scheduledAt: row.scheduledAt, answer: answer, answeredAt: row.answeredAt, detectedAt: row.detectedAt,
            text: row.text(zone: zone))
    }

    /// The account's setup as `sync add` would make it now, in the daemon's language.
    private var setup: SyncSetup {
        SyncSetup(
            store: store, clock: clock,
            doseListName: DoseTaskPlan.listName(localizer: .forLanguage(settings.config.shownLanguage)))
    }

    func trash(_ name: String?) throws -> SyncTrashResult {
        if let name, try store.account(named: name) == nil, try store.trash(account: name, now: clock()).isEmpty {
            throw SyncSetup.unknown(name, try store.accounts())
        }
        return SyncTrashResult(
            entries: try store.trash(account: name, now: clock()).map {
                SyncTrashInfo(
                    id: $0.id ?? 0, account: $0.account, uid: $0.uid, title: $0.title, start: $0.start,
                    removedAt: $0.removedAt, ics: $0.ics)
            })
    }

    /// Imports the kept text as a local change: the outbox takes it, so the next sync sends it back to the server.
    func restoreDeleted(_ id: Int64) throws -> SyncRestoreDeletedResult {
        let notInTrash = ValidationError(
            field: "id", template: "no removed appointment with id %s (see: beautyctl sync trash)", id)
        guard let entry = try store.trashEntry(id: id) else { throw notInTrash }
        let events = try ICalendar.parse(entry.ics, defaultZone: zone.current)
        let imported = CalendarEvent.importing(events, zone: zone.current)
        let checked = try AppointmentImportCheck.checked(
            imported.appointments, contactNames: imported.contactNames,
            contactPhones: imported.events.map { events[$0].contactPhone }, firstIndex: 0,
            tree: try categories.all().map { (name: $0.name, title: $0.title) },
            currency: settings.config.currency)
        // Back into the account whose server deleted it (the next sync sends it there), or, that account
        // gone, among the appointments no account has yet.
        let home = try store.account(named: entry.account) == nil ? nil : entry.account
        guard
            try store.restoreFromTrash(
                id: id, checked.appointments, contacts: checked.contacts, scope: .account(home), now: clock(),
                zone: zone.current) != nil
        else {
            throw notInTrash
        }
        logger.notice("sync: restored \(entry.uid) removed by a pull of \(entry.account)")
        remindersChanged()
        return SyncRestoreDeletedResult(restored: checked.appointments.count, uid: entry.uid, title: entry.title)
    }

    func add(_ p: SyncAddParams) async throws -> SyncAccountInfo {
        let account: SyncAccount
        do {
            account = try await setup.add(p)
        } catch let error as CalDAVError {
            throw Self.refusal(error, user: p.user, passwordFile: p.passwordFile)
        }
        logger.notice("sync: added account \(account.name), calendar \(account.calendarURL)")
        if let list = account.dosesListURL {
            logger.notice("sync: doses of \(account.name) go to \(list)")
            sync.noticeDoses()
        }
        sync.notice()
        return try await info(account, failure: nil)
    }

    /// A CalDAV failure while setting an account up, as the field to blame: the password file, the
    /// login refused, or else what the URL led to (unreachable, not a calendar).
    private static func refusal(_ error: CalDAVError, user: String, passwordFile: String?) -> ValidationError {
        switch error {
        case .passwordFileNotPrivate, .passwordFileTooLarge, .passwordFileUnreadable, .passwordFileEmpty:
            return ValidationError(field: "passwordFile", SyncErrorText.of(error))
        case .unauthorized:
            guard let file = passwordFile else {
                return ValidationError(
                    field: "keyring",
                    template:
                        "the CalDAV server refused the user name '%s' or the password in the keyring (401 Unauthorized)",
                    user)
            }
            return ValidationError(
                field: "passwordFile",
                template: "the CalDAV server refused the user name '%s' or the password in %s (401 Unauthorized)",
                user, file)
        default:
            return ValidationError(field: "url", SyncErrorText.of(error))
        }
    }

    /// Doses on or off for an account, named or private. `on` makes (or takes) a list when the account
    /// has none, names one, or its dose sync paused on losing its list; otherwise it keeps the list.
    func doses(_ p: SyncDosesParams) async throws -> SyncAccountInfo {
        guard let account = try store.account(named: p.name) else {
            throw SyncSetup.unknown(p.name, try store.accounts())
        }
        var list = account.dosesListURL.map { (url: $0, name: account.dosesListName) }
        var enabled = account.dosesEnabled, hidden = account.dosesPrivate
        switch p.mode {
        case .on:
            enabled = true
            if list == nil || p.list != nil || account.dosesPaused {
                let made: CalDAVCalendar
                do {
                    made = try await setup.doseList(
                        for: account, client: try await sync.client(for: account), wanted: p.list)
                } catch let error as CalDAVError {
                    throw Self.refusal(error, user: account.user, passwordFile: account.passwordFile)
                }
                list = (made.url.absoluteString, made.displayName)
            }
        case .off: enabled = false
        case .private: hidden = true
        case .named: hidden = false
        }
        try store.setDoses(
            account: account.name, enabled: enabled, listURL: list?.url, listName: list?.name, private: hidden)
        logger.notice(
            "sync: doses of \(account.name) \(p.mode.rawValue)\(enabled ? " to \(list?.url ?? "")" : "")")
        sync.noticeDoses()
        guard let changed = try store.account(named: account.name) else {
            throw SyncSetup.unknown(p.name, try store.accounts())
        }
        return try await info(
            changed, failure: await sync.failureText(account: changed.name, lastError: changed.lastError))
    }

    func accounts(_ name: String?) async throws -> [SyncAccountInfo] {
        let accounts = try store.accounts()
        if let name, !accounts.contains(where: { $0.name == name }) { throw SyncSetup.unknown(name, accounts) }
        var infos: [SyncAccountInfo] = []
        for account in accounts where name == nil || account.name == name {
            infos.append(
                try await info(
                    account, failure: await sync.failureText(account: account.name, lastError: account.lastError)))
        }
        return infos
    }

    func remove(_ name: String) async throws -> SyncRemoveResult {
        guard try store.removeAccount(named: name) else { throw SyncSetup.unknown(name, try store.accounts()) }
        await sync.dropClient(name)
        logger.notice("sync: removed account \(name); its appointments stay")
        return SyncRemoveResult(name: name)
    }

    /// `failure`: the account's last error as a template, when known.
    private func info(_ account: SyncAccount, failure: TranslatableText?) async throws -> SyncAccountInfo {
        let conflicts = try store.conflicts(account: account.name).map {
            SyncConflictInfo(
                id: $0.id ?? 0, uid: $0.uid, title: $0.title, reason: $0.reason, detectedAt: $0.detectedAt, ics: $0.ics)
        }
        var info = SyncAccountInfo(
            name: account.name, url: account.url, user: account.user, passwordFile: account.passwordFile,
            calendarURL: account.calendarURL, calendarName: account.calendarName, insecure: account.insecure,
            incremental: account.supportsSyncCollection, lastSyncAt: account.lastSyncAt, lastError: account.lastError,
            nextAttemptAt: account.failures > 0 ? account.nextAttemptAt : nil, pending: try store.outbox().count,
            conflicts: conflicts)
        let paused = SyncAccount.restoredPause(account.name)
        info.lastErrorText = failure ?? (account.lastError == paused.english ? paused : nil)
        info.warnings = account.warnings
        if account.dosesEnabled, let list = account.dosesListURL {
            var doses = SyncDosesInfo(
                listURL: list, listName: account.dosesListName, private: account.dosesPrivate,
                paused: account.dosesPaused)
            if let status = await sync.dosesStatus(account: account.name) {
                doses.openDoses = status.openDoses
                doses.lastPollAt = status.lastPollAt
                doses.nextRunAt = status.nextRunAt
                doses.lastError = status.lastError
                doses.lastErrorText = status.lastErrorText
                doses.lastRun = status.lastReport.map(Self.wire)
                doses.reports = status.reports.map { Self.wire($0, zone: zone.current) }
            }
            info.doses = doses
        }
        return info
    }
}
