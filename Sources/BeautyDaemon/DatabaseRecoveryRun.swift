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
        guard FileManager.default.fileExists(atPath: path) else { throw failure("there is no database at \(path) to recover") }
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
            for suffix in ["", "-wal", "-shm"] { unlink(fresh + suffix) }
            throw failure("cannot recover \(path): \(DatabaseFault.summary(of: error)); nothing was changed. Restore it from a backup")
        }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            guard rename(path + suffix, kept + suffix) == 0 else {
                throw failure("cannot move \(path + suffix) to \(kept + suffix): \(String(cString: strerror(errno))); the recovered copy is \(fresh)")
            }
        }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: fresh + suffix) {
            guard rename(fresh + suffix, path + suffix) == 0 else {
                throw failure("cannot move \(fresh + suffix) to \(path + suffix): \(String(cString: strerror(errno)))")
            }
        }

        let tables = report.tables.filter { $0.copied > 0 || $0.damaged }
            .map { "\($0.name) \($0.copied)\($0.damaged ? " (damaged: rows lost)" : "")" }
        let orphans = report.orphansDropped == 0 ? "" : "; \(report.orphansDropped) rows dropped whose item was lost"
        print("beautyd: recovered \(path) — rows copied: \(tables.joined(separator: ", "))\(orphans).")
        print("beautyd: the damaged file is kept as \(kept); start beautyd again.")
    }

    private static func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("beautyd: \(message)\n".utf8))
        return ExitCode(65)
    }
}
