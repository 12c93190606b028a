/// The language whose forms win when typed input means different things in two languages (`po` is
/// Monday in Slovak and "after" in Polish). Every language's forms are accepted otherwise.
public enum InputLanguage: String, Sendable, CaseIterable {
    case english = "en", polish = "pl", slovak = "sk"

    /// The language of the environment, as gettext picks it: `LC_ALL`, then `LC_MESSAGES`, then `LANG`
    /// name the locale; `C`/`POSIX` mean English whatever `LANGUAGE` says; otherwise `LANGUAGE`'s first
    /// entry, when set, names the language. Unknown languages are English.
    public static func of(environment: [String: String]) -> InputLanguage {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let code: (String) -> String = { String($0.prefix { $0.isLetter }).lowercased() }
        guard !locale.isEmpty, locale != "C", locale != "POSIX", !locale.hasPrefix("C.") else { return .english }
        let preferred = environment["LANGUAGE"]?.split(separator: ":").first.map(String.init) ?? locale
        return InputLanguage(rawValue: code(preferred)) ?? .english
    }
}
