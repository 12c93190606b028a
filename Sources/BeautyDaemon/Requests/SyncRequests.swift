import BeautyCalDAV
import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation

/// sync.add, sync.list, sync.status, sync.now, sync.rm: the CalDAV accounts and their syncs.
extension RequestHandler {
    static func syncRoutes(_ router: inout RequestRouter) {
        router.register(SyncRPC.add) { requests, p in try await requests.addSyncAccount(p) }
        router.register(SyncRPC.list) { requests, _ in SyncAccountsResult(accounts: try await requests.syncAccounts(nil)) }
        router.register(SyncRPC.status) { requests, p in SyncAccountsResult(accounts: try await requests.syncAccounts(p.name)) }
        router.register(SyncRPC.now) { requests, p in SyncNowResult(accounts: try await requests.sync.syncNow(name: p.name)) }
        router.register(SyncRPC.remove) { requests, p in try await requests.removeSyncAccount(p.name) }
    }

    private func addSyncAccount(_ p: SyncAddParams) async throws -> SyncAccountInfo {
        let account: SyncAccount
        do {
            account = try await SyncSetup(store: store, clock: clock).add(p)
        } catch let error as CalDAVError {
            // The file, the login refused, or else what the URL led to (unreachable, not a calendar).
            if case .passwordFileNotPrivate = error { throw ValidationError(field: "passwordFile", SyncErrorText.of(error)) }
            if case .unauthorized = error {
                guard let file = p.passwordFile else {
                    throw ValidationError(field: "keyring", template: "the CalDAV server refused the user name '%s' or the password in the keyring (401 Unauthorized)", p.user)
                }
                throw ValidationError(field: "passwordFile", template: "the CalDAV server refused the user name '%s' or the password in %s (401 Unauthorized)", p.user, file)
            }
            throw ValidationError(field: "url", SyncErrorText.of(error))
        }
        logger.notice("sync: added account \(account.name), calendar \(account.calendarURL)")
        sync.notice()
        return try info(account, failure: nil)
    }

    private func syncAccounts(_ name: String?) async throws -> [SyncAccountInfo] {
        let accounts = try store.syncAccounts()
        if let name, !accounts.contains(where: { $0.name == name }) { throw SyncSetup.unknown(name, accounts) }
        var infos: [SyncAccountInfo] = []
        for account in accounts where name == nil || account.name == name {
            infos.append(try info(account, failure: await sync.failureText(account: account.name, lastError: account.lastError)))
        }
        return infos
    }

    private func removeSyncAccount(_ name: String) async throws -> SyncRemoveResult {
        guard try store.removeSyncAccount(named: name) else { throw SyncSetup.unknown(name, try store.syncAccounts()) }
        await sync.dropClient(name)
        logger.notice("sync: removed account \(name); its appointments stay")
        return SyncRemoveResult(name: name)
    }

    /// `failure`: the account's last error as a template, when known.
    private func info(_ account: SyncAccount, failure: TranslatableText?) throws -> SyncAccountInfo {
        let conflicts = try store.syncConflicts(account: account.name).map {
            SyncConflictInfo(id: $0.id ?? 0, uid: $0.uid, title: $0.title, reason: $0.reason, detectedAt: $0.detectedAt, ics: $0.ics)
        }
        var info = SyncAccountInfo(
            name: account.name, url: account.url, user: account.user, passwordFile: account.passwordFile,
            calendarURL: account.calendarURL, calendarName: account.calendarName, insecure: account.insecure,
            incremental: account.supportsSyncCollection, lastSyncAt: account.lastSyncAt, lastError: account.lastError,
            nextAttemptAt: account.failures > 0 ? account.nextAttemptAt : nil, pending: try store.outbox().count, conflicts: conflicts)
        info.lastErrorText = failure
        return info
    }
}
