import BeautyLocalization
import Foundation
import Glibc

/// A system call's failure as a message: the common ones in the user's language, any other as the
/// system says it (`strerror`, English in beautyd's environment).
public enum SystemErrorText {
    public static func text(_ code: Int32) -> TranslatableText {
        word(code, .english) == nil
            ? .verbatim(String(cString: strerror(code))) : TranslatableText(word(code, .english)!, [])
    }

    /// The failure in `l`'s language (as the system says it when it has no translation).
    public static func text(_ code: Int32, _ l: Localizer) -> String {
        word(code, l) ?? String(cString: strerror(code))
    }

    /// A Foundation file error (`Data.write`) in `l`'s language when it carries the system's error
    /// number; else Foundation's own words.
    public static func text(of error: any Error, _ l: Localizer) -> String {
        let ns = error as NSError
        // (On Linux the underlying error is a Swift Error in userInfo, which `as? NSError` does not bridge.)
        let underlying = (ns.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
        let posix = ns.domain == NSPOSIXErrorDomain ? ns : underlying
        guard let posix, posix.domain == NSPOSIXErrorDomain else { return ns.localizedDescription }
        return text(Int32(posix.code), l)
    }

    /// nil for an errno without a translation of its own. The msgids are strerror's own words.
    static func word(_ code: Int32, _ l: Localizer) -> String? {
        switch code {
        case ENOENT: l.tr("No such file or directory")
        case EACCES: l.tr("Permission denied")
        case EEXIST: l.tr("File exists")
        case ENOSPC: l.tr("No space left on device")
        case EISDIR: l.tr("Is a directory")
        case ENOTDIR: l.tr("Not a directory")
        case ECONNREFUSED: l.tr("Connection refused")
        case ECONNRESET: l.tr("Connection reset by peer")
        case EPIPE: l.tr("Broken pipe")
        case EAGAIN: l.tr("Resource temporarily unavailable")
        case EPERM: l.tr("Operation not permitted")
        case EROFS: l.tr("Read-only file system")
        case ELOOP: l.tr("Too many levels of symbolic links")
        case ENAMETOOLONG: l.tr("File name too long")
        case EMFILE: l.tr("Too many open files")
        case ENOTSOCK: l.tr("Socket operation on non-socket")
        default: nil
        }
    }
}
