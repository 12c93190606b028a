import Foundation
import GRDB

/// Why beautyd will not use a database file, said on one line with the file and the way out.
public struct DatabaseRefusal: Error, Equatable, CustomStringConvertible {
    public enum Reason: Sendable {
        /// A zero-length file where a database was expected (a failed copy or restore).
        case empty
        /// The file, its directory or a side file cannot be written by this user.
        case notWritable
        /// PRAGMA quick_check found damage, or SQLite cannot read the file as a database.
        case damaged
        /// A newer beautyd has migrated the schema beyond what this one knows.
        case newerSchema
        /// The file has another name (a hard link), by which a second beautyd could open it.
        case secondName
    }

    public let reason: Reason
    public let description: String
}

/// The checks made before beautyd trusts a database file with reminders, and the opening itself.
public enum DatabaseOpening {
    /// The setting that names the beautyd version that last opened the file, so an older one can say
    /// which version it would take.
    static let versionSetting = "beautydVersion"

    static func sideFiles(of path: String) -> [String] { [path + "-wal", path + "-shm"] }

    /// The database file and its side files: what belongs together when a database is moved or removed.
    public static func files(of path: String) -> [String] { [path] + sideFiles(of: path) }

    /// An existing zero-length file is refused: SQLite would quietly make it a new, empty database.
    /// (A new WAL database may keep everything in its -wal for a while, so that one is still accepted.)
    static func refuseEmptyFile(_ path: String) throws {
        guard let size = fileSize(path), size == 0, (fileSize(path + "-wal") ?? 0) == 0 else { return }
        throw DatabaseRefusal(
            reason: .empty,
            description: """
                the database \(path) is an empty file (0 bytes), not a beautyd database: if your data should be in it, \
                restore it from a backup; to start with a new database, remove the file (rm '\(path)')
                """)
    }

    /// SQLite must write the file and create its -wal and -shm beside it; finding out before opening
    /// gives a message with the fix, and leaves no side file behind that would fail again once the mode is fixed.
    static func refuseNotWritable(_ path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        for file in files(of: path) where FileManager.default.fileExists(atPath: file) {
            if let problem = writeProblem(file, directory: false) { throw notWritable(path, problem) }
        }
        if let problem = writeProblem(directory.isEmpty ? "." : directory, directory: true) {
            throw notWritable(path, problem)
        }
    }

    /// In a directory others may write to (a sticky /tmp given with --database), another user can
    /// create the database or its -wal/-shm first, or a link to a file of the user's. SQLite opens
    /// them by name and follows links, so each existing one must be a regular file of this user's
    /// with one link. (One created by another user between this check and SQLite's open is not
    /// caught: a private directory is the real answer, which the message gives.)
    static func refusePlanted(_ path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        var folder = stat()
        guard stat(directory.isEmpty ? "." : directory, &folder) == 0, folder.st_mode & 0o022 != 0 else { return }
        for file in files(of: path) {
            var info = stat()
            guard lstat(file, &info) == 0 else { continue }
            let problem: String? =
                info.st_mode & S_IFMT == S_IFLNK
                ? "is a symbolic link"
                : info.st_uid != geteuid()
                    ? "belongs to uid \(info.st_uid), not to you (uid \(geteuid()))"
                    : info.st_mode & S_IFMT != S_IFREG
                        ? "is not a regular file"
                        : info.st_nlink > 1
                            ? "has \(info.st_nlink) hard links"
                            : nil
            if let problem {
                throw notWritable(
                    path,
                    """
                    \(file) \(problem), in \(directory), which other users may write to: someone else may have \
                    put it there; keep the database in a directory only you can write to (the default \
                    ~/.local/share/beautyd, or --database in a directory of mode 0700)
                    """)
            }
        }
    }

    /// The instance lock lies beside the name the database was opened by, so a second beautyd opening
    /// the same file by another name (a hard link) would pass it, and the two, each with its own -wal,
    /// damage the file. One name per database file is the rule.
    static func refuseSecondName(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_nlink > 1 else { return }
        throw DatabaseRefusal(
            reason: .secondName,
            description: """
                the database \(path) has \(info.st_nlink) names (hard links): a second beautyd could open it by another \
                name and both would write it, which damages it; keep one name (find the others: \
                find / -xdev -samefile '\(path)') and copy the file (cp) where another is wanted
                """)
    }

    private static func notWritable(_ path: String, _ problem: String) -> DatabaseRefusal {
        DatabaseRefusal(reason: .notWritable, description: "cannot write the database \(path): \(problem)")
    }

    /// Why this user cannot write `file`, with the command that fixes it; nil if it can.
    private static func writeProblem(_ file: String, directory: Bool) -> String? {
        let wanted = directory ? W_OK | X_OK : R_OK | W_OK
        guard access(file, wanted) != 0 else { return nil }
        let reason = errno
        let what = directory ? "its directory \(file)" : file
        if reason == EROFS {
            return
                "\(what) is on a read-only file system; mount it read-write or start beautyd with --database on a writable one"
        }
        var info = stat()
        guard stat(file, &info) == 0 else { return "\(what): \(String(cString: strerror(reason)))" }
        let mode = String(info.st_mode & 0o7777, radix: 8)
        if info.st_uid != geteuid() {
            return
                "\(what) belongs to uid \(info.st_uid), not to you (uid \(geteuid())); fix: sudo chown \(geteuid()):\(getegid()) '\(file)'"
        }
        let bits = directory ? "u+rwx" : "u+rw"
        return "\(what) is not writable (mode \(mode)); fix: chmod \(bits) '\(file)'"
    }

