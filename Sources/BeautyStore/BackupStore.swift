import BeautyCore
import Foundation
import GRDB
#if canImport(Glibc)
    import Glibc
#endif

/// What a restore did.
public struct RestoreOutcome: Sendable, Equatable {
    /// Where the database as it was before the restore is kept.
    public var kept: String
    /// The last schema step of the restored file before it was brought up to date.
    public var restoredSchema: String
    /// Deliveries already shown (or settled) before the restore that the restored file did not have
    /// as shown: recorded again, so none is shown a second time.
    public var deliveriesKept: Int
    /// The sync accounts the restored file brought: paused until the user syncs each one by name.
    public var syncAccounts: [SyncAccount]
    /// Schema objects of the file that are not beautyd's own, left out (say "trigger evil").
    public var leftOut: [String]
}

/// A file beautyd will not back up to or restore from, and why: the error the user is shown about the
/// path (a template, so a client shows it in its user's language).
public struct RestoreRefusal: Error, CustomStringConvertible {
    public var error: ValidationError

    init(_ error: ValidationError) { self.error = error }

    public var description: String { error.message }
}

/// Backups of the whole database while it is in use (SQLite's online backup), and restoring one.
/// Restore lives here with backup rather than on AppDatabase: it needs only the writer and the file's
/// path, and it keeps the database it replaces with backup's own copy.
public struct BackupStore: Sendable {
    let writer: PrioritizedWriter
    /// The live database file: a restore works beside it.
    let path: String

