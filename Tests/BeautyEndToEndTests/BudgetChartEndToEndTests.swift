import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndTiming {
    @Suite("budget balance as a chart: bars in the terminal, --svg to a file", .serialized)
    struct BudgetBalanceChart {
        @Test("budget balance draws income against expenses per currency; --svg writes the same chart to a file")
        func balanceBarsAndSVG() async throws {
            let stack = try await Stack.start(server: false, config: "[money]\ncurrency = \"PLN\"\n")
            defer { stack.shutdown() }
            _ = try await stack.beautyctlOK(["budget", "add", "Salary", "1200", "--income", "--at", "2030-01-05 09:00"])
            _ = try await stack.beautyctlOK(["budget", "add", "Phone", "600", "--at", "2030-01-06 12:00"])
            _ = try await stack.beautyctlOK(["budget", "add", "Szampon", "12,50 EUR", "--at", "2030-01-07 12:00"])

            let text = try await stack.beautyctlOK(["budget", "balance"]).stdout
            let lines = text.split(separator: "\n").map(String.init)
            let income = try #require(lines.first { $0.hasPrefix("PLN  income") }, "\(text)")
            let expense = try #require(
                lines.first { $0.hasPrefix("     expense") && $0.hasSuffix("600.00") }, "\(text)")
            let incomeBar = income.filter { $0 == "█" }.count, expenseBar = expense.filter { $0 == "█" }.count
            #expect(incomeBar > 0 && abs(incomeBar - 2 * expenseBar) <= 1, "income twice the expense:\n\(text)")
            #expect(
                lines.contains("     balance  +600.00") && lines.contains { $0.hasPrefix("EUR  income") }, "\(text)")
            #expect(lines.allSatisfy { $0.count <= 80 }, "\(text)")

            let file = stack.directory + "/budget.svg"
            let wrote = try await stack.beautyctlOK(["budget", "balance", "--from", "2030-01-01", "--svg", file])
            #expect(wrote.stdout.hasPrefix("Wrote \(file): balance since"), "\(wrote)")
            let svg = try String(contentsOfFile: file, encoding: .utf8)
            #expect(
                svg.hasPrefix("<?xml") && svg.contains("<title>Income: 1200.00 PLN</title>")
                    && svg.contains("Balance: +600.00 PLN")
                    && svg.contains("Balance: -12.50 EUR"), "\(svg)")

            let nowhere = try await stack.beautyctl([
                "budget", "balance", "--svg", stack.directory + "/no/such/dir/b.svg",
            ])
            #expect(nowhere.status == .exited(2) && nowhere.stderr.contains("--svg"), "\(nowhere)")
            let empty = try await stack.beautyctlOK(["budget", "balance", "--from", "2031-01-01", "--svg", file + ".2"])
            #expect(
                empty.stdout.contains("no chart written") && !FileManager.default.fileExists(atPath: file + ".2"),
                "\(empty)")
        }
    }
}
