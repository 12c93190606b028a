/// A searched word reduced to its stem, so a search finds the word's other forms: `olejek` finds
/// "olejku", `krém` finds "krémom", `filtr` finds "filtrem". Not a dictionary stemmer but a
/// documented suffix rule: the longest of the common Polish and Slovak case endings below is cut
/// off when at least four letters stay (-ek leaves its k: olejek → olejk), and the stem is then
/// looked for inside words.
public enum WordStem {
    /// Folded (lowercase, no diacritics) case, number and diminutive endings, longest first.
    static let endings: [String] = [
        "owie", "ieho", "iemu", "ami", "ach", "ych", "ich", "ymi", "imi", "ego", "emu", "eho", "iem",
        "om", "em", "ow", "ov", "och", "ie", "ek", "ka", "ku", "ki", "ke", "ko", "ou", "ej", "ym", "im",
        "ia", "iu", "a", "e", "i", "o", "u", "y",
    ].sorted { $0.count > $1.count }

    /// The stem of one folded word.
    public static func stem(_ folded: String) -> String {
        for ending in endings where folded.hasSuffix(ending) && folded.count - ending.count >= 4 {
            // Polish -ek loses its e in the other forms (olejek, olejku; skórek, skórki): the stem keeps
            // the k, so skórek does not find skórę.
            return String(folded.dropLast(ending.count)) + (ending == "ek" ? "k" : "")
        }
        return folded
    }

    /// Whether every word of `needle` (folded), as typed or by its stem, is in one of `fields`.
    public static func fields(_ fields: [String], contain needle: String) -> Bool {
        needle.split(separator: " ").allSatisfy { word in
            let forms = Set([String(word), stem(String(word))])
            return fields.contains { field in forms.contains { TextFolding.contains(field, folded: $0) } }
        }
    }
}
