import BeautyCalDAV
import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation

/// sync.add, sync.list, sync.status, sync.now, sync.rm: the CalDAV accounts and their syncs.
extension RequestHandler {
    static func syncRoutes(_ router: inout RequestRouter) {
        router.register(SyncRPC.add) { requests, p in try await requests.addSyncAccount(p) }
        router.register(SyncRPC.list) { requests, _ in SyncAccountsResult(accounts: try requests.syncAccounts(nil)) }
        router.register(SyncRPC.status) { requests, p in SyncAccountsResult(accounts: try requests.syncAccounts(p.name)) }
        router.register(SyncRPC.now) { requests, p in SyncNowResult(accounts: try await requests.sync.syncNow(name: p.name)) }
        router.register(SyncRPC.remove) { requests, p in try await requests.removeSyncAccount(p.name) }
    }

    private func addSyncAccount(_ p: SyncAddParams) async throws -> SyncAccountInfo {
        let account: SyncAccount
        do {
            account = try await SyncSetup(store: store, clock: clock).add(p)
        } catch let error as CalDAVError {
            throw Self.refusal(error)
        }
        logger.notice("sync: added account \(account.name), calendar \(account.calendarURL)")
        sync.notice()
        return try info(account)
    }

    /// The file, or else what the URL led to (refused, unreachable, not a calendar), with a template a
    /// client translates; the same English as the error's description. A server's or the system's own
    /// words (`reason`, `detail`) stay as they came.
    static func refusal(_ error: CalDAVError) -> ValidationError {
        switch error {
        case let .passwordFileNotPrivate(path):
            ValidationError(field: "passwordFile", template: "the password file %s must belong to you and be readable by you alone (chmod 600 %s)", path, path)
        case let .insecureURL(url):
            ValidationError(field: "url", template: "refusing plain HTTP to %s: use https://, or allow it explicitly (--insecure) if you trust the network", url)
        case .unauthorized:
            ValidationError(field: "url", template: "the CalDAV server refused the user name or password (401 Unauthorized)")
        case let .notFound(what):
            ValidationError(field: "url", template: "not found on the CalDAV server: %s", what)
        case let .preconditionFailed(href):
            ValidationError(field: "url", template: "%s changed on the server since it was last read (412 Precondition Failed)", href)
        case .syncTokenInvalid:
            ValidationError(field: "url", template: "the CalDAV server no longer knows the sync token; a full listing is needed")
        case let .server(status, detail) where detail.isEmpty:
            ValidationError(field: "url", template: "the CalDAV server answered %s", status)
        case let .server(status, detail):
            ValidationError(field: "url", template: "the CalDAV server answered %s: %s", status, detail)
        case let .unreachable(reason):
            ValidationError(field: "url", template: "the CalDAV server cannot be reached: %s", reason)
        case let .malformed(reason):
            ValidationError(field: "url", template: "unexpected CalDAV answer: %s", reason)
        }
    }

    private func syncAccounts(_ name: String?) throws -> [SyncAccountInfo] {
        let accounts = try store.syncAccounts()
        if let name, !accounts.contains(where: { $0.name == name }) { throw SyncSetup.unknown(name, accounts) }
        return try accounts.filter { name == nil || $0.name == name }.map(info)
    }

    private func removeSyncAccount(_ name: String) async throws -> SyncRemoveResult {
        guard try store.removeSyncAccount(named: name) else { throw SyncSetup.unknown(name, try store.syncAccounts()) }
        await sync.dropClient(name)
        logger.notice("sync: removed account \(name); its appointments stay")
        return SyncRemoveResult(name: name)
    }

    private func info(_ account: SyncAccount) throws -> SyncAccountInfo {
        let conflicts = try store.syncConflicts(account: account.name).map {
            SyncConflictInfo(id: $0.id ?? 0, uid: $0.uid, title: $0.title, reason: $0.reason, detectedAt: $0.detectedAt, ics: $0.ics)
        }
        return SyncAccountInfo(
            name: account.name, url: account.url, user: account.user, passwordFile: account.passwordFile,
            calendarURL: account.calendarURL, calendarName: account.calendarName, insecure: account.insecure,
            incremental: account.supportsSyncCollection, lastSyncAt: account.lastSyncAt, lastError: account.lastError,
            nextAttemptAt: account.failures > 0 ? account.nextAttemptAt : nil, pending: try store.outbox().count, conflicts: conflicts)
    }
}
