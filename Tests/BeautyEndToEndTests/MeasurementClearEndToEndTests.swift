import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndServing {
    @Suite("measure clear: one count for the question it asks, real beautyctl", .serialized)
    struct MeasurementClearRequests {
        @Test("measure clear asks beautyd how many there are, not for all of them; its output and exit codes stay")
        func clearAsksForTheCount() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let client = try stack.client()
            for day in ["2025-03-10", "2025-03-17", "2025-03-24"] {
                let _: MeasurementAddResult = try client.call(
                    "measure.add", MeasurementAddParams(weightKg: 64, heightCm: 160, day: try LocalDate(parsing: day)))
            }
            let recorder = try await stack.startRequestRecorder()

            // No terminal: it says how many and refuses without --yes, deleting nothing.
            let asked = try await stack.beautyctl(["measure", "clear"], through: recorder)
            #expect(asked.status == .exited(2), "\(asked)")
            #expect(
                asked.stderr == "beautyctl: not asking on a non-terminal: add --yes to delete all 3 measurements\n",
                "\(asked)")
            #expect(recorder.methods == ["measure.count"], "one small request: \(recorder.methods)")

            let cleared = try await stack.beautyctl(["measure", "clear", "--yes"], through: recorder)
            #expect(cleared.status == .exited(0) && cleared.stdout == "Deleted 3 measurements.\n", "\(cleared)")
            #expect(recorder.methods == ["measure.count", "measure.clear"], "\(recorder.methods)")

            // Nothing left: said so, nothing asked, nothing deleted.
            let none = try await stack.beautyctl(["measure", "clear"], through: recorder)
            #expect(none.status == .exited(0) && none.stdout == "No measurements to delete.\n", "\(none)")
            #expect(recorder.methods == ["measure.count", "measure.clear", "measure.count"], "\(recorder.methods)")
        }
    }
}
