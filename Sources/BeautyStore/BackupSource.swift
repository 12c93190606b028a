import BeautyCore
import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// The file a restore reads, taken into a private copy before SQLite sees it: SQLite opens a file by
/// name and consults what lies beside it (a `-wal` is replayed over it, a `-journal` rolled back into
/// it), so a side file another user planted in a shared directory would decide what is restored.
enum BackupSource {
    /// Side files SQLite reads with a database: copied along when they are the user's own, refused otherwise.
    static let carriedSuffixes = ["-wal", "-journal"]
    /// Rebuilt by SQLite from the -wal: never copied, but refused when it is not the user's own.
    static let checkedSuffixes = ["-shm"]

    /// Copies `path`, and its -wal or -journal when they are the user's own regular files, to `copy`
    /// (an empty private file beautyd made) and the same names beside it. Every file is opened once and
    /// checked on that descriptor, and read from it: a file swapped in after its check is never read.
    /// The side files are opened before the file itself, so one that appears while the file is copied
    /// is not read either.
    static func copy(_ path: String, to copy: String) throws {
        var carried: [(suffix: String, descriptor: Int32)] = []
        defer { for side in carried { close(side.descriptor) } }
        for suffix in carriedSuffixes + checkedSuffixes {
            guard let side = try openSide(path + suffix, beside: path) else { continue }
            if carriedSuffixes.contains(suffix) { carried.append((suffix, side)) } else { close(side) }
        }
        let source = try openOwnFile(path)
        defer { close(source) }
        try copyContents(of: source, from: path, to: copy)
        for side in carried { try copyContents(of: side.descriptor, from: path + side.suffix, to: copy + side.suffix) }
    }

    /// The side file's descriptor when it exists (nil when it does not), once fstat has shown it a
    /// regular file of this user's with one link.
    private static func openSide(_ side: String, beside path: String) throws -> Int32? {
        let descriptor = openNoFollow(side)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            var info = stat()
            if lstat(side, &info) == 0, info.st_uid != geteuid() {
                throw foreignSide(side, beside: path, owner: info.st_uid)
            }
            if code == ELOOP {
                throw RestoreRefusal(
                    ValidationError(
                        field: "path",
                        template: "%s beside %s is not a regular file with one link: nothing was restored", side, path))
            }
            throw cannotRead(side, code)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw cannotRead(side, code)
        }
        if info.st_uid != geteuid() {
            close(descriptor)
            throw foreignSide(side, beside: path, owner: info.st_uid)
        }
        if info.st_mode & S_IFMT != S_IFREG || info.st_nlink != 1 {
            close(descriptor)
            throw RestoreRefusal(
                ValidationError(
                    field: "path", template: "%s beside %s is not a regular file with one link: nothing was restored",
                    side, path))
        }
        return descriptor
    }

    /// The file's descriptor once fstat has shown it a regular file of this user's with one link (another
    /// name for it, made by someone else, could be changed behind the user's back).
    private static func openOwnFile(_ path: String) throws -> Int32 {
        let descriptor = openNoFollow(path)
        guard descriptor >= 0 else { throw cannotRead(path, errno) }
        var info = stat()
        let refusal: RestoreRefusal?
        if fstat(descriptor, &info) != 0 {
            refusal = cannotRead(path, errno)
        } else if info.st_mode & S_IFMT != S_IFREG {
            refusal = notRegular(path)
        } else if info.st_uid != geteuid() {
            refusal = RestoreRefusal(
                ValidationError(field: "path", template: "%s belongs to uid %s, not to you", path, info.st_uid))
        } else if info.st_nlink != 1 {
            refusal = RestoreRefusal(
                ValidationError(
                    field: "path",
                    template: "%s has more than one link (another name may lead to it): nothing was restored", path))
        } else {
            refusal = nil
        }
        if let refusal {
            close(descriptor)
            throw refusal
        }
        return descriptor
    }

    /// Neither follows a link nor waits on a FIFO, and a terminal does not become beautyd's.
    private static func openNoFollow(_ path: String) -> Int32 {
        open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    }

    private static func foreignSide(_ side: String, beside path: String, owner: uid_t) -> RestoreRefusal {
        RestoreRefusal(
            ValidationError(
                field: "path",
                template:
                    "%s beside %s belongs to uid %s, not to you: someone else may have put it there; nothing was restored",
                side, path, owner))
    }

    /// Everything `source` (read from the start) holds, written to `copy`.
    private static func copyContents(of source: Int32, from path: String, to copy: String) throws {
        let target = open(copy, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard target >= 0 else {
            throw RestoreRefusal(
                ValidationError(
                    field: "path",
                    TranslatableText("cannot create %s: %s", [.plain(copy), .message(SystemErrorText.text(errno))])))
        }
        defer { close(target) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR { continue }
                throw cannotRead(path, errno)
            }
            var written = 0
            while written < count {
                let step = buffer.withUnsafeBytes { write(target, $0.baseAddress! + written, count - written) }
                if step < 0 {
                    if errno == EINTR { continue }
                    throw RestoreRefusal(
                        ValidationError(
                            field: "path",
                            TranslatableText(
                                "cannot write %s: %s", [.plain(copy), .message(SystemErrorText.text(errno))])))
                }
                written += step
            }
        }
    }

    static func notRegular(_ path: String) -> RestoreRefusal {
        RestoreRefusal(ValidationError(field: "path", template: "%s is not a regular file", path))
    }

    private static func cannotRead(_ path: String, _ code: Int32) -> RestoreRefusal {
        if code == ELOOP {
            return RestoreRefusal(
                ValidationError(field: "path", template: "%s is a symbolic link; give the file itself", path))
        }
        return RestoreRefusal(
            ValidationError(
                field: "path",
                TranslatableText("cannot read %s: %s", [.plain(path), .message(SystemErrorText.text(code))])))
    }
}
