import BeautyLocalization
import Foundation

/// Income against expenses per currency, as bars: in the terminal (`beautyctl budget balance`) and as
/// an SVG file (`--svg`). Currencies are never drawn on one scale: each has its own, its larger side
/// the full bar, since 100 EUR and 100 PLN are not the same length of money.
public enum BudgetChart {
    public struct Row: Sendable, Equatable {
        public var currency: String
        public var incomeCents: Int64
        public var expenseCents: Int64
        public init(currency: String, incomeCents: Int64, expenseCents: Int64) {
            self.currency = currency
            self.incomeCents = incomeCents
            self.expenseCents = expenseCents
        }

        public var balanceCents: Int64 { incomeCents - expenseCents }
    }

    /// "1200.00", "-9.50"; "1 200,00" with a decimal comma.
    static func amount(_ cents: Int64, _ language: Language = .english) -> String {
        LocaleFormat(language).money(cents: cents, currency: "").trimmingCharacters(in: .whitespaces)
    }

    /// How many of `width` cells `cents` fills against `largest`: rounded, at least one for anything above zero.
    static func cells(_ cents: Int64, of largest: Int64, width: Int) -> Int {
        guard cents > 0, largest > 0 else { return 0 }
        return max(1, Int((Double(cents) / Double(largest) * Double(width)).rounded()))
    }

    /// Two bars a currency, `width` characters at most; lines end in "\n".
    ///
    ///     PLN  income   ██████████████████████████████           1200.00
    ///          expense  ████████████████████████████████████████ 1500.00
    ///          balance  -300.00
    public static func text(_ rows: [Row], width: Int = 80, localizer l: Localizer = .english) -> String {
        let amount = { (cents: Int64) in Self.amount(cents, l.language) }
        let labels = [
            l.trc("budget chart", "income"), l.trc("budget chart", "expense"), l.trc("budget chart", "balance"),
        ]
        let labelWidth = labels.map(\.count).max() ?? 7
        let (income, expense, balance) = (
            pad(labels[0], labelWidth), pad(labels[1], labelWidth), pad(labels[2], labelWidth)
        )
        let codeWidth = rows.map(\.currency.count).max() ?? 3
        let amountWidth = rows.flatMap { [amount($0.incomeCents), amount($0.expenseCents)] }.map(\.count).max() ?? 4
        let barWidth = max(10, width - codeWidth - 2 - labelWidth - 2 - 1 - amountWidth)
        var out = ""
        for row in rows {
            let largest = max(row.incomeCents, row.expenseCents)
            let indent = String(repeating: " ", count: codeWidth)
            for (index, (label, cents)) in [(income, row.incomeCents), (expense, row.expenseCents)].enumerated() {
                let filled = cells(cents, of: largest, width: barWidth)
                let bar = String(repeating: "█", count: filled) + String(repeating: " ", count: barWidth - filled)
                let value = amount(cents)
                let code = index == 0 ? row.currency.padding(toLength: codeWidth, withPad: " ", startingAt: 0) : indent
                out += "\(code)  \(label)  \(bar) \(String(repeating: " ", count: amountWidth - value.count))\(value)\n"
            }
            out += "\(indent)  \(balance)  \(row.balanceCents > 0 ? "+" : "")\(amount(row.balanceCents))\n"
        }
        return out
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.padding(toLength: width, withPad: " ", startingAt: 0)
    }

    public static let svgWidth = 760.0
    static let incomeColor = "#2e7d32"
    static let expenseColor = "#c62828"
    static let black = "#000000"

    /// An SVG image: a title, then per currency a bar for income and one for expenses (each with its
    /// amount, and a `<title>` shown on hover) and the balance.
    public static func svg(_ rows: [Row], title: String, localizer l: Localizer = .english) -> String {
        let left = 150.0, right = 110.0, top = 56.0, rowHeight = 96.0, barHeight = 24.0
        let height = top + rowHeight * Double(max(rows.count, 1)) + 16
        let plotWidth = svgWidth - left - right
        func n(_ value: Double) -> String { String(format: "%.1f", value) }
        let escape = MeasurementChart.escape
        var out = MeasurementChart.svgOpening(width: svgWidth, height: height, title: title)
        if rows.isEmpty {
            out.append(
                #"<text class="no-data" x="\#(n(svgWidth / 2))" y="\#(n(top + 30))" text-anchor="middle">\#(escape(l.tr("No budget entries")))</text>"#
            )
        }
        for (index, row) in rows.enumerated() {
            let y = top + rowHeight * Double(index)
            let largest = max(row.incomeCents, row.expenseCents)
            let currency = escape(row.currency)
            out.append(#"<g class="currency" data-currency="\#(currency)">"#)
            out.append(
                #"  <text class="currency-label" x="16" y="\#(n(y + barHeight))" font-weight="bold">\#(currency)</text>"#
            )
            for (offset, (kind, cents, color)) in [
                ("income", row.incomeCents, incomeColor), ("expense", row.expenseCents, expenseColor),
            ].enumerated() {
                let barY = y + Double(offset) * (barHeight + 6)
                let length = largest > 0 ? plotWidth * Double(cents) / Double(largest) : 0
                let name = kind == "income" ? l.trc("budget chart", "Income") : l.trc("budget chart", "Expenses")
                let label = "\(name): \(amount(cents, l.language)) \(row.currency)"
                out.append(
                    #"  <text class="bar-label" x="\#(n(left - 8))" y="\#(n(barY + barHeight * 0.7))" text-anchor="end">\#(escape(name))</text>"#
                )
                out.append(
                    #"  <rect class="\#(kind)" x="\#(n(left))" y="\#(n(barY))" width="\#(n(length))" height="\#(n(barHeight))" fill="\#(color)" data-cents="\#(cents)"><title>\#(escape(label))</title></rect>"#
                )
                out.append(
                    #"  <text class="amount" x="\#(n(left + length + 6))" y="\#(n(barY + barHeight * 0.7))">\#(amount(cents, l.language))</text>"#
                )
            }
            let balance = (row.balanceCents > 0 ? "+" : "") + amount(row.balanceCents, l.language)
            out.append(
                #"  <text class="balance" x="\#(n(left))" y="\#(n(y + 2 * (barHeight + 6) + 14))" fill="\#(row.balanceCents < 0 ? expenseColor : black)">\#(escape(l.tr("Balance: %s %s", balance, row.currency)))</text>"#
            )
            out.append("</g>")
        }
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }
}
