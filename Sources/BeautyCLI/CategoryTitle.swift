import BeautyCore
import BeautyLocalization

/// The built-in treatment categories' titles in the user's language (the daemon keeps them in
/// English, in the migration that made the tree); the names (`hair/cut`) are codes, the same in
/// every language, as `--category` takes them. A category beautyd does not know keeps its title.
enum CategoryTitle {
    static func title(name: String, stored: String, _ l: Localizer) -> String {
        switch name {
        case "hair": l.trc("category", "Hair")
        case "hair/cut": l.trc("category", "Haircut")
        case "hair/colour": l.trc("category", "Colouring")
        case "hair/styling": l.trc("category", "Styling")
        case "nails": l.trc("category", "Nails")
        case "nails/manicure": l.trc("category", "Manicure")
        case "nails/pedicure": l.trc("category", "Pedicure")
        case "face": l.trc("category", "Face")
        case "face/facial": l.trc("category", "Facial")
        case "face/brows": l.trc("category", "Brows and lashes")
        case "face/makeup": l.trc("category", "Make-up")
        case "body": l.trc("category", "Body")
        case "body/massage": l.trc("category", "Massage")
        case "body/waxing": l.trc("category", "Waxing")
        case "body/spa": l.trc("category", "Spa")
        default: stored
        }
    }

    static let builtIn = ["hair", "hair/cut", "hair/colour", "hair/styling", "nails", "nails/manicure", "nails/pedicure",
                          "face", "face/facial", "face/brows", "face/makeup", "body", "body/massage", "body/waxing", "body/spa"]

    /// The code of a built-in category typed by its title in English, Polish or Slovak, in any case, with
    /// or without diacritics: `włosy` and `vlasy` are `hair`, `strzyzenie` is `hair/cut`, `Włosy/Koloryzacja`
    /// is `hair/colour`. Anything else (a code, a category of the user's own) is returned as typed.
    static func code(typed text: String) -> String {
        let languages = [Localizer.english] + Language.translated.map(Localizer.forLanguage)
        let titles = builtIn.map { name in (name, Set(languages.map { TextFolding.fold(title(name: name, stored: name, $0)) })) }
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        func match(_ part: String, among names: [(String, Set<String>)]) -> String? {
            let folded = TextFolding.fold(part.trimmingCharacters(in: .whitespaces))
            return names.first { $0.1.contains(folded) }?.0
        }
        switch parts.count {
        case 1:
            return match(parts[0], among: titles) ?? text
        case 2:
            guard let parent = match(parts[0], among: titles.filter { !$0.0.contains("/") }) ?? builtIn.first(where: { $0 == parts[0].lowercased() }),
                  let child = match(parts[1], among: titles.filter { $0.0.hasPrefix(parent + "/") })
            else { return text }
            return child
        default:
            return text
        }
    }
}
