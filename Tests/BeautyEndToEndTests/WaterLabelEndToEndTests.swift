import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndBus {
    @Suite("Water totals over part of a day", .serialized)
    struct WaterPartOfADay {
        @Test(
            "water total over part of a day says which part, with no share of the daily goal; a whole day keeps its progress"
        )
        func partOfADayIsLabelled() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            _ = try await stack.beautyctlOK(["water", "goal", "2000"])
            for (amount, at) in [("500", "2026-01-07 08:30"), ("500", "2026-01-07 13:00"), ("250", "2026-01-08 09:00")]
            {
                _ = try await stack.beautyctlOK(["water", "add", amount, "--at", at])
            }
            let whole = try await stack.beautyctlOK(["water", "total", "--from", "2026-01-07", "--to", "2026-01-08"])
                .stdout
            #expect(whole.hasPrefix("Wed 7 Jan 2026: 1000 of 2000 ml (50%), 2 drink(s)."), "\(whole)")

            let afternoon = try await stack.beautyctlOK([
                "water", "total", "--from", "2026-01-07 12:00", "--to", "2026-01-07 18:00",
            ]).stdout
            #expect(afternoon.hasPrefix("Wed 7 Jan 2026 12:00–18:00: 500 ml, 1 drink(s)"), "\(afternoon)")
            #expect(
                !afternoon.contains("%") && !afternoon.contains("of 2000"),
                "a part of a day is not the day's progress: \(afternoon)")
            let sinceNoon = try await stack.beautyctlOK([
                "water", "total", "--from", "2026-01-07 12:00", "--to", "2026-01-08",
            ]).stdout
            #expect(sinceNoon.hasPrefix("Wed 7 Jan 2026 from 12:00: 500 ml"), "\(sinceNoon)")
            let morning = try await stack.beautyctlOK([
                "water", "total", "--from", "2026-01-07", "--to", "2026-01-07 12:00",
            ]).stdout
            #expect(morning.hasPrefix("Wed 7 Jan 2026 until 12:00: 500 ml"), "\(morning)")

            // Over several days, only the cut days are marked.
            let table = try await stack.beautyctlOK([
                "water", "total", "--from", "2026-01-07 12:00", "--to", "2026-01-09",
            ]).stdout
            let lines = table.split(separator: "\n").map(String.init)
            #expect(
                lines.contains { $0.hasPrefix("Wed 7 Jan 2026 (from 12:00)") && $0.hasSuffix("part of the day") },
                "\(table)")
            #expect(lines.contains { $0.hasPrefix("Thu 8 Jan 2026 ") && $0.hasSuffix("12%") }, "\(table)")
        }
    }
}
