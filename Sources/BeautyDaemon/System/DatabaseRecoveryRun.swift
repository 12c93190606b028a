import ArgumentParser
import BeautyStore
import Foundation

/// `beautyd --recover`: copies what is readable of the database into a new file, keeps the damaged
/// one (with its -wal and -shm) beside it under a dated name, puts the new one in its place, and exits.
enum DatabaseRecoveryRun {
    static func run(paths: DaemonPaths, explicitDatabase: Bool) throws {
        // The same lock as a running daemon's: never swap the file under one.
        let lock = try InstanceClaim.lockDatabase(paths: paths, explicitDatabase: explicitDatabase)
        defer { withExtendedLifetime(lock) {} }

        let path = paths.database
        guard FileManager.default.fileExists(atPath: path) else {
            throw failure("there is no database at \(path) to recover")
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let stamp = formatter.string(from: Date())
        let kept = "\(path).damaged-\(stamp)"
        let fresh = "\(path).recovered-\(stamp)"

        let report: DatabaseRecovery.Report
        do {
            report = try DatabaseRecovery.copyReadable(from: path, to: fresh)
        } catch {
            for file in DatabaseOpening.files(of: fresh) { unlink(file) }
            throw failure(
                "cannot recover \(path): \(DatabaseFault.summary(of: error)); nothing was changed. Restore it from a backup"
            )
        }
        try move(path, to: kept, note: "; the recovered copy is \(fresh)")
        try move(fresh, to: path)

        let tables = report.tables.filter { $0.copied > 0 || $0.damaged }
            .map { "\($0.name) \($0.copied)\($0.damaged ? " (damaged: rows lost)" : "")" }
        let orphans = report.orphansDropped == 0 ? "" : "; \(report.orphansDropped) rows dropped whose item was lost"
        print("beautyd: recovered \(path) — rows copied: \(tables.joined(separator: ", "))\(orphans).")
        print("beautyd: the damaged file is kept as \(kept); start beautyd again.")
    }

    /// Renames a database and its side files (those that exist) to `target`'s names; `note` ends the message of a failure.
    private static func move(_ source: String, to target: String, note: String = "") throws {
        for (from, to) in zip(DatabaseOpening.files(of: source), DatabaseOpening.files(of: target))
        where FileManager.default.fileExists(atPath: from) {
            guard rename(from, to) == 0 else {
                throw failure("cannot move \(from) to \(to): \(String(cString: strerror(errno)))\(note)")
            }
        }
    }

    private static func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("beautyd: \(message)\n".utf8))
        return ExitCode(65)
    }
}
