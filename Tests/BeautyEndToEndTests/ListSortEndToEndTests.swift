import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndBus {
    @Suite("Lists sorted by title, time, category or price: real beautyctl", .serialized)
    struct SortedLists {
        @Test(
            "--sort and --reverse on agenda (paged after the sort) and the record lists; no price or category last; a key a list lacks refused"
        )
        func sortedLists() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            for arguments in [
                ["cut", "--at", "2030-03-05 16:00", "--category", "hair/cut"],
                ["Manicure", "--at", "2030-03-06 16:00", "--category", "nails", "--price", "80"],
                ["Ćwiczenia", "--at", "2030-03-07 10:00", "--price", "120"],
                ["Brows", "--at", "2030-03-04 10:00", "--category", "face", "--price", "80"],
            ] {
                _ = try await stack.beautyctlOK(["appointment", "add"] + arguments)
            }
            let byTitle = try await stack.agenda2030(["--sort", "title"])
            #expect(
                byTitle.entries.map(\.title) == ["Brows", "cut", "Ćwiczenia", "Manicure"],
                "case and accents ignored: \(byTitle.entries)")
            let dearest = try await stack.agenda2030(["--sort", "price", "--reverse", "--limit", "2"])
            #expect(
                dearest.entries.map(\.title) == ["Ćwiczenia", "Brows"] && dearest.total == 4,
                "the page is taken after the sort; equal prices keep time order: \(dearest.entries)")
            let nextPage = try await stack.agenda2030(["--sort", "price", "--reverse", "--limit", "2", "--offset", "2"])
            #expect(
                nextPage.entries.map(\.title) == ["Manicure", "cut"],
                "no price comes last, reversed too: \(nextPage.entries)")
            let latest = try await stack.agenda2030(["--reverse"])
            #expect(latest.entries.map(\.title) == ["Ćwiczenia", "Manicure", "cut", "Brows"])

            let byCategory = try await stack.beautyctlJSON(
                ["appointment", "list", "--sort", "category"], as: [Appointment].self)
            #expect(
                byCategory.map(\.title) == ["Brows", "cut", "Manicure", "Ćwiczenia"],
                "no category last: \(byCategory.map(\.title))")
            let cheapest = try await stack.beautyctlOK(["appointment", "list", "--sort", "price"]).stdout
            let rows = cheapest.split(separator: "\n").dropFirst().map { String($0.split(separator: " ").last ?? "") }
            #expect(
                rows == ["Brows", "Manicure", "Ćwiczenia", "cut"], "the text table in the daemon's order: \(cheapest)")
            #expect(
                cheapest.contains("PRICE") && cheapest.contains("80.00 EUR") && cheapest.contains("120.00 EUR"),
                "sorted by price, prices shown: \(cheapest)")

            _ = try await stack.beautyctlOK(["contact", "add", "Salon Anna", "--phone", "600100200"])
            _ = try await stack.beautyctlOK(["contact", "add", "Atelier Ewa", "--phone", "600100300"])
            let contacts = try await stack.beautyctlJSON(
                ["contact", "list", "--sort", "title", "--reverse"], as: [Contact].self)
            #expect(contacts.map(\.name) == ["Salon Anna", "Atelier Ewa"])
            _ = try await stack.beautyctlOK(["med", "add", "Zinc"])
            _ = try await stack.beautyctlOK(["med", "add", "Iron"])
            let meds = try await stack.beautyctlJSON(["med", "list", "--sort", "title"], as: [Medication].self)
            #expect(meds.map(\.name) == ["Iron", "Zinc"])
            for (name, amount) in [("Phone", "50"), ("Shampoo", "12,99"), ("Salary", "3200")] {
                _ = try await stack.beautyctlOK(
                    ["budget", "add", name, amount] + (name == "Salary" ? ["--income"] : []))
            }
            let budget = try await stack.beautyctlJSON(
                ["budget", "list", "--sort", "price", "--reverse"], as: [BudgetEntry].self)
            #expect(
                budget.map(\.name) == ["Phone", "Shampoo", "Salary"],
                "the dearest expense first, income last: \(budget.map(\.name))")
            _ = try await stack.beautyctlOK(["budget", "add", "Krem", "20 PLN"])
            let currencies = try await stack.beautyctlJSON(
                ["budget", "list", "--sort", "price"], as: [BudgetEntry].self)
            #expect(
                currencies.map(\.name) == ["Salary", "Shampoo", "Phone", "Krem"],
                "EUR before PLN, never mixed: \(currencies.map(\.name))")
            for day in ["2025-03-01", "2025-03-02"] {
                _ = try await stack.beautyctlOK(["measure", "add", "--weight", "62", "--height", "168", "--date", day])
            }
            let newestFirst = try await stack.beautyctlJSON(
                ["measure", "list", "--sort", "time", "--reverse"], as: [BodyMeasurement].self)
            #expect(newestFirst.map(\.day.description) == ["2025-03-02", "2025-03-01"])
            for (amount, hoursAgo) in [("250", 3.0), ("300", 2.0), ("200", 1.0)] {
                _ = try await stack.beautyctlOK([
                    "water", "add", amount, "--at", iso(Date().addingTimeInterval(-hoursAgo * 3600)),
                ])
            }
            let latestDrinkFirst = try await stack.beautyctlJSON(
                ["water", "list", "--days", "2", "--sort", "time", "--reverse"], as: [WaterRecord].self)
            #expect(latestDrinkFirst.map(\.amountMl) == [200, 300, 250], "\(latestDrinkFirst)")
            let drinksByPrice = try await stack.beautyctl(["water", "list", "--sort", "price"])
            #expect(
                drinksByPrice.status == .exited(1) && drinksByPrice.stderr.contains("'price' is not one of time"),
                "\(drinksByPrice)")

            let lacking = try await stack.beautyctl(["contact", "list", "--sort", "price"])
            #expect(
                lacking.status == .exited(1) && lacking.stderr.contains("'price' is not one of title"), "\(lacking)")
            let unknown = try await stack.beautyctl(["agenda", "--sort", "size"])
            #expect(
                unknown.status == .exited(2)
                    && unknown.stderr.contains("--sort: 'size' is not one of title, time, category, price"),
                "\(unknown)")
        }
    }
}
