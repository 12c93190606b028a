import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndServing {
    @Suite("Imports read in pieces", .serialized)
    struct StreamedImport {
        /// `count` events a day apart from 2031-01-01 09:00 in "Salon Time" (UTC+3), whose VTIMEZONE is at the
        /// end of the file; the first and the last event have one UID, the first with the higher SEQUENCE.
        /// `change` may replace an event's lines.
        static func calendar(_ count: Int, change: (Int, [String]) -> [String] = { $1 }) -> String {
            var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//beautyd tests//EN"]
            let day = DateFormatter()
            day.locale = Locale(identifier: "en_US_POSIX")
            day.timeZone = TimeZone(identifier: "UTC")
            day.dateFormat = "yyyyMMdd"
            let first = Date(timeIntervalSince1970: 1_924_992_000)  // 2031-01-01
            for i in 0..<count {
                let uid = i == 0 || i == count - 1 ? "twice@example.org" : "streamed-\(i)@example.org"
                let title = i == 0 ? "Kept title" : i == count - 1 ? "Older title" : "Pedicure \(i)"
                let date = day.string(from: first.addingTimeInterval(Double(i) * 86_400))
                lines += change(
                    i,
                    [
                        "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20300101T000000Z", "SEQUENCE:\(i == 0 ? 2 : 1)",
                        "DTSTART;TZID=Salon Time:\(date)T090000", "DURATION:PT1H", "SUMMARY:\(title)",
                        "LOCATION:Salon \(i % 17)\\, Main Street \(i % 90)", "END:VEVENT",
                    ])
            }
            lines += [
                "BEGIN:VTIMEZONE", "TZID:Salon Time", "BEGIN:STANDARD", "DTSTART:19700101T000000",
                "TZOFFSETFROM:+0300", "TZOFFSETTO:+0300", "TZNAME:SALON", "END:STANDARD", "END:VTIMEZONE",
                "END:VCALENDAR",
            ]
            return lines.joined(separator: "\r\n") + "\r\n"
        }

        /// The line of the file where event `index` begins.
        static func lineOfEvent(_ text: String, _ index: Int) -> Int {
            var seen = -1
            for (number, line) in text.components(separatedBy: "\r\n").enumerated() where line == "BEGIN:VEVENT" {
                seen += 1
                if seen == index { return number + 1 }
            }
            return 0
        }

        /// `beautyctl import FILE --json` reading pieces of 16 KiB: a 6,000-event file is some 80 of them.
        static func importInPieces(_ stack: Stack, _ path: String) async throws -> CommandResult {
            try await stack.run(
                Locations.built("beautyctl"), ["--socket", stack.socketPath, "import", path, "--json"],
                environment: ["BEAUTYCTL_IMPORT_PIECE_BYTES": "16384"], timeout: .seconds(300))
        }

        static func stored(_ stack: Stack) throws -> [Appointment] {
            try stack.client().call("appointment.list", AppointmentListParams(), as: [Appointment].self)
        }

        @Test(
            "a file of many pieces and chunks arrives whole: a zone defined after its events, one UID's events read together"
        )
        func piecesArriveWhole() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let path = stack.directory + "/streamed.ics"
            try Self.calendar(6_000).write(toFile: path, atomically: true, encoding: .utf8)
            #expect(
                try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0 > 1 << 20,
                "more than one chunk")

            let imported = try await Self.importInPieces(stack, path)
            #expect(imported.status == .exited(0), "\(imported)")
            let counts = try WireJSON.decoder().decode(AppointmentImportResult.self, from: Data(imported.stdout.utf8))
            #expect(counts.inserted == 5_999, "\(counts)")
            let appointments = try Self.stored(stack)
            #expect(appointments.count == 5_999)
            let twice = appointments.filter { $0.uid == "twice@example.org" }
            #expect(twice.map(\.title) == ["Kept title"], "the higher SEQUENCE wins, as in a file read whole")
            let second = try #require(appointments.first { $0.uid == "streamed-1@example.org" })
            #expect(
                second.start == Date(timeIntervalSince1970: 1_924_992_000 + 86_400 + 6 * 3600),
                "09:00 in Salon Time (+03:00), defined at the end of the file, is 06:00 UTC")
            let last = try #require(appointments.first { $0.uid == "streamed-5998@example.org" })
            #expect(last.timeZone == second.timeZone && last.start.timeIntervalSince(second.start) == 5_997 * 86_400)
        }

        @Test(
            "an error in a late piece, from the daemon or the parser, names FILE:LINE and nothing of the file is imported"
        )
        func lateErrorImportsNothing() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            // The daemon refuses event 5,990's title; pieces before it were staged, not written.
            let longTitle = stack.directory + "/late-title.ics"
            let titled = Self.calendar(6_000) { i, lines in
                i == 5_990
                    ? lines.map { $0.hasPrefix("SUMMARY:") ? "SUMMARY:" + String(repeating: "x", count: 300) : $0 }
                    : lines
            }
            try titled.write(toFile: longTitle, atomically: true, encoding: .utf8)
            let refused = try await Self.importInPieces(stack, longTitle)
            #expect(refused.status == .exited(1), "\(refused)")
            #expect(
                refused.stderr.contains(
                    "\(longTitle):\(Self.lineOfEvent(titled, 5_990)): title: is longer than 200 characters"),
                "\(refused.stderr)")
            #expect(try Self.stored(stack).isEmpty, "nothing of the refused file was written")

            // A malformed DTSTART in event 5,995: the parser's error, with the file's line.
            let malformed = stack.directory + "/late-date.ics"
            let dated = Self.calendar(6_000) { i, lines in
                i == 5_995 ? lines.map { $0.hasPrefix("DTSTART") ? "DTSTART;TZID=Salon Time:20310230T9" : $0 } : lines
            }
            try dated.write(toFile: malformed, atomically: true, encoding: .utf8)
            let expected: ICalendarError
            do {
                _ = try ICalendar.read(dated, defaultZone: .current)
                Issue.record("the file read whole is refused")
                return
            } catch let error as ICalendarError { expected = error }
            #expect(expected.line == Self.lineOfEvent(dated, 5_995) + 4)
            let broken = try await Self.importInPieces(stack, malformed)
            #expect(broken.status == .exited(2) || broken.status == .exited(1), "\(broken)")
            #expect(broken.stderr.contains("\(malformed):\(expected.line): "), "\(broken.stderr)")
            #expect(try Self.stored(stack).isEmpty)

            // The same file, mended, imports whole: the refused stages left nothing behind.
            try Self.calendar(6_000).write(toFile: malformed, atomically: true, encoding: .utf8)
            let mended = try await Self.importInPieces(stack, malformed)
            #expect(mended.status == .exited(0), "\(mended)")
            #expect(try Self.stored(stack).count == 5_999)
        }
    }
}
