import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndTiming {
    @Suite("A water reminder's '+250 ml' button logs a glass: real beautyd and notification server", .serialized)
    struct WaterButton {
        @Test("water remind every minute: the popup carries '+250 ml'; clicking it logs 250 ml now")
        func plus250LogsAGlass() async throws {
            let stack = try await Stack.start()
            defer { stack.shutdown() }
            let clock = Timestamps(zone: testTimeZone)
            let window = "\(clock.clock(Date().addingTimeInterval(-300)))-\(clock.clock(Date().addingTimeInterval(3600)))"
            _ = try await stack.beautyctlOK(["water", "remind", "--every", "1m", "--between", window])
            let calls = await stack.waitForNotifications(1, timeout: .seconds(120))
            let reminder = try #require(calls.first { $0.summary == "Time for a glass of water" }, "\(calls)\n\(stack.logs)")
            #expect(reminder.actions.contains("water-250") && reminder.actions.contains("+250 ml"), "\(reminder.actions)")
            try await stack.click("water-250", on: reminder.id)
            var logged: [WaterRecord] = []
            for _ in 0..<200 where logged.isEmpty {
                logged = try await stack.beautyctlJSON(["water", "list"], as: [WaterRecord].self)
                if logged.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(logged.map(\.amountMl) == [250], "\(logged)\n\(stack.logs)")
        }
    }
}
