import Foundation

/// Amounts as typed: `45`, `45.5`, `45,50`, optionally followed by a currency code (`45 PLN`).
public enum MoneyParser {
    public static func parse(_ text: String, defaultCurrency: String, allowNegative: Bool = false, field: String = "price") throws -> Money {
        var parts = text.trimmingCharacters(in: .whitespaces).split(separator: " ").map(String.init)
        var currency = defaultCurrency
        if parts.count == 2, parts[1].count == 3, parts[1].allSatisfy({ $0.isASCII && $0.isLetter }) {
            currency = parts.removeLast().uppercased()
        }
        guard parts.count == 1, var number = parts.first else {
            throw ValidationError(field: field, "'\(text)' is not an amount (e.g. 45.00 or 45,50 PLN)")
        }
        var negative = false
        if number.hasPrefix("-") {
            guard allowNegative else { throw ValidationError(field: field, "must not be negative") }
            negative = true
            number.removeFirst()
        }
        let pieces = number.split(separator: number.contains(",") ? "," : ".", omittingEmptySubsequences: false)
        let onlyDigits: (Substring) -> Bool = { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
        guard !(number.contains(",") && number.contains(".")), (1...2).contains(pieces.count), onlyDigits(pieces[0]),
              pieces.count == 1 || (onlyDigits(pieces[1]) && pieces[1].count <= 2)
        else {
            throw ValidationError(field: field, "'\(text)' is not an amount (digits with at most two decimals after '.' or ',')")
        }
        guard let units = Int64(pieces[0]), units <= 1_000_000_000 else {
            throw ValidationError(field: field, "'\(text)' is too large")
        }
        var fraction: Int64 = 0
        if pieces.count == 2 {
            fraction = Int64(pieces[1])! * (pieces[1].count == 1 ? 10 : 1)
        }
        let cents = units * 100 + fraction
        return Money(cents: negative ? -cents : cents, currency: currency)
    }
}
