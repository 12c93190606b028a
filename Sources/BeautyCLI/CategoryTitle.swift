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

    /// A title's words worth matching alone, folded: "Brwi i rzęsy" gives brwi, rzesy.
    static func titleWords(_ title: String) -> [String] {
        TextFolding.fold(title).split(whereSeparator: { !$0.isLetter }).map(String.init).filter {
            $0.count >= 3 && $0 != "and"
        }
    }

    /// Words people use for a category that its titles do not have, folded, in Polish, Slovak and English.
    static let synonyms: [String: [String]] = [
        "hair": ["wlos", "vlas", "fryzjer", "kadernik", "kadernictvo"],
        "hair/cut": ["ciecie", "podciecie", "strih", "strihanie", "cut", "trim"],
        "hair/colour": [
            "farbowanie", "farba", "farbenie", "balayage", "pasemka", "melir", "color", "coloring", "colour", "dye",
            "tint",
        ],
        "hair/styling": ["modelowanie", "uczesanie", "uces", "ucesy", "blowout", "updo"],
        "nails": ["paznokiec", "necht", "hybryda", "hybrydy", "gel", "zel", "zele"],
        "face/facial": ["oczyszczanie", "peeling", "osetrenie", "cistenie", "pletove"],
        "face/brows": ["henna", "laminacja", "laminacia", "regulacja", "oboci", "brow", "lash"],
        "face/makeup": ["makijaz", "licenie", "makeup", "make"],
        "body/massage": ["masaze", "massage"],
        "body/waxing": ["depilacja", "depilacia", "wosk", "vosk", "wax"],
        "body/spa": ["wellness", "sauna"],
    ]

    static let builtIn = [
        "hair", "hair/cut", "hair/colour", "hair/styling", "nails", "nails/manicure", "nails/pedicure",
        "face", "face/facial", "face/brows", "face/makeup", "body", "body/massage", "body/waxing", "body/spa",
    ]

    /// The code of a built-in category typed by its title in English, Polish or Slovak, in any case, with
    /// or without diacritics: `włosy` and `vlasy` are `hair`, `strzyzenie` is `hair/cut`, `Włosy/Koloryzacja`
    /// is `hair/colour`. Anything else (a code, a category of the user's own) is returned as typed.
    /// Failing a whole title, one word of a title (`brwi` of "Brwi i rzęsy", `lashes`) or a common
    /// synonym (`farbowanie`, `farbenie`, `dye`) that names one category only.
    static func code(typed text: String) -> String {
        let languages = [Localizer.english] + Language.translated.map(Localizer.forLanguage)
        let titles = builtIn.map { name in
            (name, Set(languages.map { TextFolding.fold(title(name: name, stored: name, $0)) }))
        }
        let words = builtIn.map { name in
            (name, Set(languages.flatMap { titleWords(title(name: name, stored: name, $0)) } + (synonyms[name] ?? [])))
        }
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
            .map(String.init)
        func match(_ part: String, among names: [(String, Set<String>)]) -> String? {
            let folded = TextFolding.fold(part.trimmingCharacters(in: .whitespaces))
            if let whole = names.first(where: { $0.1.contains(folded) })?.0 { return whole }
            let allowed = Set(names.map(\.0))
            let byWord = words.filter { allowed.contains($0.0) && $0.1.contains(folded) }
            return byWord.count == 1 ? byWord[0].0 : nil
        }
        switch parts.count {
        case 1:
            return match(parts[0], among: titles) ?? text
        case 2:
            guard
                let parent = match(parts[0], among: titles.filter { !$0.0.contains("/") })
                    ?? builtIn.first(where: { $0 == parts[0].lowercased() }),
                let child = match(parts[1], among: titles.filter { $0.0.hasPrefix(parent + "/") })
            else { return text }
            return child
        default:
            return text
        }
    }
}