    /// -wal and -shm are only ever beautyd's own working files: one of ours that lost its owner
    /// write permission (left by an earlier failed start) would keep every start failing.
    static func restoreOwnSideFileModes(_ path: String) {
        for file in sideFiles(of: path) {
            var info = stat()
            guard stat(file, &info) == 0, info.st_uid == geteuid(), info.st_mode & 0o600 != 0o600 else { continue }
            chmod(file, (info.st_mode & 0o700) | 0o600)
        }
    }

    /// Opens the pool and hands it to `prepare` (checks, migrations). If either fails, the pool is
    /// closed and files this attempt created are removed (the database and its -wal only if empty:
    /// they could hold someone's data); a damaged or unwritable file becomes a `DatabaseRefusal`.
    static func open<Opened>(_ path: String, configuration: Configuration, prepare: (DatabasePool) throws -> Opened)
        throws -> Opened
    {
        let existing = files(of: path).filter { FileManager.default.fileExists(atPath: $0) }
        do {
            return try openAndPrepare(path, configuration: configuration, prepare: prepare)
        } catch {
            // An empty database file made by this attempt would be refused as empty at the next start.
            for file in files(of: path) where !existing.contains(file) {
                if file.hasSuffix("-shm") || fileSize(file) == 0 { unlink(file) }
            }
            throw translate(error, path: path)
        }
    }

    /// A separate function so the pool is released (and its connections closed) when it throws.
    private static func openAndPrepare<Opened>(
        _ path: String, configuration: Configuration,
        prepare: (DatabasePool) throws -> Opened
    ) throws -> Opened {
        try prepare(try DatabasePool(path: path, configuration: configuration))
    }

    private static func translate(_ error: any Error, path: String) -> any Error {
        guard let databaseError = error as? DatabaseError else { return error }
        switch databaseError.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return damaged(path, DatabaseFault.summary(of: error))
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM:
            return notWritable(path, DatabaseFault.summary(of: error))
        default:
            return error
        }
    }

    /// PRAGMA quick_check: every page and index entry is readable (no cross-check of index contents).
    static func refuseDamaged(_ pool: DatabasePool, path: String) throws {
        let verdict = try pool.read { db in try String.fetchOne(db, sql: "PRAGMA quick_check(1)") }
        guard let verdict, verdict != "ok" else { return }
        throw damaged(path, "quick_check: " + verdict.replacingOccurrences(of: "\n", with: " "))
    }

    private static func damaged(_ path: String, _ problem: String) -> DatabaseRefusal {
        DatabaseRefusal(
            reason: .damaged,
            description: """
                the database \(path) is damaged (\(problem)); beautyd will not use it. To go on with what is \
                readable, run beautyd --recover (with the same --database, if you gave one): it copies the readable \
                rows into a new file in its place and keeps the damaged one as \(path).damaged-<date> \
                (README.md, "A damaged database")
                """)
    }

    /// A migration this beautyd does not know means a newer one changed the schema: editing the data
    /// with older code could break what that newer code relies on.
    static func refuseNewerSchema(_ pool: DatabasePool, path: String, migrator: DatabaseMigrator, version: String?)
        throws
    {
        let (applied, writtenBy) = try pool.read { db -> (Set<String>, String?) in
            let applied = try migrator.appliedIdentifiers(db)
            let exists = try db.tableExists("setting")
            let writtenBy =
                exists
                ? try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [versionSetting])
                : nil
            return (applied, writtenBy)
        }
        let unknown = applied.subtracting(migrator.migrations).sorted()
        guard !unknown.isEmpty else { return }
        let theirs =
            "beautyd \(writtenBy ?? "(version not recorded)") with schema \(unknown.map { "\"\($0)\"" }.joined(separator: ", "))"
        let ours = "beautyd \(version ?? "(this build)") knows the schema up to \"\(migrator.migrations.last ?? "")\""
        throw DatabaseRefusal(
            reason: .newerSchema,
            description: """
                the database \(path) was written by a newer \(theirs); this \(ours) and will not change it: \
                run the newer beautyd again, or restore a backup made before it
                """)
    }

    /// Remembers which beautyd opened the file last (written only when it changes).
    static func recordVersion(_ pool: DatabasePool, _ version: String?) throws {
        guard let version else { return }
        try pool.write { db in
            let stored = try String.fetchOne(
                db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [versionSetting])
            guard stored != version else { return }
            try db.execute(
                sql: "INSERT OR REPLACE INTO setting(key, value) VALUES (?, ?)", arguments: [versionSetting, version])
        }
    }

    private static func fileSize(_ path: String) -> Int64? {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : nil
    }
}
