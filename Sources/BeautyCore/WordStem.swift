/// A searched word reduced to its stem, so a search finds the word's other forms: `olejek` finds
/// "olejku", `krém` finds "krémom", `filtr` finds "filtrem". Not a dictionary stemmer but a
/// documented suffix rule: the longest of the common Polish and Slovak case endings below is cut
/// off when at least four letters stay, and the stem is then looked for inside words.
public enum WordStem {
    /// Folded (lowercase, no diacritics) case, number and diminutive endings, longest first.
    static let endings: [String] = ["owie", "ieho", "iemu", "ami", "ach", "ych", "ich", "ymi", "imi", "ego", "emu", "eho", "iem",
                                    "om", "em", "ow", "ov", "och", "ie", "ek", "ka", "ku", "ki", "ke", "ko", "ou", "ej", "ym", "im",
                                    "ia", "iu", "a", "e", "i", "o", "u", "y"].sorted { $0.count > $1.count }

    /// The stem of one folded word.
    public static func stem(_ folded: String) -> String {
        for ending in endings where folded.hasSuffix(ending) && folded.count - ending.count >= 4 {
            return String(folded.dropLast(ending.count))
        }
        return folded
    }

    /// Whether every word of `needle` (folded) has its stem in one of `fields`.
    public static func fields(_ fields: [String], contain needle: String) -> Bool {
        needle.split(separator: " ").allSatisfy { word in
            let stem = stem(String(word))
            return fields.contains { TextFolding.contains($0, folded: stem) }
        }
    }
}
