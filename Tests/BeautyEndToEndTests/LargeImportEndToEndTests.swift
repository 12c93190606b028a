import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndServing {
    @Suite("Imports larger than one request line", .serialized)
    struct LargeImport {
        /// `count` one-hour events a day apart from 2031 on; `title(i)` gives each its SUMMARY.
        static func calendar(_ count: Int, uidPrefix: String, title: (Int) -> String) -> String {
            var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//beautyd tests//EN"]
            let base = Date(timeIntervalSince1970: 1_924_992_000)  // 2031-01-01T00:00:00Z
            let stamp = DateFormatter()
            stamp.locale = Locale(identifier: "en_US_POSIX")
            stamp.timeZone = TimeZone(identifier: "UTC")
            stamp.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
            for i in 0..<count {
                let start = base.addingTimeInterval(Double(i) * 86_400 + 9 * 3600)
                lines += [
                    "BEGIN:VEVENT", "UID:\(uidPrefix)-\(i)@example.org", "DTSTAMP:20300101T000000Z",
                    "DTSTART:\(stamp.string(from: start))",
                    "DTEND:\(stamp.string(from: start.addingTimeInterval(3600)))",
                    "SUMMARY:\(title(i))", "LOCATION:Salon \(i % 17)\\, Main Street \(i % 90)",
                    "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT1H", "END:VALARM", "END:VEVENT",
                ]
            }
            lines.append("END:VCALENDAR")
            return lines.joined(separator: "\r\n") + "\r\n"
        }

        static func storedCount(_ stack: Stack) throws -> Int {
            try stack.client().call("appointment.list", AppointmentListParams(), as: [Appointment].self).count
        }

        @Test(
            "8,000 events (over 1 MiB of requests) all arrive; a file whose last event is invalid imports nothing and names that event"
        )
        func largeFileArrivesWhole() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let good = stack.directory + "/large.ics"
            try Self.calendar(8_000, uidPrefix: "large") { "Haircut \($0)" }.write(
                toFile: good, atomically: true, encoding: .utf8)
            // As one appointment.import request this would be far over the daemon's 1 MiB line limit.
            let params = AppointmentImportParams(
                appointments: try ICalendar.parse(
                    String(contentsOfFile: good, encoding: .utf8),
                    defaultZone: .current
                ).map { $0.appointment() },
                contactNames: [])
            #expect(try WireJSON.encoder().encode(params).count > 1 << 20)

            let imported = try await stack.beautyctl(["import", good, "--json"])
            #expect(imported.status == .exited(0), "\(imported)")
            let counts = try WireJSON.decoder().decode(AppointmentImportResult.self, from: Data(imported.stdout.utf8))
            #expect(counts.inserted == 8_000 && counts.updated == 0 && counts.unchanged == 0, "\(counts)")
            #expect(try Self.storedCount(stack) == 8_000)
            #expect(!imported.stderr.contains("Importing"), "progress is shown on a terminal only: \(imported.stderr)")

            // Again: every event is matched by its UID, nothing is added.
            let again = try await stack.beautyctl(["import", good, "--json"])
            let unchanged = try WireJSON.decoder().decode(AppointmentImportResult.self, from: Data(again.stdout.utf8))
            #expect(unchanged.unchanged == 8_000 && unchanged.inserted == 0, "\(again)")

            // 8,000 new events, the last with a title longer than the daemon takes: it is in the last chunk.
            let bad = stack.directory + "/last-bad.ics"
            try Self.calendar(8_000, uidPrefix: "bad") {
                $0 == 7_999 ? String(repeating: "x", count: 300) : "Facial \($0)"
            }
            .write(toFile: bad, atomically: true, encoding: .utf8)
            let refused = try await stack.beautyctl(["import", bad])
            #expect(refused.status == .exited(1), "\(refused)")
            // The daemon names the 8,000th appointment; beautyctl names the line where its event begins.
            let lastEvent = try String(contentsOfFile: bad, encoding: .utf8).components(separatedBy: "\r\n")
                .lastIndex(of: "BEGIN:VEVENT").map { $0 + 1 }
            #expect(
                refused.stderr.contains("\(bad):\(lastEvent ?? 0): title: is longer than 200 characters"),
                "the error names the event by its line in the file: \(refused.stderr)")
            #expect(try Self.storedCount(stack) == 8_000, "nothing of the refused file was written")
        }

        @Test("a stage left by a closed connection is dropped: nothing is written and its place is free again")
        func abandonedStageLeavesNothing() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            var draft = Appointment(
                title: "Staged", start: Date(timeIntervalSince1970: 1_924_992_000), uid: "staged@example.org")
            draft.reminders = [.before(3600)]
            do {
                let abandoned = try stack.client()
                let stage = try abandoned.call("appointment.importBegin", NoParams(), as: AppointmentImportStage.self)
                let chunk = AppointmentImportChunkParams(
                    stage: stage.stage, firstIndex: 0, appointments: [draft], contactNames: [nil])
                #expect(
                    try abandoned.call("appointment.importChunk", chunk, as: AppointmentImportChunkResult.self).received
                        == 1)
            }  // the connection closes here, without a commit

            // The daemon holds at most 4 stages: 4 new ones fit only once the abandoned one is gone.
            var holders: [RPCClient] = []
            let deadline = Date().addingTimeInterval(10)
            while holders.count < 4, Date() < deadline {
                let client = try stack.client()
                do {
                    _ = try client.call("appointment.importBegin", NoParams(), as: AppointmentImportStage.self)
                    holders.append(client)
                } catch let error as RPCErrorObject where error.code == RPCErrorCode.busy {
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            #expect(holders.count == 4, "the closed connection's stage still holds a place")
            let fifth = try stack.client()
            #expect(throws: RPCErrorObject.self) {
                try fifth.call("appointment.importBegin", NoParams(), as: AppointmentImportStage.self)
            }
            #expect(try Self.storedCount(stack) == 0)
        }
    }
}
