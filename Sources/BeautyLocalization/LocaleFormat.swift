import Foundation

/// Numbers, money and dates as people of a language write them: a decimal comma and a
/// no-break-space (U+00A0, what Foundation's pl and sk locales group with) between thousands in
/// Polish and Slovak, `1 234,50 zł` / `1 234,50 €`; English stays as beautyd always wrote it
/// (`1234.50`, `45.00 EUR`). Grouping is applied from 1 000 in both (Foundation's Polish locale
/// leaves four-digit amounts ungrouped; Polish typography groups them in money).
public struct LocaleFormat: Sendable {
    public let language: Language
    public static let groupSeparator = "\u{00A0}"

    public init(_ language: Language) { self.language = language }

    private var decimalSeparator: String { language == .english ? "." : "," }

    /// The digits of `magnitude` grouped by three (only outside English).
    private func grouped(_ magnitude: UInt64) -> String {
        let digits = String(magnitude)
        guard language != .english, digits.count > 3 else { return digits }
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return groups.joined(separator: Self.groupSeparator)
    }

    public func integer(_ value: Int) -> String {
        (value < 0 ? "-" : "") + grouped(UInt64(value.magnitude))
    }

    /// `value` rounded to `digits` decimals ("22,9").
    public func decimal(_ value: Double, digits: Int) -> String {
        let english = String(format: "%.\(digits)f", value)
        guard language != .english else { return english }
        let negative = english.hasPrefix("-")
        let parts = english.drop { $0 == "-" }.split(separator: ".")
        let whole = grouped(UInt64(parts[0]) ?? 0)
        return (negative ? "-" : "") + whole + (parts.count > 1 ? "," + parts[1] : "")
    }

    /// An exact amount of minor units: "1 234,50 zł", "1 234,50 €", "12,00 CZK"; English "45.00 EUR".
    public func money(cents: Int64, currency: String) -> String {
        let magnitude = cents.magnitude
        let fraction = magnitude % 100
        let number =
            "\(cents < 0 ? "-" : "")\(grouped(magnitude / 100))\(decimalSeparator)\(fraction < 10 ? "0" : "")\(fraction)"
        guard language != .english else { return "\(number) \(currency)" }
        let symbol = ["PLN": "zł", "EUR": "€"][currency] ?? currency
        return number + Self.groupSeparator + symbol
    }
}
