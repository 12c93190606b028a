import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EndToEndTiming {
    @Suite("Tips and water: beautyctl, the goal in `now`, import, hydration reminders", .serialized)
    struct TipsAndWater {
        @Test("tips search ignores case; water add/total/goal/now; import twice adds nothing; bad input stores nothing")
        func tipsAndWaterFromBeautyctl() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }

            // Tips: search in any case, by category, at random.
            let silk: [Tip] = try await stack.beautyctlJSON(["tips", "--search", "SILK"])
            #expect(silk.map(\.id) == [13], "\(silk)")
            let same: [Tip] = try await stack.beautyctlJSON(["tips", "--search", "silk"])
            #expect(same == silk)
            let nails: [Tip] = try await stack.beautyctlJSON(["tips", "--category", "Nails"])
            #expect(nails.count >= 6 && nails.allSatisfy { $0.category == .nails }, "\(nails)")
            let random: Tip = try await stack.beautyctlJSON(["tip", "random", "--category", "hair"])
            #expect(random.category == .hair)
            let text = try await stack.beautyctl(["tips", "--search", "PILLOWCASE"])
            #expect(text.status == .exited(0) && text.stdout.contains("#13 Sleep on silk (hair)"), "\(text)")
            let none = try await stack.beautyctl(["tips", "--search", "no such words"])
            #expect(none.status == .exited(0) && none.stdout.contains("No tips"), "\(none)")

            // Water: a decimal comma rounds half up; the goal shows in `now`.
            let goal = try await stack.beautyctl(["water", "goal", "1000"])
            #expect(goal.status == .exited(0) && goal.stdout.contains("1000 ml"), "\(goal)")
            let added: WaterAddResult = try await stack.beautyctlJSON(["water", "add", "250,5"])
            #expect(added.added && added.record.amountMl == 251, "\(added)")
            #expect(added.day.totalMl == 251 && added.day.goalMl == 1000 && added.day.goalReached == false)
            let earlier = try await stack.beautyctl(["water", "add", "0,25l", "--at", "in 0s"])
            #expect(earlier.status == .exited(0) && earlier.stdout.contains("Logged 250 ml"), "\(earlier)")
            let now: NowResult = try await stack.beautyctlJSON(["now"])
            #expect(
                now.water?.totalMl == 501 && now.water?.count == 2 && now.water?.goalMl == 1000
                    && now.water?.goalReached == false,
                "now.water: \(String(describing: now.water))")
            let nowText = try await stack.beautyctl(["now"])
            #expect(nowText.stdout.contains("Water today: 501 of 1000 ml (50%)"), "\(nowText)")

            // Bad input: a usage error naming the problem, and nothing stored.
            let cases: [(arguments: [String], mentions: [String])] = [
                (["water", "add", "-250"], ["-250", "negative"]),
                (["water", "add", "12,3,4"], ["12,3,4", "not an amount"]),
                (["water", "add", ""], ["must not be empty"]),
                (["water", "add"], ["missing amount"]),
                (["water", "add", "0"], ["less than 1 ml"]),
                (["water", "add", "250", "300"], ["one amount at a time"]),
                (["water", "add", "250", "--at", "in 1h"], ["--at", "future"]),
                (["water", "add", "250", "--at", "in 0s", "--until", "2020-01-01 00:00"], ["--until", "before --at"]),
                (["water", "goal", "-5"], ["negative"]),
                (["water", "goal", "50000"], ["between 1 and 20000"]),
                (["water", "remind", "--every", "0m"], ["--every"]),
                (["water", "remind", "--between", "21:00-21:00"], ["--between", "empty"]),
                (["water", "remind", "off", "--every", "2h"], ["off"]),
                (["tips", "--category", "lips"], ["lips", "face, hair, nails, body"]),
                (["tips", "--search", " "], ["--search", "must not be empty"]),
                (["tip", "random", "--category", "feet"], ["feet"]),
            ]
            for (arguments, mentions) in cases {
                let result = try await stack.beautyctl(arguments)
                #expect(result.status == .exited(2), "beautyctl \(arguments): \(result)")
                for word in mentions {
                    #expect(result.stderr.contains(word), "beautyctl \(arguments) should mention \(word): \(result)")
                }
            }
            // Straight to the daemon: refused with the field named.
            #expect(throws: RPCErrorObject.self) {
                let _: WaterAddResult = try stack.client().call("water.add", WaterAddParams(amountMl: -5))
            }
            #expect(throws: RPCErrorObject.self) {
                let _: [Tip] = try stack.client().call("tips", TipFilterParams(category: "lips"))
            }
            let refused = try await stack.beautyctl(["tip", "random", "--search", "no such words"])
            #expect(refused.status == .exited(1) && refused.stderr.contains("no tip"), "\(refused)")
            let today: WaterTotalResult = try await stack.beautyctlJSON(["water", "total"])
            #expect(
                today.count == 2 && today.totalMl == 501 && today.days.count == 1, "refused input was stored: \(today)")

            // Import: CSV, then the same file again, then JSON overlapping it; records keep their day.
            let csv = stack.directory + "/water.csv"
            try """
            uuid,amount_ml,start,end
            6f1c2b3e-0000-4000-8000-000000000001,250,2025-06-02T08:30:00+02:00,2025-06-02T08:35:00+02:00
            6f1c2b3e-0000-4000-8000-000000000002,"300,5",2025-06-02 12:00:00 +0200,
            health-3,330,2025-06-03T07:00,

            """.write(toFile: csv, atomically: true, encoding: .utf8)
            let first = try await stack.beautyctl(["water", "import", csv])
            #expect(
                first.status == .exited(0) && first.stdout.contains("Imported 3 new")
                    && first.stdout.contains("0 already present"), "\(first)")
            let second = try await stack.beautyctl(["water", "import", csv])
            #expect(
                second.status == .exited(0) && second.stdout.contains("Imported 0 new")
                    && second.stdout.contains("3 already present"), "\(second)")
            let json = stack.directory + "/water.json"
            try """
            [{"uuid": "6F1C2B3E-0000-4000-8000-000000000001", "amountMl": 250, "start": "2025-06-02T06:30:00Z"},
             {"uuid": "json-1", "amount_ml": 200, "start": "2025-06-03T09:00:00+02:00", "end": null}]
            """.write(toFile: json, atomically: true, encoding: .utf8)
            let counts: WaterImportResult = try await stack.beautyctlJSON(["water", "import", json])
            #expect(counts.inserted == 1 && counts.skipped == 1, "\(counts)")

            // A file with bad lines: each reported by number, nothing imported.
            let bad = stack.directory + "/water-bad.csv"
            try """
            uuid,amount_ml,start,end
            new-1,250,2025-06-04T08:30:00Z,
            new-2,12,3,4,2025-06-04T08:30:00Z,
            new-3,-5,2025-06-04T08:30:00Z,
            new-4,100,yesterday,
            new-5\u{202E}vsc,100,2025-06-04T08:30:00Z,
            """.write(toFile: bad, atomically: true, encoding: .utf8)
            let refusedFile = try await stack.beautyctl(["water", "import", bad])
            #expect(refusedFile.status == .exited(2), "\(refusedFile)")
            for word in [
                "water-bad.csv:3:", "water-bad.csv:4:", "water-bad.csv:5:", "negative", "yesterday",
                "water-bad.csv:6:", "'new-5?vsc' is not an identifier", "nothing was imported",
            ] {
                #expect(refusedFile.stderr.contains(word), "should mention \(word): \(refusedFile.stderr)")
            }
            #expect(
                !refusedFile.stderr.unicodeScalars.contains { $0.properties.isBidiControl }, "\(refusedFile.stderr)")
            let june: WaterTotalResult = try await stack.beautyctlJSON([
                "water", "total", "--from", "2025-06-01", "--to", "2025-06-05",
            ])
            #expect(
                june.days.map(\.day.description) == ["2025-06-01", "2025-06-02", "2025-06-03", "2025-06-04"], "\(june)")
            #expect(june.days.map(\.totalMl) == [0, 551, 530, 0], "\(june.days)")
            #expect(june.totalMl == 1081 && june.count == 4 && june.goalMl == 1000)
            let table = try await stack.beautyctl(["water", "total", "--from", "2025-06-01", "--to", "2025-06-05"])
            #expect(table.status == .exited(0) && table.stdout.contains("Total: 1081 ml in 4 drink(s)"), "\(table)")

            // Goal off: `now` still shows what was drunk today, without a goal.
            let off = try await stack.beautyctl(["water", "goal", "off"])
            #expect(off.status == .exited(0) && off.stdout.contains("No daily water goal"), "\(off)")
            let after: NowResult = try await stack.beautyctlJSON(["now"])
            #expect(after.water?.totalMl == 501 && after.water?.goalMl == nil && after.water?.goalReached == nil)

            // Hydration reminders set and switched off through beautyctl (when they fire: BeautyDaemonTests).
            let remind: WaterRemindResult = try await stack.beautyctlJSON([
                "water", "remind", "--every", "2h", "--between", "09:00-21:00",
            ])
            #expect(
                remind.enabled && remind.everySeconds == 7200 && remind.windowStart == ClockTime(hour: 9, minute: 0)
                    && remind.windowEnd == ClockTime(hour: 21, minute: 0) && !remind.upcoming.isEmpty, "\(remind)")
            let remindOff: WaterRemindResult = try await stack.beautyctlJSON(["water", "remind", "off"])
            #expect(!remindOff.enabled && remindOff.upcoming.isEmpty, "\(remindOff)")
        }
    }
}
