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
}

/// A file beautyd will not back up to or restore from, and why: the error the user is shown about the
/// path (a template, so a client shows it in its user's language).
public struct RestoreRefusal: Error, CustomStringConvertible {
    public var error: ValidationError

    init(_ error: ValidationError) { self.error = error }

    public var description: String { error.message }
}

/// Backups of the whole database while it is in use (SQLite's online backup), and restoring one.
extension AppDatabase {
    /// Writes a consistent copy of the whole database to `path`, readable by its owner only, and
    /// answers its size. The copy is made beside it and renamed into place, so `path` is never half written.
    public func backup(to path: String) throws -> Int64 {
        let partial = path + ".part-\(getpid())"
        try Self.createPrivateFile(partial)
        do {
            let destination = try DatabaseQueue(path: partial)
            // A read: the pool gives it a snapshot, so writes go on meanwhile and the copy is consistent.
            try writer.database.backup(to: destination)
            try destination.close()
            guard rename(partial, path) == 0 else { throw RestoreRefusal(ValidationError(field: "path", TranslatableText("cannot write %s: %s", [.plain(path), .message(SystemErrorText.text(errno))]))) }
        } catch {
            unlink(partial)
            throw error
        }
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// Replaces the whole database with the backup at `path`, in place (connections stay open).
    ///
    /// The file must pass `PRAGMA quick_check` and have no schema step this beautyd does not know;
    /// an older one is brought up to date. The database as it was is kept at `kept` first. Deliveries
    /// that were shown or settled before the restore stay so in the restored ledger (a reminder is
    /// never shown twice, also one planned again from a restored series). Nothing else writes between
    /// reading those deliveries and swapping the content in.
    public func restore(from path: String, keepingOldAt kept: String) throws -> RestoreOutcome {
        var readOnly = Configuration()
        readOnly.readonly = true
        let source: DatabaseQueue
        do {
            source = try DatabaseQueue(path: path, configuration: readOnly)
        } catch {
            throw RestoreRefusal(ValidationError(field: "path", template: "%s cannot be opened as a database (%s)", path, DatabaseFault.summary(of: error)))
        }
        let (verdict, applied) = try Self.inspect(source, path: path)
        guard verdict == "ok" else {
            throw RestoreRefusal(ValidationError(field: "path", template: "%s is damaged (quick_check: %s); nothing was restored",
                                                  path, verdict.replacingOccurrences(of: "\n", with: " ")))
        }
        let unknown = applied.filter { !Self.migrator.migrations.contains($0) }
        guard unknown.isEmpty else {
            throw RestoreRefusal(ValidationError(field: "path", template: "%s was written by a newer beautyd (schema %s); this one knows up to \"%s\": nothing was restored",
                                                  path, unknown.map { "\"\($0.prefix { $0 != ":" })\"" }.joined(separator: ", "),
                                                  (Self.migrator.migrations.last ?? "").prefix { $0 != ":" }))
        }
        // Brought up to date in a private scratch copy, so the live database changes only in the swap.
        let scratch = self.path + ".restore-\(getpid())"
        try Self.createPrivateFile(scratch)
        defer { for file in DatabaseOpening.files(of: scratch) { unlink(file) } }
        let work = try DatabaseQueue(path: scratch)
        try source.backup(to: work)
        try source.close()
        try Self.migrator.migrate(work)
        try work.write { db in try SyncSchema.matchTriggersToAccounts(db) }

        let carried = try writer.exclusive { database -> Int in
            // Kept under the gate, so no write lands between the copy that is kept and the swap.
            _ = try backup(to: kept)
            let settled = try database.read { db in
                try Row.fetchAll(db, sql: "SELECT \(Self.deliveryColumns.joined(separator: ", ")) FROM delivery WHERE state <> 'pending'")
            }
            let carried = try work.write { db -> Int in
                var count = 0
                for row in settled {
                    try db.execute(sql: """
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
            return carried
        }
        try work.close()
        return RestoreOutcome(kept: kept, restoredSchema: applied.last ?? "", deliveriesKept: carried)
    }

    static let deliveryColumns = ["key", "itemKind", "itemID", "occurrence", "fireAt", "state", "source", "firedAt",
                                  "settledAt", "attempts", "lastError"]

    /// quick_check's verdict and the schema steps applied, oldest first; a file that is no beautyd
    /// database (no migrations recorded) is refused.
    private static func inspect(_ source: DatabaseQueue, path: String) throws -> (verdict: String, applied: [String]) {
        do {
            return try source.read { db in
                let verdict = try String.fetchOne(db, sql: "PRAGMA quick_check(1)") ?? "no answer"
                guard try db.tableExists("grdb_migrations"), try db.tableExists("delivery") else {
                    throw RestoreRefusal(ValidationError(field: "path", template: "%s is not a beautyd database (no schema steps recorded): nothing was restored", path))
                }
                let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
                return (verdict, applied)
            }
        } catch let refusal as RestoreRefusal {
            throw refusal
        } catch {
            throw RestoreRefusal(ValidationError(field: "path", template: "%s cannot be read as a database (%s): nothing was restored",
                                                  path, DatabaseFault.summary(of: error)))
        }
    }

    /// Creates an empty file only its owner may read (SQLite keeps the mode of a file it opens), never
    /// following a symlink; an old one of the same name is replaced.
    static func createPrivateFile(_ path: String) throws {
        unlink(path)
        let fd = Glibc.open(path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw RestoreRefusal(ValidationError(field: "path", TranslatableText("cannot create %s: %s", [.plain(path), .message(SystemErrorText.text(errno))]))) }
        Glibc.close(fd)
    }
}
