import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension Stack {
    /// `beautyctl agenda --kind medication` over [from, to), decoded.
    func doseAgenda(from: String, to: String) async throws -> [AgendaEntry] {
        let result: AgendaResult = try await beautyctlJSON([
            "agenda", "--kind", "medication", "--from", from, "--to", to, "--limit", "500",
        ])
        return result.entries
    }
}

extension EndToEndServing {
    @Suite("Medications: whole DST days, the first day, bounded amounts", .serialized)
    struct DosePlans {
        @Test("25-hour days keep their last interval doses (Warsaw, New York, Lord Howe); two times in a gap stay two")
        func wholeDSTDays() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let warsawAdd = try await stack.beautyctl([
                "med", "add", "D", "--every", "1h", "--from", "2027-10-31", "--until", "2027-10-31",
            ])
            #expect(warsawAdd.status == .exited(0), "\(warsawAdd)")
            let warsaw = try await stack.doseAgenda(from: "2027-10-30 00:00", to: "2027-11-02 00:00")
            #expect(warsaw.count == 25, "Warsaw, 2027-10-31 every hour: \(warsaw.map { iso($0.start) })")
            #expect(warsaw.last.map { iso($0.start) } == "2027-10-31T22:00:00Z", "the last is 23:00 CET")

            _ = try await stack.beautyctl(["med", "rm", "1", "--yes"])
            let york = try await stack.beautyctl([
                "med", "add", "NY", "--every", "30m", "--between", "00:00-23:59", "--tz", "America/New_York",
                "--from", "2027-11-07", "--until", "2027-11-07",
            ])
            #expect(york.status == .exited(0), "\(york)")
            let yorkDoses = try await stack.doseAgenda(from: "2027-11-06 00:00", to: "2027-11-09 00:00")
            #expect(yorkDoses.count == 50, "New York, 2027-11-07 every 30m: \(yorkDoses.map { iso($0.start) })")

            _ = try await stack.beautyctl(["med", "rm", "2", "--yes"])
            _ = try await stack.beautyctl([
                "med", "add", "LH", "--every", "1h", "--tz", "Australia/Lord_Howe", "--from", "2027-04-04", "--until",
                "2027-04-04",
            ])
            let lordHowe = try await stack.doseAgenda(from: "2027-04-02 00:00", to: "2027-04-06 00:00")
            #expect(
                lordHowe.count == 25, "Lord Howe, 2027-04-04 (24.5 h) every hour: \(lordHowe.map { iso($0.start) })")
            #expect(lordHowe.last.map { iso($0.start) } == "2027-04-04T13:00:00Z", "the last is 23:30 +10:30")

            _ = try await stack.beautyctl(["med", "rm", "3", "--yes"])
            _ = try await stack.beautyctl([
                "med", "add", "Gap", "--at", "02:15", "--at", "02:45", "--from", "2027-03-28", "--until", "2027-03-28",
            ])
            let gap = try await stack.doseAgenda(from: "2027-03-27 00:00", to: "2027-03-30 00:00")
            #expect(
                gap.map { iso($0.start) } == ["2027-03-28T01:15:00Z", "2027-03-28T01:45:00Z"],
                "02:15 and 02:45 in the gap: \(gap)")
        }

        @Test("the agenda has no doses from before the medication was added, as now and med show")
        func nothingBeforeTheMedicationExisted() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let calendar = LocalTime.calendar(testTimeZone)
            let added = Date()
            let detail: MedicationDetail = try await stack.beautyctlJSON([
                "med", "add", "Late", "--at", "00:30", "--at", "23:59",
            ])
            let today = calendar.startOfDay(for: added)
            let tomorrow = calendar.date(byAdding: .day, value: 1, to: today)!
            let agenda = try await stack.doseAgenda(from: iso(today), to: iso(tomorrow))
            let wanted = [
                calendar.date(bySettingHour: 0, minute: 30, second: 0, of: today)!,
                calendar.date(bySettingHour: 23, minute: 59, second: 0, of: today)!,
            ].filter { $0 >= detail.medication.createdAt }
            #expect(agenda.map(\.start) == wanted, "agenda today: \(agenda)")
            #expect(agenda.allSatisfy { $0.id != 0 }, "every dose shown today has an id: \(agenda)")
            let now: NowResult = try await stack.beautyctlJSON(["now"])
            #expect(
                !now.overdue.contains { $0.kind == .medication && $0.start < detail.medication.createdAt },
                "\(now.overdue)")
        }

        @Test(
            "amounts beyond the documented maximum are refused (-32602, exit 2); a stored huge stock does not crash beautyctl"
        )
        func boundedAmounts() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let cli = try await stack.beautyctl([
                "med", "add", "Huge", "--at", "08:00", "--stock", "99999999999999999999",
            ])
            #expect(cli.status == .exited(2) && cli.stderr.contains("1000000"), "\(cli)")
            let client = try stack.client()
            let refused = try client.roundTrip(
                #"{"jsonrpc":"2.0","id":1,"method":"med.add","params":{"name":"Huge","stock":1e20}}"#)
            let error = refused["error"] as? [String: Any]
            #expect(
                error?["code"] as? Int == -32602 && (error?["data"] as? [String: Any])?["field"] as? String == "stock",
                "\(refused)")
            let low = try client.roundTrip(
                #"{"jsonrpc":"2.0","id":2,"method":"med.add","params":{"name":"Huge","lowStock":1000001}}"#)
            #expect((low["error"] as? [String: Any])?["code"] as? Int == -32602, "\(low)")

            let added = try await stack.beautyctl(["med", "add", "Vit", "--at", "08:00", "--stock", "999999"])
            #expect(added.status == .exited(0), "\(added)")
            let refill = try await stack.beautyctl(["med", "refill", "1", "2"])
            #expect(refill.status == .exited(1) && refill.stderr.contains("1000000"), "\(refill)")

            // A value stored before the maximum existed (or by another program).
            let write = try await stack.run(
                Locations.python,
                [
                    "-c",
                    """
                    import sqlite3, sys
                    db = sqlite3.connect(sys.argv[1])
                    db.execute("UPDATE medication SET stock = 1e20, lowStock = 1e300 WHERE id = 1")
                    db.commit()
                    """, stack.databasePath,
                ])
            #expect(write.status == .exited(0), "\(write)")
            for arguments in [["med", "list"], ["med", "show", "1"], ["med", "list", "--json"]] {
                let shown = try await stack.beautyctl(arguments)
                #expect(
                    shown.status == .exited(0) && shown.stdout.contains("1e+20"), "beautyctl \(arguments): \(shown)")
            }
        }
    }
}
