import BeautyLocalization
import Glibc

/// A system call's failure as a message: the common ones in the user's language, any other as the
/// system says it (`strerror`, English in beautyd's environment).
public enum SystemErrorText {
    public static func text(_ code: Int32) -> TranslatableText {
        word(code, .english) == nil ? .verbatim(String(cString: strerror(code))) : TranslatableText(word(code, .english)!, [])
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
        default: nil
        }
    }
}
