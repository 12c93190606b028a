/// CLDR plural categories (https://cldr.unicode.org, plurals.xml) for whole numbers, and the index
/// of the `msgstr[n]` form each category has in a catalog. The catalog's `Plural-Forms` header says
/// the same to GNU gettext; `PluralFormsTests` checks both agree.
public enum PluralCategory: String, Sendable {
    case one, few, many, other
}

extension Language {
    /// CLDR's category of a whole number `n` (fractions never reach a plural message: amounts are
    /// shown with unit symbols).
    public func pluralCategory(_ n: Int) -> PluralCategory {
        let n = n.magnitude
        switch self {
        case .english:
            return n == 1 ? .one : .other
        case .polish:
            // one: i = 1; few: i % 10 = 2..4 and i % 100 != 12..14; many: every other integer.
            if n == 1 { return .one }
            if (2...4).contains(n % 10), !(12...14).contains(n % 100) { return .few }
            return .many
        case .slovak:
            // one: i = 1; few: i = 2..4; many: fractions only; other: every other integer.
            if n == 1 { return .one }
            if (2...4).contains(n) { return .few }
            return .other
        }
    }

    /// The `msgstr[index]` holding `category`'s form: English one/other, Polish one/few/many,
    /// Slovak one/few/other.
    public func pluralIndex(_ n: Int) -> Int {
        switch pluralCategory(n) {
        case .one: 0
        case .few: 1
        case .many, .other: self == .english ? 1 : 2
        }
    }
}