    /// Writes a consistent copy of the whole database to `path`, readable by its owner only, and
    /// answers its size. The copy is made beside it and renamed into place, so `path` is never half written.
    public func copy(to path: String) throws -> Int64 {
        _ = try writeBackup(to: path, replacing: true)
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// The copy is one self-contained file (rollback journal): a WAL-mode copy would take whatever
    /// `-wal` lies beside it when opened, one planted by another user too. Without `replacing`, an
    /// existing file is never overwritten: the copy takes the first free name of `path`, `path-2`, …,
    /// linked into place (link fails on an existing name, as O_EXCL does), and that name is answered.
    private func writeBackup(to path: String, replacing: Bool) throws -> String {
        let partial = path + ".part-\(getpid())"
        try Self.createPrivateFile(partial)
        defer { unlink(partial) }
        let destination = try DatabaseQueue(path: partial)
        do {
            // A read: the pool gives it a snapshot, so writes go on meanwhile and the copy is consistent.
            try writer.database.backup(to: destination)
            try destination.writeWithoutTransaction { db in
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
            }
            try destination.close()
        } catch {
            try? destination.close()
            throw error
        }
        if replacing {
            guard rename(partial, path) == 0 else { throw Self.cannotWrite(path, errno) }
            return path
        }
        for attempt in 1... {
            let name = attempt == 1 ? path : "\(path)-\(attempt)"
            if link(partial, name) == 0 { return name }
            guard errno == EEXIST else { throw Self.cannotWrite(name, errno) }
        }
        fatalError("unreachable")
    }

    private static func cannotWrite(_ path: String, _ code: Int32) -> RestoreRefusal {
        RestoreRefusal(
            ValidationError(
                field: "path",
                TranslatableText("cannot write %s: %s", [.plain(path), .message(SystemErrorText.text(code))])))
    }

    /// Replaces the whole database with the backup at `path`, in place (connections stay open).
    ///
    /// The file is read through a private copy (see `BackupSource`); it must pass `PRAGMA
    /// integrity_check` and `foreign_key_check` and have no schema step this beautyd does not know;
    /// an older one is brought up to date. Schema objects that are not beautyd's own are left out
    /// (see `RestoredSchema`) and its sync accounts paused. The database as it was is kept at `kept`
    /// first, or the first free name after it. Deliveries
    /// that were shown or settled before the restore stay so in the restored ledger (a reminder is
    /// never shown twice, also one planned again from a restored series). Nothing else writes between
    /// reading those deliveries and swapping the content in.
    public func restore(from path: String, keepingOldAt kept: String) throws -> RestoreOutcome {
        // Everything is read from a private copy in the database's own directory, brought up to date
        // there, so the live database changes only in the swap.
        let scratch = self.path + ".restore-\(getpid())"
        try Self.createPrivateFile(scratch)
        defer { for file in DatabaseOpening.files(of: scratch) + [scratch + "-journal"] { unlink(file) } }
        try BackupSource.copy(path, to: scratch)
        let work: DatabaseQueue
        do {
            work = try DatabaseQueue(path: scratch)
            try work.writeWithoutTransaction { db in _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE") }
        } catch {
            throw RestoreRefusal(
                ValidationError(
                    field: "path", template: "%s cannot be opened as a database (%s)", path,
                    DatabaseFault.summary(of: error)))
        }
        defer { try? work.close() }
        let (verdict, applied) = try Self.inspect(work, path: path)
        guard verdict == "ok" else {
            throw RestoreRefusal(
                ValidationError(
                    field: "path", template: "%s is damaged (integrity_check: %s); nothing was restored",
                    path, verdict.replacingOccurrences(of: "\n", with: " ")))
        }
        let unknown = applied.filter { !AppDatabase.migrator.migrations.contains($0) }
        guard unknown.isEmpty else {
            throw RestoreRefusal(
                ValidationError(
                    field: "path",
                    template:
                        "%s was written by a newer beautyd (schema %s); this one knows up to \"%s\": nothing was restored",
                    path, unknown.map { "\"\($0.prefix { $0 != ":" })\"" }.joined(separator: ", "),
                    (AppDatabase.migrator.migrations.last ?? "").prefix { $0 != ":" }))
        }
        // The steps a file says it took must be beautyd's own first ones, in order: the reference schema
        // is migrated up to the last of them (and GRDB stops the process on a step it does not know).
        guard !applied.isEmpty, Array(AppDatabase.migrator.migrations.prefix(applied.count)) == applied else {
            throw RestoreRefusal(
                ValidationError(
                    field: "path",
                    template: "%s does not list beautyd's schema steps in order (%s): nothing was restored",
                    path, applied.map { String($0.prefix { $0 != ":" }) }.joined(separator: ", ")))
        }
        let leftOut = try RestoredSchema.keepOwnObjects(
            work, path: path, migratedUpTo: applied.last ?? "", migrator: AppDatabase.migrator)
        try AppDatabase.migrator.migrate(work)
        let accounts = try work.write { db -> [SyncAccount] in
            try SyncSchema.matchTriggersToAccounts(db)
            return try Self.pauseRestoredAccounts(db)
        }
        try Self.matchPageSize(
            of: work, to: try writer.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096 })

        let carried = try writer.exclusive { database -> (String, Int) in
            // Kept under the gate, so no write lands between the copy that is kept and the swap.
            let keptAt = try writeBackup(to: kept, replacing: false)
            let settled = try database.read { db in
                try Row.fetchAll(
                    db,
                    sql: "SELECT \(Self.deliveryColumns.joined(separator: ", ")) FROM delivery WHERE state <> 'pending'"
                )
            }
            let carried = try work.write { db -> Int in
                var count = 0
                for row in settled {
                    try db.execute(
                        sql: """
                            INSERT INTO delivery(\(Self.deliveryColumns.joined(separator: ", ")))
                            VALUES (\(Array(repeating: "?", count: Self.deliveryColumns.count).joined(separator: ", ")))
                            ON CONFLICT(key) DO UPDATE SET state = excluded.state, firedAt = excluded.firedAt,
                                settledAt = excluded.settledAt, attempts = excluded.attempts, lastError = excluded.lastError
                            WHERE delivery.state = 'pending'
                            """, arguments: StatementArguments(Self.deliveryColumns.map { row[$0] as DatabaseValue }))
                    count += db.changesCount
                }
                return count
            }
            try work.backup(to: database)
            return (keptAt, carried)
        }
        return RestoreOutcome(
            kept: carried.0, restoredSchema: applied.last ?? "", deliveriesKept: carried.1,
            syncAccounts: accounts, leftOut: leftOut)
    }

    /// An account the file brings may name any server and any password file (a crafted or old file):
    /// none syncs by itself until the user runs `sync now` for it by name.
    private static func pauseRestoredAccounts(_ db: Database) throws -> [SyncAccount] {
        var accounts = try SyncAccount.order(Column("createdAt"), Column("name")).fetchAll(db)
        for index in accounts.indices {
            accounts[index].failures = max(1, accounts[index].failures)
            accounts[index].nextAttemptAt = .distantFuture
            accounts[index].lastError = SyncAccount.restoredPause(accounts[index].name).english
            try accounts[index].update(db)
        }
        return accounts
    }

    /// The online backup cannot copy into a WAL database of another page size (SQLITE_READONLY):
    /// the copy, in rollback mode, is rebuilt with the live database's page size first.
    private static func matchPageSize(of work: DatabaseQueue, to pageSize: Int) throws {
        try work.writeWithoutTransaction { db in
            guard try Int.fetchOne(db, sql: "PRAGMA page_size") != pageSize else { return }
            try db.execute(sql: "PRAGMA page_size = \(pageSize)")
            try db.execute(sql: "VACUUM")
        }
    }

    static let deliveryColumns = [
        "key", "itemKind", "itemID", "occurrence", "fireAt", "state", "source", "firedAt",
        "settledAt", "attempts", "lastError",
    ]

    /// integrity_check's verdict and the schema steps applied, oldest first; a file that is no beautyd
    /// database (no migrations recorded) is refused.
    private static func inspect(_ source: DatabaseQueue, path: String) throws -> (verdict: String, applied: [String]) {
        do {
            return try source.read { db in
                let verdict = try String.fetchOne(db, sql: "PRAGMA integrity_check(1)") ?? "no answer"
                guard try db.tableExists("grdb_migrations"), try db.tableExists("delivery") else {
                    throw RestoreRefusal(
                        ValidationError(
                            field: "path",
                            template: "%s is not a beautyd database (no schema steps recorded): nothing was restored",
                            path))
                }
                let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
                let orphans = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").prefix(3)
                    .map { row -> String in
                        "\(row[0] as String? ?? "?") row \(row[1] as Int64? ?? 0) → \(row[2] as String? ?? "?")"
                    }
                guard orphans.isEmpty else {
                    throw RestoreRefusal(
                        ValidationError(
                            field: "path", template: "%s has rows that point at nothing (%s): nothing was restored",
                            path, orphans.joined(separator: "; ")))
                }
                return (verdict, applied)
            }
        } catch let refusal as RestoreRefusal {
            throw refusal
        } catch {
            throw RestoreRefusal(
                ValidationError(
                    field: "path", template: "%s cannot be read as a database (%s): nothing was restored",
                    path, DatabaseFault.summary(of: error)))
        }
    }

    /// Creates an empty file only its owner may read (SQLite keeps the mode of a file it opens), never
    /// following a symlink; an old one of the same name is replaced.
    static func createPrivateFile(_ path: String) throws {
        unlink(path)
        let fd = Glibc.open(path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw RestoreRefusal(
                ValidationError(
                    field: "path",
                    TranslatableText("cannot create %s: %s", [.plain(path), .message(SystemErrorText.text(errno))])))
        }
        Glibc.close(fd)
    }
}
