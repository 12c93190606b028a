import BeautyCore
import Foundation
import Testing

@Suite("BudgetChart: income against expenses as bars")
struct BudgetChartTests {
    let rows = [
        BudgetChart.Row(currency: "EUR", incomeCents: 300, expenseCents: 1_250),
        BudgetChart.Row(currency: "PLN", incomeCents: 120_000, expenseCents: 60_000),
    ]

    @Test func eachCurrencyOnItsOwnScaleWithinTheWidth() {
        let text = BudgetChart.text(rows, width: 40)
        #expect(
            text == """
                EUR  income   ████                  3.00
                     expense  ██████████████████   12.50
                     balance  -9.50
                PLN  income   ██████████████████ 1200.00
                     expense  █████████           600.00
                     balance  +600.00

                """)
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 40 }, "\(text)")
    }

    @Test func aTinyAmountStillShowsAndNothingIsNoBar() {
        let text = BudgetChart.text(
            [BudgetChart.Row(currency: "EUR", incomeCents: 1, expenseCents: 1_000_000)], width: 60)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0].contains("income   █ ") && lines[2].hasSuffix("-9999.99"), "\(text)")
        let none = BudgetChart.text([BudgetChart.Row(currency: "EUR", incomeCents: 0, expenseCents: 500)], width: 60)
        #expect(!none.split(separator: "\n")[0].contains("█"), "\(none)")
    }

    @Test func svgHasABarPerSideWithItsAmountAndEscapesTheTitle() {
        let svg = BudgetChart.svg(rows, title: "Balance <all time>")
        #expect(svg.hasPrefix("<?xml") && svg.hasSuffix("</svg>\n"))
        #expect(svg.contains("<title>Balance &lt;all time&gt;</title>"))
        #expect(
            svg.contains(#"class="income" x="150.0" y="56.0" width="120.0""#),
            "3.00 of 12.50 on a 500-wide scale: \(svg)")
        #expect(svg.contains(#"class="expense" x="150.0" y="86.0" width="500.0""#), "\(svg)")
        #expect(svg.contains("Balance: -9.50 EUR") && svg.contains("Balance: +600.00 PLN"))
        #expect(svg.contains(#"data-currency="PLN""#) && svg.contains("<title>Expenses: 600.00 PLN</title>"))
    }
}
