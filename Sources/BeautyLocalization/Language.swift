import Foundation

/// A language beautyd speaks. English is the msgid language of the catalogs and needs none.
public enum Language: String, Sendable, CaseIterable, Codable {
    case english = "en", polish = "pl", slovak = "sk"

    /// The languages with a catalog in `po/`.
    public static let translated: [Language] = [.polish, .slovak]

    /// "pl", "pl_PL.UTF-8", "sk-SK", "sk_SK@euro" -> the language; anything else nil.
    public init?(code: String) {
        let base = code.prefix { $0.isLetter }.lowercased()
        guard let language = Language(rawValue: base) else { return nil }
        self = language
    }

    /// The language a Linux program uses for messages, as GNU gettext chooses it: the locale of
    /// LC_MESSAGES is the first set of `LC_ALL`, `LC_MESSAGES`, `LANG`; when it is unset, `C` or
    /// `POSIX` (`C.UTF-8` too) messages are untranslated, whatever `LANGUAGE` says; otherwise the
    /// first language of the colon-separated `LANGUAGE` list beautyd speaks, else the locale's own.
    /// A language beautyd does not speak is English.
    public static func fromEnvironment(_ environment: [String: String]) -> Language {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let locale, !isUntranslated(locale) else { return .english }
        let preferred = (environment["LANGUAGE"] ?? "").split(separator: ":").map(String.init) + [locale]
        return preferred.lazy.compactMap(Language.init(code:)).first ?? .english
    }

    private static func isUntranslated(_ locale: String) -> Bool {
        let name = locale.split(separator: ".").first.map(String.init) ?? locale
        return name == "C" || name == "POSIX"
    }

    /// The language of this process's environment.
    public static var current: Language { fromEnvironment(ProcessInfo.processInfo.environment) }

    /// The Foundation locale for dates and numbers.
    public var locale: Locale {
        switch self {
        case .english: Locale(identifier: "en_US_POSIX")
        case .polish: Locale(identifier: "pl_PL")
        case .slovak: Locale(identifier: "sk_SK")
        }
    }

    /// The currency of amounts given without one when the configuration names none.
    public var defaultCurrency: String {
        switch self {
        case .english, .slovak: "EUR"
        case .polish: "PLN"
        }
    }
}
