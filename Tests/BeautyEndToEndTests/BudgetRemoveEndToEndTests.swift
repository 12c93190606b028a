import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndServing {
    @Suite("budget rm: one request for the entry it asks about, real beautyctl", .serialized)
    struct BudgetRemoveRequests {
        @Test("budget rm asks beautyd for that entry alone, not the whole list; its output and exit codes stay")
        func removeAsksForOneEntry() async throws {
            let stack = try await Stack.start(server: false, config: "[money]\ncurrency = \"PLN\"\n")
            defer { stack.shutdown() }
            let client = try stack.client()
            // Many entries: naming one must not cost all of them.
            for day in 1...40 {
                let _: BudgetEntry = try client.call(
                    "budget.add", BudgetAddParams(name: "Coffee \(day)", amount: PriceParam(cents: 350, currency: nil)))
            }
            let phone: BudgetEntry = try client.call(
                "budget.add", BudgetAddParams(name: "Phone", amount: PriceParam(cents: 150_000, currency: nil)))
            let recorder = try await stack.startRequestRecorder()

            // No terminal: it names the entry and refuses without --yes, deleting nothing.
            let asked = try await stack.beautyctl(["budget", "rm", "\(phone.id)"], through: recorder)
            #expect(asked.status == .exited(2), "\(asked)")
            #expect(
                asked.stderr.hasPrefix(
                    "beautyctl: not asking on a non-terminal: add --yes to delete expense \(phone.id): Phone, -1500.00 PLN, "
                ), "\(asked)")
            #expect(recorder.methods == ["budget.show"], "one request for one entry: \(recorder.methods)")

            // An unknown id: beautyd's not-found, exit 4, as when the client searched the list itself.
            let unknown = try await stack.beautyctl(["budget", "rm", "999"], through: recorder)
            #expect(unknown.status == .exited(4), "\(unknown)")
            #expect(unknown.stderr == "beautyctl: no budget entry with id 999\n", "\(unknown)")
            #expect(recorder.methods == ["budget.show", "budget.show"], "\(recorder.methods)")

            // --yes asks nothing: the removal is the only request.
            let removed = try await stack.beautyctl(["budget", "rm", "\(phone.id)", "--yes"], through: recorder)
            #expect(removed.status == .exited(0), "\(removed)")
            #expect(removed.stdout.hasPrefix("Deleted expense \(phone.id): Phone, -1500.00 PLN, "), "\(removed)")
            #expect(recorder.methods == ["budget.show", "budget.show", "budget.rm"], "\(recorder.methods)")
            let left: [BudgetEntry] = try client.call("budget.list", BudgetRangeParams())
            #expect(left.count == 40 && !left.contains { $0.id == phone.id })
        }
    }
}
