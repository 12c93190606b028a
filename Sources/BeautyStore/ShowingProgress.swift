import Foundation

/// How far the Notify calls of a committed instant got, kept in a small file beside the database
/// (`<database>-showing`) and written before each call without an fsync: a crash of the process
/// keeps it (the kernel still writes it out), a crash of the machine may not, so it is trusted only
/// in the boot that wrote it. After a crash it tells apart the reminders committed ahead whose
/// Notify may have gone (counted as shown, at most once) from those never sent (pending again):
/// without it, a crash a few milliseconds before an instant, restarted after it, counted that
/// instant's reminders as shown though none was sent.
public final class ShowingProgress: @unchecked Sendable {
    /// What the file says the last process reached.
    public enum Reached: Equatable, Sendable {
        /// Not known (no file, another boot, unreadable): every committed delivery whose instant came counts as shown.
        case unknown
        /// Started in this boot and sent nothing committed ahead since.
        case nothing
        /// Sent Notify for the deliveries of `instant` up to `key` (in key order, the order they are shown in).
        case sent(instant: Date, key: String)
    }

    private let path: String?
    private let lock = NSLock()
    private var descriptor: Int32 = -1

    /// `databasePath` ":memory:" keeps nothing (in-process tests).
    init(databasePath: String) {
        path = databasePath == ":memory:" ? nil : databasePath + "-showing"
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// What the previous process reached (read at start, before `started`). The file is removed once read:
    /// one this process then fails to write is missing at the next start, never an older one taken for its own.
    public func read() -> Reached {
        guard let path else { return .unknown }
        defer {
            unlink(path)
            lock.withLock {
                if descriptor >= 0 { close(descriptor) }
                descriptor = -1
            }
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return .unknown }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 3, lines[0] == Self.bootID, !Self.bootID.isEmpty else { return .unknown }
        if lines[1] == "-" { return .nothing }
        guard let milliseconds = Int64(lines[1]) else { return .unknown }
        return .sent(instant: Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000), key: lines[2])
    }

    /// This process has started and sent nothing committed ahead yet.
    public func started() { write("\(Self.bootID)\n-\n\n") }

    /// About to send Notify for `key`, committed for `instant`.
    public func sending(_ key: String, committedFor instant: Date) {
        let milliseconds = Int64((instant.timeIntervalSince1970 * 1000).rounded())
        write("\(Self.bootID)\n\(milliseconds)\n\(key)\n")
    }

    private func write(_ text: String) {
        guard let path else { return }
        lock.withLock {
            if descriptor < 0 { descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600) }
            guard descriptor >= 0 else { return }
            let bytes = Array(text.utf8)
            // Not truncated after: one system call before each Notify. A shorter record leaves the end of a
            // longer one behind its third line, and `read` looks at the first three lines only.
            guard pwrite(descriptor, bytes, bytes.count, 0) == bytes.count else {
                // What the file says now is not what this process did: it must not be trusted.
                if ftruncate(descriptor, 0) != 0 { unlink(path) }
                return
            }
        }
    }

    /// This boot of the machine: a file written in another boot may have lost its last writes.
    static let bootID: String =
        (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
}
