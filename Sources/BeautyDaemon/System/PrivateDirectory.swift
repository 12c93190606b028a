import BeautyCore
import Foundation

/// A directory opened and checked so that no other local user can plant or swap files in it.
///
/// Each directory is checked with `fstat` on the descriptor it was opened as, so the checked
/// directory is the one used; lock files are created relative to `fd` (`openat`). The socket is
/// bound and the database opened by path: that is safe because every directory on the way is
/// checked to be writable by the user alone (or sticky, as /tmp is, where nobody else can
/// rename what is ours). The rules are those OpenSSH, systemd and PulseAudio apply to runtime
/// directories.
public final class PrivateDirectory: @unchecked Sendable {
    public let path: String
    public let fd: Int32

    /// How strictly a directory is checked.
    public enum Kind: Sendable {
        /// A runtime directory beautyd names and owns (`$XDG_RUNTIME_DIR`, its `beautyd`,
        /// `/tmp/beautyd-UID`): ours, not a symlink, and made 0700 when it is looser.
        case own
        /// The default data directory (`$XDG_DATA_HOME/beautyd`): ours and made 0700 like `own`,
        /// but it may be reached through a symlink (data kept on another disk, dotfiles setups).
        case data
        /// A directory the user chose (`--socket`, `--database`): ours or root's, writable by nobody
        /// else unless sticky, and so is its parent. Its mode is left as it is.
        case chosen
    }

    public struct Refused: Error, CustomStringConvertible {
        public var path: String
        public var reason: TranslatableText
        /// Why beautyd will not start, for its user to read: `description` in English is the journal's.
        public var text: TranslatableText {
            TranslatableText("unsafe directory %s: %s", [.plain(path), .message(reason)])
        }
        public var description: String { text.english }

        public init(path: String, reason: TranslatableText) {
            self.path = path
            self.reason = reason
        }
    }

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    /// Opens `path` ("" is the working directory), created with mode 0700 (and its missing
    /// parents) when absent, and checks it.
    public static func open(_ path: String, kind: Kind) throws -> PrivateDirectory {
        let path = path.isEmpty ? "." : path
        // (Foundation's deletingLastPathComponent traps on ".".)
        let parent = path.contains("/") ? (path as NSString).deletingLastPathComponent : ""
        if !parent.isEmpty, parent != path, !FileManager.default.fileExists(atPath: parent) {
            // Parents we create are new and ours; they get the same mode.
            try FileManager.default.createDirectory(
                atPath: parent, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        }
        let directory = try make(path, in: AT_FDCWD, shownAs: path, kind: kind)
        if kind == .chosen { try checkChosenParent(of: path) }
        return directory
    }

    /// Opens the directory `name` inside this one (created 0700 when absent) and checks it.
    public func child(_ name: String, kind: Kind = .own) throws -> PrivateDirectory {
        try Self.make(name, in: fd, shownAs: path + "/" + name, kind: kind)
    }

    private static func make(_ name: String, in parent: Int32, shownAs path: String, kind: Kind) throws
        -> PrivateDirectory
    {
        if mkdirat(parent, name, 0o700) != 0, errno != EEXIST {
            throw Refused(
                path: path, reason: TranslatableText("cannot create it: %s", [.message(SystemErrorText.text(errno))]))
        }
        let noFollow = kind == .own ? O_NOFOLLOW : 0
        let fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | noFollow)
        guard fd >= 0 else {
            let reason =
                errno == ELOOP || errno == ENOTDIR
                ? TranslatableText("it is a symbolic link or not a directory; remove it or point beautyd elsewhere", [])
                : SystemErrorText.text(errno)
            throw Refused(path: path, reason: reason)
        }
        let directory = PrivateDirectory(path: path, fd: fd)
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Refused(path: path, reason: SystemErrorText.text(errno)) }
        let me = geteuid()
        switch kind {
        case .own, .data:
            guard info.st_uid == me else {
                throw Refused(
                    path: path,
                    reason: TranslatableText(
                        "it belongs to uid %s, not to you (uid %s); someone may have planted it. Remove it, or set XDG_RUNTIME_DIR to your own runtime directory",
                        [.plain(info.st_uid), .plain(me)]))
            }
            if info.st_mode & 0o077 != 0, fchmod(fd, 0o700) != 0 {
                throw Refused(
                    path: path,
                    reason: TranslatableText(
                        "cannot make it private (mode 0700): %s", [.message(SystemErrorText.text(errno))]))
            }
        case .chosen:
            if let reason = sharedWithOthers(info) { throw Refused(path: path, reason: reason) }
        }
        return directory
    }

    /// Why a directory the user chose is not safe to keep private files in, or nil.
    private static func sharedWithOthers(_ info: stat) -> TranslatableText? {
        let me = geteuid()
        guard info.st_uid == me || info.st_uid == 0 else {
            return TranslatableText(
                "it belongs to uid %s, not to you (uid %s) or root; choose a directory of your own",
                [.plain(info.st_uid), .plain(me)])
        }
        if info.st_mode & 0o022 != 0, info.st_mode & S_ISVTX == 0 {
            return TranslatableText(
                "other users may write to it (mode %s); choose a private directory",
                [.plain(String(info.st_mode & 0o7777, radix: 8))])
        }
        return nil
    }

    /// Someone who may write to a chosen directory's parent could swap the directory for another.
    private static func checkChosenParent(of path: String) throws {
        guard let resolved = realpath(path, nil) else { return }
        defer { free(resolved) }
        let parent = (String(cString: resolved) as NSString).deletingLastPathComponent
        var info = stat()
        guard !parent.isEmpty, stat(parent, &info) == 0, let reason = sharedWithOthers(info) else { return }
        throw Refused(path: parent, reason: TranslatableText("%s (it holds %s)", [.message(reason), .plain(path)]))
    }
}
