import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// backup / restore: a consistent copy of the whole database while beautyd runs, and putting one back.
struct BackupController: RequestController {
    /// The whole database: its backups, its schema steps and its file's path.
    let database: AppDatabase
    /// Woken after a restore.
    let scheduler: Scheduler
    let logger: Logger
    let clock: @Sendable () -> Date
    /// The user's zone: the day in the name of the database a restore replaces.
    let zone: any ZoneSource

    func addRoutes(to router: inout RequestRouter) {
        router.register(BackupRPC.backup, backup)
        router.register(BackupRPC.restore, restore)
    }

    func backup(_ p: BackupParams) throws -> BackupResult {
        let path = try backupPath(p.path)
        do {
            let bytes = try database.backup.copy(to: path)
            logger.notice("database backed up to \(path) (\(bytes) bytes)")
            return BackupResult(path: path, bytes: bytes, schema: try database.appliedMigrations().last ?? "")
        } catch let refusal as RestoreRefusal {
            throw refusal.error
        }
    }

    func restore(_ p: BackupParams) throws -> RestoreResult {
        let path = try backupPath(p.path)
        guard FileManager.default.fileExists(atPath: path) else {
            throw ValidationError(field: "path", template: "there is no file %s", path)
        }
        let stamp = Timestamps(zone: zone.current).isoDay(clock())
        let kept = "\(database.path).before-restore-\(stamp)-\(Int(clock().timeIntervalSince1970))"
        do {
            let outcome = try database.backup.restore(from: path, keepingOldAt: kept)
            logger.notice(
                "database restored from \(path); the one it replaced is kept as \(kept); \(outcome.deliveriesKept) reminder(s) already shown stay shown"
            )
            // Everything may differ now: the pass plans doses, series, water and the tip again from the restored rows.
            scheduler.wake(.edited)
            // Names and URLs come from the file: the log handler escapes every record once (`Validation.escapedForLog`),
            // so a crafted one can neither write to the terminal nor forge a line, and still reads as it is.
            if !outcome.leftOut.isEmpty {
                logger.warning(
                    "restore from \(path): left out what is not beautyd's own: \(outcome.leftOut.joined(separator: ", "))"
                )
            }
            for account in outcome.syncAccounts {
                logger.notice(
                    "restore from \(path): sync account \(account.name) (\(account.calendarURL), user \(account.user)) paused until 'sync now \(account.name)'"
                )
            }
            var result = RestoreResult(
                path: path, kept: outcome.kept, restoredSchema: outcome.restoredSchema,
                deliveriesKept: outcome.deliveriesKept)
            result.syncAccounts = outcome.syncAccounts.map {
                RestoredSyncAccount(
                    name: $0.name, calendarURL: $0.calendarURL, user: $0.user, passwordFile: $0.passwordFile)
            }
            result.leftOut = outcome.leftOut
            return result
        } catch let refusal as RestoreRefusal {
            throw refusal.error
        }
    }

    /// An absolute path that is not the live database or one of its side files (compared by device and
    /// inode, whatever the spelling), and, if it exists, a regular file of the user's and not a symlink: a link
    /// planted by another user in a shared directory must not make beautyd overwrite or read its target.
    private func backupPath(_ raw: String) throws -> String {
        guard raw.hasPrefix("/") else { throw ValidationError(field: "path", template: "must be an absolute path") }
        let path = URL(fileURLWithPath: raw).standardized.path
        var info = stat()
        guard lstat(path, &info) == 0 else { return path }
        if info.st_mode & S_IFMT == S_IFLNK {
            throw ValidationError(field: "path", template: "%s is a symbolic link; give the file itself", path)
        }
        if info.st_uid != geteuid() {
            throw ValidationError(field: "path", template: "%s belongs to uid %s, not to you", path, info.st_uid)
        }
        // A FIFO would block the reading thread; a device (/dev/full, as root) would be replaced by a regular file.
        if info.st_mode & S_IFMT != S_IFREG {
            throw ValidationError(field: "path", template: "%s is not a regular file", path)
        }
        for file in DatabaseOpening.files(of: database.path) {
            var live = stat()
            if stat(file, &live) == 0, live.st_dev == info.st_dev, live.st_ino == info.st_ino {
                throw ValidationError(field: "path", template: "%s is the database beautyd uses", path)
            }
        }
        return path
    }
}
