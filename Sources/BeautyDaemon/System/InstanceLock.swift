import BeautyCore
import Foundation

/// An exclusive `flock` on a file in a checked directory: one beside the database, so a second
/// daemon on the same database refuses to start (two would show every reminder twice), and one
/// beside the socket, so a second daemon cannot steal it. The kernel drops the lock when the
/// process dies, even on kill -9.
public final class InstanceLock {
    public let path: String
    private let fd: Int32

    public struct Held: Error, CustomStringConvertible {
        public var path: String
        public var pid: String
        /// What the lock guards, as the message names it: "database /x/beautyd.sqlite".
        public var guarding: TranslatableText
        /// Why beautyd will not start, for its user to read: `description` in English is the journal's.
        public var text: TranslatableText {
            TranslatableText(
                "another beautyd (pid %s) is already running with the %s; stop it first (lock %s)",
                [.plain(pid), .message(guarding), .plain(path)])
        }
        public var description: String { text.english }
    }

    /// Locks `name` inside `directory`. The file is opened without following a symlink and must be
    /// a regular file of ours; it is emptied and given our pid only once the lock is held.
    public init(_ name: String, in directory: PrivateDirectory, guarding: TranslatableText) throws {
        path = directory.path + "/" + name
        fd = openat(directory.fd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0o600)
        guard fd >= 0 else {
            let reason =
                errno == ELOOP ? TranslatableText("it is a symbolic link; remove it", []) : SystemErrorText.text(errno)
            throw PrivateDirectory.Refused(path: path, reason: reason)
        }
        var info = stat()
        // From here a throw runs deinit (every property is set), which closes `fd`; closing it here
        // too would close whatever another thread opened under the same number meanwhile.
        // A second hard link would be another file of the user's, planted under the lock's name in
        // a sticky directory: emptying it would destroy that file.
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(), info.st_nlink == 1
        else {
            throw PrivateDirectory.Refused(
                path: path,
                reason: TranslatableText("the lock file is not a regular file of yours with one name; remove it", []))
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let owner = Self.contents(of: fd)
            throw Held(path: path, pid: owner.isEmpty ? "?" : owner, guarding: guarding)
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(fd, 0)
        _ = pid.withCString { pwrite(fd, $0, strlen($0), 0) }
    }

    private static func contents(of fd: Int32) -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = pread(fd, &bytes, bytes.count, 0)
        guard count > 0 else { return "" }
        return String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
        close(fd)
    }
}
