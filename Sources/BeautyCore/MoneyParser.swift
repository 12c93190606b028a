import BeautyLocalization
import Foundation

/// Amounts as typed: `45`, `45.5`, `45,50`, `1 234,50`, `1,234.50`, `1.234,50`, with a currency code or
/// symbol before or after (`45 PLN`, `PLN 45`, `10 zł`, `10zł`, `10 €`, `€10`, `10,50 EUR`).
///
/// One separator followed by three digits (`10,500`, `1.234`) is refused: a decimal comma makes it
/// 10.5, a thousands comma 10500, and both are how someone writes money.
public enum MoneyParser {
    /// Symbols people type for a currency, lower-cased.
    static let symbols: [String: String] = ["zł": "PLN", "zl": "PLN", "€": "EUR"]

    /// `language` is the reader's of a refusal: an ambiguous amount's decimal meaning is written as they write decimals.
    public static func parse(
        _ text: String, defaultCurrency: String, allowNegative: Bool = false, field: String = "price",
        language: Language = .english
    ) throws -> Money {
        // Copied amounts may group thousands with a no-break or narrow no-break space.
        var rest = text.replacingOccurrences(of: "\u{00A0}", with: " ").replacingOccurrences(of: "\u{202F}", with: " ")
            .trimmingCharacters(in: .whitespaces)
        var negative = false
        if rest.hasPrefix("-") {
            negative = true
            rest = String(rest.dropFirst()).trimmingCharacters(in: .whitespaces)
        }
        var currency: String?
        if let (code, remaining) = currencyAtStart(rest) ?? currencyAtEnd(rest) {
            currency = code
            rest = remaining.trimmingCharacters(in: .whitespaces)
        }
        if rest.hasPrefix("-"), !negative {
            negative = true
            rest = String(rest.dropFirst())
        }
        if negative, !allowNegative { throw ValidationError(field: field, template: "'%s' must not be negative", text) }
        guard !rest.isEmpty else {
            throw ValidationError(
                field: field, template: "'%s' is not an amount (e.g. 45, 45,50, 1 234,50 zł, PLN 10, 10,50 €, €10)",
                text)
        }
        let cents = try self.cents(rest, text: text, field: field, language: language)
        return Money(cents: negative ? -cents : cents, currency: currency ?? defaultCurrency)
    }

    /// A code or symbol starting the text ("PLN 10", "€10"), and what follows it.
    private static func currencyAtStart(_ text: String) -> (String, Substring)? {
        if let symbol = symbols.keys.first(where: { text.lowercased().hasPrefix($0) }) {
            return (symbols[symbol]!, text.dropFirst(symbol.count))
        }
        let letters = text.prefix { $0.isASCII && $0.isLetter }
        guard letters.count == 3 else { return nil }
        return (letters.uppercased(), text.dropFirst(3))
    }

    /// A code or symbol ending the text ("10 zł", "10,50EUR"), and what precedes it.
    private static func currencyAtEnd(_ text: String) -> (String, Substring)? {
        if let symbol = symbols.keys.first(where: { text.lowercased().hasSuffix($0) }) {
            return (symbols[symbol]!, text.dropLast(symbol.count))
        }
        let letters = text.reversed().prefix { $0.isASCII && $0.isLetter }
        guard letters.count == 3 else { return nil }
        return (String(letters.reversed()).uppercased(), text.dropLast(3))
    }

    /// The cents of a number with an optional decimal part and optional thousands grouping.
    private static func cents(_ number: String, text: String, field: String, language: Language) throws -> Int64 {
        let notAmount = ValidationError(
            field: field, template: "'%s' is not an amount (e.g. 45, 45,50, 1 234,50 zł, PLN 10, 10,50 €, €10)", text)
        let isDigit: (Character) -> Bool = { $0.isASCII && $0.isNumber }
        guard number.allSatisfy({ isDigit($0) || $0 == "," || $0 == "." || $0 == " " }), number.contains(where: isDigit)
        else {
            throw notAmount
        }
        let commas = number.filter { $0 == "," }.count, dots = number.filter { $0 == "." }.count
        let spaced = number.contains(" ")
        // The decimal separator: the later of ',' and '.' when both appear; a lone one unless it repeats.
        var decimal: Character?
        if commas > 0, dots > 0 {
            decimal = number.lastIndex(of: ",")! > number.lastIndex(of: ".")! ? "," : "."
        } else if commas == 1 || dots == 1 {
            decimal = commas == 1 ? "," : "."
        }
        var whole = Substring(number), fraction = Substring("")
        if let decimal, let at = number.lastIndex(of: decimal) {
            whole = number[..<at]
            fraction = number[number.index(after: at)...]
            // "10,500": a decimal comma or a thousands comma? Grouping with spaces says which.
            if fraction.count == 3, !spaced, commas + dots == 1 {
                let plain = whole.filter(isDigit) + fraction
                throw ValidationError(
                    field: field,
                    template: "'%s' is ambiguous: %s or %s? Write %s for the first, %s or %s for the second",
                    text, "\(whole)\(language != .english ? "," : decimal == "," ? "." : ",")\(fraction.prefix(2))",
                    plain,
                    "\(whole)\(decimal)\(fraction.prefix(2))", "\(whole) \(fraction)", plain)
            }
            guard (1...2).contains(fraction.count), fraction.allSatisfy(isDigit) else {
                throw ValidationError(
                    field: field,
                    template:
                        "'%s' is not an amount (at most two digits after the decimal '%s'; e.g. 45, 45,50, 1 234,50 zł, PLN 10, 10,50 €, €10)",
                    text, decimal)
            }
        }
        guard Set(whole.filter { !isDigit($0) }).count <= 1 else { throw notAmount }
        let groups = whole.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == " " || $0 == "," || $0 == "." })
        guard let first = groups.first, (groups.count == 1 ? !first.isEmpty : (1...3).contains(first.count)),
            groups.dropFirst().allSatisfy({ $0.count == 3 }), groups.allSatisfy({ $0.allSatisfy(isDigit) })
        else {
            throw ValidationError(
                field: field,
                template:
                    "'%s' is not an amount (thousands are grouped by three: 1 234,50; e.g. 45, 45,50, 1 234,50 zł, PLN 10, 10,50 €, €10)",
                text)
        }
        guard let units = Int64(groups.joined()), units <= 1_000_000_000 else {
            throw ValidationError(field: field, template: "'%s' is too large", text)
        }
        let cents = fraction.isEmpty ? 0 : Int64(fraction)! * (fraction.count == 1 ? 10 : 1)
        return units * 100 + cents
    }
}
