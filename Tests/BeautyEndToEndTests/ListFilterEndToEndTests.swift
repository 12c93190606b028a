import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndBus {
    @Suite("List filters given several times: real beautyctl", .serialized)
    struct RepeatedFilters {
        @Test(
            "agenda --category, --kind, --search and tips --category, --search given twice keep what matches any of them; --from, --limit, --at twice exit 2 naming the option"
        )
        func repeatedFilters() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            for (title, at, category) in [
                ("Cut", "2030-03-05 16:00", "hair/cut"), ("Manicure", "2030-03-06 16:00", "nails"),
                ("Facial", "2030-03-07 10:00", "face"),
            ] {
                _ = try await stack.beautyctlOK(["appointment", "add", title, "--at", at, "--category", category])
            }
            _ = try await stack.beautyctlOK([
                "med", "add", "Vitamin D", "--dose", "1 capsule", "--at", "08:00", "--from", "2030-03-05",
                "--until", "2030-03-05",
            ])

            let twoCategories = try await stack.agenda2030(["--category", "hair", "--category", "nails"])
            #expect(
                twoCategories.entries.map(\.title) == ["Cut", "Manicure"],
                "not only the last category: \(twoCategories.entries)")
            let twoTexts = try await stack.agenda2030(["--search", "cut", "--search", "FACIAL"])
            #expect(twoTexts.entries.map(\.title) == ["Cut", "Facial"], "\(twoTexts.entries)")
            let twoKinds = try await stack.agenda2030(["--kind", "medication", "--kind", "appointment"])
            #expect(twoKinds.entries.map(\.title) == ["Vitamin D", "Cut", "Manicure", "Facial"], "\(twoKinds.entries)")
            let oneKind = try await stack.agenda2030(["--kind", "medication"])
            #expect(oneKind.entries.map(\.title) == ["Vitamin D"], "\(oneKind.entries)")
            let combined = try await stack.agenda2030([
                "--category", "hair", "--category", "face", "--search", "facial", "--search", "manicure",
            ])
            #expect(
                combined.entries.map(\.title) == ["Facial"], "different filters still all apply: \(combined.entries)")
            let statuses = try await stack.agenda2030([
                "--status", "done", "--status", "scheduled", "--kind", "appointment",
            ])
            #expect(statuses.total == 3)

            let hairOrNails = try await stack.beautyctlJSON(
                ["tips", "--category", "hair", "--category", "nails"], as: [Tip].self)
            #expect(Set(hairOrNails.map(\.category)) == [.hair, .nails], "\(hairOrNails.map(\.id))")
            let silkOrAlmond = try await stack.beautyctlJSON(
                ["tips", "--search", "silk", "--search", "almond"], as: [Tip].self)
            #expect(silkOrAlmond.map(\.id) == [13, 17], "\(silkOrAlmond.map(\.id))")

            for arguments in [
                ["agenda", "--from", "2030-03-01", "--from", "2030-03-02"], ["agenda", "--limit", "1", "--limit=2"],
                ["budget", "list", "--to", "2030-03-01", "--to", "2030-04-01"],
                ["appointment", "add", "Brows", "--at", "2030-03-08 10:00", "--at", "2030-03-09 10:00"],
            ] {
                let option = arguments.first { $0.hasPrefix("--") }!
                let refused = try await stack.beautyctl(arguments)
                #expect(
                    refused.status == .exited(2)
                        && refused.stderr.contains("\(option): given twice, but it takes one value"),
                    "\(arguments): \(refused)")
            }
            let all = try await stack.agenda2030(["--kind", "appointment"])
            #expect(all.total == 3, "the refused add added nothing")
        }
    }
}
