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
            let window =
                "\(clock.clock(Date().addingTimeInterval(-300)))-\(clock.clock(Date().addingTimeInterval(3600)))"
            _ = try await stack.beautyctlOK(["water", "remind", "--every", "1m", "--between", window])
            let calls = await stack.waitForNotifications(1, timeout: .seconds(120))
            let reminder = try #require(
                calls.first { $0.summary == "Time for a glass of water" }, "\(calls)\n\(stack.logs)")
            #expect(
                reminder.actions.contains("water-250") && reminder.actions.contains("+250 ml"), "\(reminder.actions)")
            try await stack.click("water-250", on: reminder.id)
            var logged: [WaterRecord] = []
            for _ in 0..<200 where logged.isEmpty {
                logged = try await stack.beautyctlJSON(["water", "list"], as: [WaterRecord].self)
                if logged.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(logged.map(\.amountMl) == [250], "\(logged)\n\(stack.logs)")
        }

        @Test(
            "a '+250 ml' whose glass cannot be stored leaves the reminder unanswered: the answer and the glass are one write"
        )
        func glassAndAnswerAreOneWrite() async throws {
            let stack = try await Stack.start()
            defer { stack.shutdown() }
            let daemon = try #require(stack.daemon)
            let clock = Timestamps(zone: testTimeZone)
            let window =
                "\(clock.clock(Date().addingTimeInterval(-300)))-\(clock.clock(Date().addingTimeInterval(3600)))"
            _ = try await stack.beautyctlOK(["water", "remind", "--every", "1m", "--between", window])
            let calls = await stack.waitForNotifications(1, timeout: .seconds(120))
            let reminder = try #require(
                calls.first { $0.summary == "Time for a glass of water" }, "\(calls)\n\(stack.logs)")
            // The glass's row cannot be written (as on a failing disk) once the popup is up.
            try await stack.sqlite(
                stack.databasePath,
                "PRAGMA busy_timeout = 30000; CREATE TRIGGER no_water BEFORE INSERT ON water BEGIN SELECT RAISE(ABORT, 'no room for water'); END;"
            )
            try await stack.click("water-250", on: reminder.id)
            let failed = await eventually(timeout: .seconds(120)) {
                daemon.stderr.contains("could not record the answer") ? true : nil
            }
            #expect(failed == true, "\(stack.logs)")
            let answered = try await stack.sqlite(
                stack.databasePath, "SELECT count(*) FROM delivery WHERE itemKind = 'water' AND state = 'dismissed'")
            #expect(
                answered.stdout == "0\n", "the reminder counts as answered but its glass was not stored: \(answered)")
            try await stack.sqlite(stack.databasePath, "PRAGMA busy_timeout = 30000; DROP TRIGGER no_water;")
            #expect(try await stack.beautyctlJSON(["water", "list"], as: [WaterRecord].self).isEmpty)
        }
    }
}
