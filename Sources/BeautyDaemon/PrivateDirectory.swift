import Foundation

/// A directory opened and checked so that no other local user can plant or swap files in it.
///
/// Each directory is opened with `O_NOFOLLOW` and checked with `fstat` on the descriptor, so the
/// checked directory is the one used: files inside are created relative to `fd` (`openat`). The
/// rules are those OpenSSH, systemd and PulseAudio apply to runtime directories.
public final class PrivateDirectory: @unchecked Sendable {
    public let path: String
    public let fd: Int32

    /// How strictly a directory is checked.
    public enum Kind: Sendable {
        /// A directory beautyd names and owns (`$XDG_RUNTIME_DIR/beautyd`, `/tmp/beautyd-UID`,
        /// `$XDG_RUNTIME_DIR` itself): ours, not a symlink, and made 0700 when it is looser.
        case own
        /// A directory the user chose (`--socket`, `--database`): ours or root's, not a symlink,
        /// and writable by nobody else unless sticky (as /tmp is). Its mode is left as it is.
        case chosen
    }

    public struct Refused: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "unsafe directory \(path): \(reason)" }
    }

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    /// Opens `path` (created with mode 0700, with its missing parents, when absent) and checks it.
    public static func open(_ path: String, kind: Kind) throws -> PrivateDirectory {
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path, !FileManager.default.fileExists(atPath: parent) {
            // Parents we create are new and ours; they get the same mode.
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw Refused(path: path, reason: "cannot create it: \(String(cString: strerror(errno)))")
        }
        return try adopt(Glibc.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), path: path, kind: kind)
    }

    /// Opens the directory `name` inside this one (created 0700 when absent) and checks it.
    public func child(_ name: String, kind: Kind = .own) throws -> PrivateDirectory {
        let childPath = path + "/" + name
        if mkdirat(fd, name, 0o700) != 0, errno != EEXIST {
            throw Refused(path: childPath, reason: "cannot create it: \(String(cString: strerror(errno)))")
        }
        return try Self.adopt(openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), path: childPath, kind: kind)
    }

    private static func adopt(_ fd: Int32, path: String, kind: Kind) throws -> PrivateDirectory {
        guard fd >= 0 else {
            let reason = errno == ELOOP || errno == ENOTDIR
                ? "it is a symbolic link or not a directory; remove it or point beautyd elsewhere"
                : String(cString: strerror(errno))
            throw Refused(path: path, reason: reason)
        }
        let directory = PrivateDirectory(path: path, fd: fd)
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Refused(path: path, reason: String(cString: strerror(errno))) }
        let me = geteuid()
        let othersMayWrite = info.st_mode & 0o022 != 0
        switch kind {
        case .own:
            guard info.st_uid == me else {
                throw Refused(path: path, reason: "it belongs to uid \(info.st_uid), not to you (uid \(me)); someone may have planted it. Remove it, or set XDG_RUNTIME_DIR to your own runtime directory")
            }
            if info.st_mode & 0o077 != 0, fchmod(fd, 0o700) != 0 {
                throw Refused(path: path, reason: "cannot make it private (mode 0700): \(String(cString: strerror(errno)))")
            }
        case .chosen:
            guard info.st_uid == me || info.st_uid == 0 else {
                throw Refused(path: path, reason: "it belongs to uid \(info.st_uid), not to you (uid \(me)) or root; choose a directory of your own")
            }
            if othersMayWrite, info.st_mode & S_ISVTX == 0 {
                throw Refused(path: path, reason: "other users may write to it (mode \(String(info.st_mode & 0o7777, radix: 8))); choose a private directory")
            }
        }
        return directory
    }
}
