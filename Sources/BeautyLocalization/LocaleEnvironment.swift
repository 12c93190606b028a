import Foundation

/// ICU, which formats every date, reads the locale name from `LC_ALL`, `LC_MESSAGES` or `LANG`
/// itself, and crashes on a name whose language part is 12 letters or more (ICU 76, SIGSEGV in
/// `icu::Locale::init`). So a name that cannot be a locale is replaced, before anything formats a
/// date, by one that keeps the language beautyd would have chosen from it (`Language.fromEnvironment`).
public enum LocaleEnvironment {
    static let variables = ["LC_ALL", "LC_MESSAGES", "LANG"]

    /// Replaces the implausible locale names of this process's environment. Call it first in `main`,
    /// while no other thread runs (setenv is not thread-safe).
    public static func sanitize() {
        for name in variables {
            guard let value = getenv(name).map({ String(cString: $0) }), let replacement = replacement(for: value)
            else { continue }
            setenv(name, replacement, 1)
        }
    }

    /// What a locale name is replaced by, nil when it may stay: an empty one, `C`/`POSIX`, or
    /// `language[_territory][.codeset][@modifier]` with a language of 1 to 8 letters and nothing but
    /// letters, digits and `_ - . @ =` in at most 64 characters.
    public static func replacement(for value: String) -> String? {
        guard !value.isEmpty, !isPlausible(value) else { return nil }
        // Not C or POSIX, and no language beautyd speaks unless its leading letters name one: the
        // same choice Language.fromEnvironment made from the name as it was.
        return Language(code: value)?.rawValue ?? Language.english.rawValue
    }

    private static func isPlausible(_ value: String) -> Bool {
        let allowed = value.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || [UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "@"), UInt8(ascii: "=")]
                    .contains(byte)
        }
        guard allowed, value.utf8.count <= 64 else { return false }
        let language = value.utf8.prefix { byte in (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) }
        let rest = value.utf8.dropFirst(language.count)
        return (1...8).contains(language.count)
            && (rest.first.map {
                [UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "@")].contains($0)
            } ?? true)
    }
}
