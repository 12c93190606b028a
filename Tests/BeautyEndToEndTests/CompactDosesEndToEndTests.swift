import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndBus {
    @Suite("agenda shows a day's doses on one line unless asked: real beautyctl and beautyd", .serialized)
    struct CompactDoses {
        @Test(
            "two weeks of two daily doses and a visit: one 'Dawki: …' line a day, the visit on its own, --doses lists each"
        )
        func dosesOneLineADay() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            _ = try await stack.beautyctlOK(["med", "add", "Witamina D", "--at", "08:00"])
            _ = try await stack.beautyctlOK(["med", "add", "Magnez", "--at", "20:00"])
            let calendar = LocalTime.calendar(testTimeZone)
            let start = calendar.date(byAdding: .day, value: 3, to: calendar.startOfDay(for: Date()))!
            let visit = calendar.date(byAdding: .hour, value: 14, to: start)!
            _ = try await stack.beautyctlOK(["appointment", "add", "Manicure", "--at", iso(visit)])
            let range = [
                "agenda", "--from", iso(start), "--to", iso(calendar.date(byAdding: .day, value: 14, to: start)!),
            ]

            let compact = try await stack.beautyctl(range, lang: "pl_PL.UTF-8")
            #expect(compact.status == .exited(0), "\(compact)")
            let lines = compact.stdout.split(separator: "\n").map(String.init)
            let doseLines = lines.filter { $0.hasPrefix("  Dawki: ") }
            #expect(doseLines.count == 14, "\(compact.stdout)")
            #expect(doseLines.first == "  Dawki: 08:00 Witamina D, 20:00 Magnez", "\(compact.stdout)")
            #expect(
                lines.contains { $0.contains("Manicure") }
                    && !lines.contains { $0.hasPrefix("  08:00") || $0.hasPrefix("  20:00") }, "\(compact.stdout)")
            #expect(compact.stdout.contains("Każda dawka w osobnym wierszu, z jej id: --doses"), "\(compact.stdout)")
            #expect(lines.count < 50, "\(lines.count) lines: \(compact.stdout)")

            let full = try await stack.beautyctlOK(range + ["--doses"]).stdout
            #expect(full.components(separatedBy: "Witamina D").count - 1 == 14 && !full.contains("Doses: "), "\(full)")
            let onlyDoses = try await stack.beautyctlOK(range + ["--kind", "medication"]).stdout
            #expect(!onlyDoses.contains("Doses: "), "asking for doses alone lists each: \(onlyDoses)")
        }
    }
}
