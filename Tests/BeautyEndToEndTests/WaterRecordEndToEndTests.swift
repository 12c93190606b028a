import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndTiming {
    @Suite("Water records one by one: list, edit, rm", .serialized)
    struct WaterRecords {
        @Test("water list shows ids; edit and rm change the day's total and re-plan its reminders; rm asks first")
        func listEditRemove() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let first = try await stack.beautyctlJSON(
                ["water", "add", "300", "--at", "in 0s"], as: WaterAddResult.self
            ).record
            let second = try await stack.beautyctlJSON(
                ["water", "add", "250", "--at", "in 0s"], as: WaterAddResult.self
            ).record
            let listed = try await stack.beautyctlJSON(["water", "list"], as: [WaterRecord].self)
            #expect(listed.map(\.id) == [first.id, second.id] && listed.map(\.amountMl) == [300, 250], "\(listed)")
            let table = try await stack.beautyctlOK(["water", "list"]).stdout
            #expect(table.hasPrefix("ID") && table.contains("\(first.id!) ") && table.contains("300"), "\(table)")

            // Reminders all day long; once the goal is reached, today's stop.
            _ = try await stack.beautyctlOK(["water", "goal", "500"])
            _ = try await stack.beautyctlOK(["water", "remind", "--every", "1m", "--between", "00:00-23:59"])
            let today = LocalDate(Date(), in: testTimeZone)
            func nextIsToday() async throws -> Bool {
                let settings = try await stack.beautyctlJSON(["water", "remind"], as: WaterRemindResult.self)
                return settings.upcoming.first.map { LocalDate($0, in: testTimeZone) == today } ?? false
            }
            #expect(try await !nextIsToday(), "550 of 500 ml: no more reminders today")

            let edited = try await stack.beautyctlJSON(
                ["water", "edit", "\(first.id!)", "--amount", "100"], as: WaterRecordResult.self)
            #expect(
                edited.record.amountMl == 100 && edited.record.uuid == first.uuid && edited.day.totalMl == 350,
                "\(edited)")
            #expect(try await nextIsToday(), "350 of 500 ml after the edit: today's reminders are planned again")
            let editText = try await stack.beautyctlOK(["water", "edit", "\(first.id!)", "--amount", "150"]).stdout
            #expect(
                editText.contains("Updated water record \(first.id!): 150 ml")
                    && editText.contains("Today: 400 of 500 ml"), "\(editText)")

            _ = try await stack.beautyctlOK(["water", "edit", "\(first.id!)", "--amount", "300"])
            #expect(try await !nextIsToday())
            let refused = try await stack.beautyctl(["water", "rm", "\(second.id!)"])
            #expect(
                refused.status == .exited(2) && refused.stderr.contains("--yes"),
                "not asked without a terminal: \(refused)")
            let removed = try await stack.beautyctlOK(["water", "rm", "\(second.id!)", "--yes"]).stdout
            #expect(
                removed.contains("Deleted water record \(second.id!): 250 ml")
                    && removed.contains("Today: 300 of 500 ml"), "\(removed)")
            #expect(try await nextIsToday(), "below the goal again after rm")
            #expect(try await stack.beautyctlJSON(["water", "list"], as: [WaterRecord].self).map(\.id) == [first.id])

            let cases: [(arguments: [String], code: Int32, mentions: [String])] = [
                (["water", "rm", "\(second.id!)", "--yes"], 4, ["\(second.id!)"]),
                (["water", "edit", "999", "--amount", "100"], 4, ["999"]),
                (["water", "edit", "\(first.id!)"], 2, ["--amount"]),
                (["water", "edit", "\(first.id!)", "--amount", "-5"], 2, ["--amount"]),
                (["water", "edit", "\(first.id!)", "--at", "in 2h"], 2, ["--at", "future"]),
                (["water", "list", "--days", "0"], 2, ["--days"]),
            ]
            for (arguments, code, mentions) in cases {
                let result = try await stack.beautyctl(arguments)
                #expect(result.status == .exited(code), "beautyctl \(arguments): \(result)")
                for word in mentions {
                    #expect(result.stderr.contains(word), "beautyctl \(arguments) should mention \(word): \(result)")
                }
            }
        }
    }
}
