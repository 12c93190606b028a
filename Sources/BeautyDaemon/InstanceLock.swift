import Foundation

/// An exclusive `flock` beside the socket, so a second daemon for the same socket refuses to start
/// instead of stealing it. The kernel drops the lock when the process dies, even on kill -9.
public final class InstanceLock {
    public let path: String
    private let fd: Int32

    public struct Held: Error, CustomStringConvertible {
        public var path: String
        public var pid: String
        public var description: String {
            "another beautyd (pid \(pid)) is already running with this socket; stop it first (lock \(path))"
        }
    }

    public init(path: String) throws {
        self.path = path
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let owner = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            close(fd)
            throw Held(path: path, pid: owner?.isEmpty == false ? owner! : "unknown")
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(fd, 0)
        _ = pid.withCString { write(fd, $0, strlen($0)) }
    }

    deinit {
        close(fd)
    }
}
