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
    /// (an empty private file beautyd made) and the same names beside it.
    static func copy(_ path: String, to copy: String) throws {
        for suffix in carriedSuffixes + checkedSuffixes {
            try refuseForeign(path + suffix, beside: path)
        }
        try copyRegularFile(path, to: copy)
        for suffix in carriedSuffixes where exists(path + suffix) {
            try copyRegularFile(path + suffix, to: copy + suffix)
        }
    }

    /// A side file that exists must be a regular file of this user's with one link.
    private static func refuseForeign(_ side: String, beside path: String) throws {
        var info = stat()
        guard lstat(side, &info) == 0 else { return }
        if info.st_uid != geteuid() {
            throw RestoreRefusal(ValidationError(field: "path", template: "%s beside %s belongs to uid %s, not to you: someone else may have put it there; nothing was restored",
                                                  side, path, info.st_uid))
        }
        if info.st_mode & S_IFMT != S_IFREG || info.st_nlink > 1 {
            throw RestoreRefusal(ValidationError(field: "path", template: "%s beside %s is not a regular file with one link: nothing was restored", side, path))
        }
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Reads through one descriptor opened without following a link or waiting on a FIFO, and checked
    /// with fstat to be a regular file: what was checked is what is read.
    private static func copyRegularFile(_ path: String, to copy: String) throws {
        let source = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard source >= 0 else { throw cannotRead(path, errno) }
        defer { close(source) }
        var info = stat()
        guard fstat(source, &info) == 0 else { throw cannotRead(path, errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw notRegular(path) }
        let target = open(copy, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard target >= 0 else { throw RestoreRefusal(ValidationError(field: "path", TranslatableText("cannot create %s: %s", [.plain(copy), .message(SystemErrorText.text(errno))]))) }
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
                    throw RestoreRefusal(ValidationError(field: "path", TranslatableText("cannot write %s: %s", [.plain(copy), .message(SystemErrorText.text(errno))])))
                }
                written += step
            }
        }
    }

    static func notRegular(_ path: String) -> RestoreRefusal {
        RestoreRefusal(ValidationError(field: "path", template: "%s is not a regular file", path))
    }

    private static func cannotRead(_ path: String, _ code: Int32) -> RestoreRefusal {
        if code == ELOOP { return RestoreRefusal(ValidationError(field: "path", template: "%s is a symbolic link; give the file itself", path)) }
        return RestoreRefusal(ValidationError(field: "path", TranslatableText("cannot read %s: %s", [.plain(path), .message(SystemErrorText.text(code))])))
    }
}
