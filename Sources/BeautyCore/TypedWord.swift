import Foundation
import BeautyLocalization

/// A code typed as any language's word for it (`--status odbyta`, `--color ružová`, `message
/// potwierdź`), whatever the current language, as dates take `dziś` and `dnes`.
public enum TypedWord {
    /// The code among `codes` that `typed` names: the code itself, or its word in English, Polish or
    /// Slovak as `word` gives it, compared without case or diacritics. An adjective or noun may end
    /// in another vowel than the word shown (różowy/różowa/różowe, wizyta/wizyty). Nil when nothing
    /// or more than one code matches.
    public static func code(_ typed: String, among codes: [String], word: (String, Localizer) -> String) -> String? {
        let folded = TextFolding.fold(typed.trimmingCharacters(in: .whitespaces))
        if let exact = codes.first(where: { TextFolding.fold($0) == folded }) { return exact }
        let localizers = [Localizer.english] + Language.translated.map(Localizer.forLanguage)
        let named = Set(
            codes.filter { code in
                localizers.contains { l in sameWord(folded, TextFolding.fold(word(code, l))) }
            })
        return named.count == 1 ? named.first : nil
    }

    /// The same word, or the same stem with another final vowel (rozowy ~ rozowa, wizyta ~ wizyty).
    static func sameWord(_ typed: String, _ word: String) -> Bool {
        if typed == word { return true }
        let vowels: Set<Character> = ["a", "e", "i", "o", "u", "y"]
        guard typed.count >= 4, word.count >= 4, let last = typed.last, let wordLast = word.last,
            vowels.contains(last), vowels.contains(wordLast)
        else { return false }
        return typed.dropLast() == word.dropLast()
    }
}

extension TerminalColor {
    /// The colour's name in the user's language ("różowy", "ružová").
    public func title(_ l: Localizer) -> String {
        switch self {
        case .red: l.trc("colour", "red")
        case .orange: l.trc("colour", "orange")
        case .yellow: l.trc("colour", "yellow")
        case .green: l.trc("colour", "green")
        case .teal: l.trc("colour", "teal")
        case .blue: l.trc("colour", "blue")
        case .purple: l.trc("colour", "purple")
        case .magenta: l.trc("colour", "magenta")
        case .pink: l.trc("colour", "pink")
        case .brown: l.trc("colour", "brown")
        case .gray: l.trc("colour", "gray")
        }
    }

    /// A colour typed in any language ("różowa", "ružová", "pink"), else the text as it is.
    public static func code(typed: String) -> String {
        TypedWord.code(typed, among: allCases.map(\.rawValue), word: { TerminalColor(rawValue: $0)!.title($1) })
            ?? typed
    }
}

extension MessageTemplate {
    /// The template's word as a user types it: "umów", "potwierdź", "odwołaj"; "objednať", "potvrdiť", "zrušiť".
    public func word(_ l: Localizer) -> String {
        switch self {
        case .book: l.trc("SMS template", "book")
        case .confirm: l.trc("SMS template", "confirm")
        case .cancel: l.trc("SMS template", "cancel")
        }
    }

    public init?(typed: String) {
        guard
            let code = TypedWord.code(
                typed, among: Self.allCases.map(\.rawValue), word: { MessageTemplate(rawValue: $0)!.word($1) })
        else { return nil }
        self.init(rawValue: code)
    }
}

extension ItemKind {
    /// The kind of an agenda item as a user types it: "wizyta", "lek", "woda"; "návšteva", "liek", "voda".
    public func word(_ l: Localizer) -> String {
        switch self {
        case .appointment: l.trc("item kind", "appointment")
        case .medication: l.trc("item kind", "medication")
        case .water: l.trc("item kind", "water")
        case .tip: l.trc("item kind", "tip")
        }
    }
}

extension Language {
    /// The language's name as a user reads and types it: "polski", "slovenčina", "English".
    public func title(_ l: Localizer) -> String {
        switch self {
        case .english: l.trc("language", "English")
        case .polish: l.trc("language", "Polish")
        case .slovak: l.trc("language", "Slovak")
        }
    }

    /// A language typed as its code (`pl`, `sk`, `en`) or its name in any language beautyd speaks
    /// ("polski", "slovenčina", "English"); nil for anything else.
    public init?(typed: String) {
        guard
            let code = TypedWord.code(
                typed, among: Self.allCases.map(\.rawValue), word: { Language(rawValue: $0)!.title($1) })
        else { return nil }
        self.init(rawValue: code)
    }

    /// A contact's language as the wire carries it (a code; a name in any language is taken too).
    public static func ofContact(_ text: String, field: String = "language") throws -> Language {
        guard let language = Language(typed: text) else {
            throw ValidationError(
                field: field, template: "'%s' is not a language beautyd writes in (en, pl or sk)", text)
        }
        return language
    }
}
