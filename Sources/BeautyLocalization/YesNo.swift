import Foundation

/// A yes/no question's answer in the user's language: `[y/N]`, `[t/N]` (tak), `[a/N]` (áno). The
/// English y/yes is accepted in every language too (muscle memory, scripts piping `yes`).
public enum YesNo {
    /// `[y/N]`, `[t/N]`, `[a/N]`.
    public static func prompt(_ l: Localizer) -> String { l.tr("[y/N]") }

    /// Whether a typed answer says yes (any case, spaces around ignored); anything else is no.
    public static func isYes(_ typed: String, _ l: Localizer) -> Bool {
        let answer = typed.trimmingCharacters(in: .whitespaces).lowercased()
        let yes: Set<String> =
            switch l.language {
            case .english: ["y", "yes"]
            case .polish: ["y", "yes", "t", "tak"]
            case .slovak: ["y", "yes", "a", "áno", "ano"]
            }
        return yes.contains(answer)
    }
}
