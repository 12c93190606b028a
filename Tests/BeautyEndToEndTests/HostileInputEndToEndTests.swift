import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndServing {
    /// Input built to exhaust the daemon, from a hostile CalDAV server on loopback, a file and the
    /// socket: each is refused with a clear error and the daemon serves on.
    @Suite("Hostile input: nesting, from a server, a file and the socket", .serialized)
    struct HostileInput {
        /// `levels` BEGIN:X-A inside a calendar (each with its END), which recursed once per level.
        static func nestedCalendar(_ levels: Int) -> String {
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//hostile//EN\r\n"
                + String(repeating: "BEGIN:X-A\r\n", count: levels) + String(repeating: "END:X-A\r\n", count: levels)
                + "END:VCALENDAR\r\n"
        }

        static func event(uid: String, summary: String, start: Date) -> String {
            CalDAVTestServer.event(uid: uid, summary: summary, start: start)
        }

        /// `beautyctl sync now NAME --json`, whether the sync failed (exit 1) or not.
        static func syncNow(_ stack: Stack, _ name: String = "hostile") async throws -> SyncNowResult {
            let result = try await stack.beautyctl(["sync", "now", name, "--json"])
            guard result.status == .exited(0) || result.status == .exited(1) else {
                throw HarnessError("sync now \(name): \(result)")
            }
            return try WireJSON.decoder().decode(SyncNowResult.self, from: Data(result.stdout.utf8))
        }

        static func addAccount(_ stack: Stack, _ server: HostileCalDAVServer) async throws -> CommandResult {
            try await stack.beautyctl([
                "sync", "add", "hostile", "--url", server.calendarURL.absoluteString, "--user", "u",
                "--password-file", server.passwordFile,
            ])
        }

        /// Runs `body` with a hostile server answering `control`, a stack whose daemon syncs only when
        /// told, and (when `follow`) the account `hostile` following the server's calendar.
        static func withHostileServer(
            _ control: HostileCalDAVServer.Script = .init(), follow: Bool = true,
            _ body: (HostileCalDAVServer, Stack, ChildProcess) async throws -> Void
        ) async throws {
            let server = try await HostileCalDAVServer.start(control)
            defer { server.stop() }
            let stack = try await Stack.startForSync()
            defer { stack.shutdown() }
            let daemon = try #require(stack.daemon)
            if follow {
                let added = try await addAccount(stack, server)
                guard added.status == .exited(0) else { throw HarnessError("sync add: \(added)") }
            }
            try await body(server, stack, daemon)
        }

        @Test("a multistatus nested 50,000 deep is refused at sync add and sync now; the daemon lives")
        func nestedMultistatus() async throws {
            try await Self.withHostileServer(.init(nestedXML: 50_000), follow: false) { server, stack, daemon in
                let refused = try await Self.addAccount(stack, server)
                #expect(refused.status == .exited(1), "\(refused)\n\(stack.logs)")
                #expect(refused.stderr.contains("nests elements more than 64 deep"), "\(refused)")
                #expect(daemon.isRunning, "\(stack.logs)")

                try await server.set(.init())
                #expect(try await Self.addAccount(stack, server).status == .exited(0))
                try await server.set(.init(nestedXML: 50_000))
                let report = try await Self.syncNow(stack)
                #expect(report.accounts.first?.error?.contains("nests elements more than 64 deep") == true, "\(report)")
                // The failure is recorded (so the next automatic attempt waits its back-off) and a local
                // change is still taken; the next attempt meets the same answer and fails the same way.
                _ = try await stack.beautyctlOK(["appointment", "add", "Haircut", "--at", "2030-03-05 15:00"])
                let again = try await Self.syncNow(stack)
                #expect(again.accounts.first?.error?.contains("nests elements more than 64 deep") == true, "\(again)")
                #expect(try await stack.syncStatus("hostile").lastError?.contains("more than 64 deep") == true)
                #expect(daemon.isRunning, "\(stack.logs)")
                #expect(try stack.client().status().pid == daemon.pid)
            }
        }

        @Test("calendar-data nested 100,000 deep is skipped, the other event of the listing arrives; the daemon lives")
        func nestedCalendarData() async throws {
            try await Self.withHostileServer { server, stack, daemon in
                let start = tomorrowOnTheHour()
                try await server.set(
                    .init(events: [
                        "nest.ics": Self.nestedCalendar(100_000),
                        "fine.ics": Self.event(uid: "fine@hostile", summary: "Manicure", start: start),
                    ]))
                let report = try await Self.syncNow(stack)
                #expect(report.fetched == 2 && report.accounts.first?.error == nil, "\(report)\n\(stack.logs)")
                #expect(daemon.isRunning, "\(stack.logs)")
                #expect(try await stack.agenda(around: start).entries.map(\.title).contains("Manicure"))
                #expect(
                    daemon.output.contains(
                        "skipped /cal/nest.ics: line 67: BEGIN:X-A nests components more than 64 deep"),
                    "the skipped resource should say why\n\(stack.logs)")
            }
        }

        @Test("a server's error text with escape sequences and a newline reaches the daemon's log escaped")
        func serverErrorTextIsEscapedInTheLog() async throws {
            try await Self.withHostileServer { server, stack, daemon in
                try await server.set(
                    .init(
                        error: .init(
                            status: 500, body: "\u{1B}]0;owned\u{07}\u{1B}[2J\nbeautyd: sync forged ok\u{202E}")))
                let report = try await Self.syncNow(stack)
                #expect(report.accounts.first?.error != nil, "\(report)")
                let log = daemon.stderr
                #expect(log.contains(#"\u001b]0;owned\u0007\u001b[2J\u000abeautyd: sync forged ok\u202e"#), "\(log)")
                #expect(!log.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{202E}" }, "\(log)")
                #expect(!log.contains("\nbeautyd: sync forged ok"), "a server's text forged a log line of its own")
            }
        }

        @Test("beautyctl import of a file nested 100,000 deep is refused at its line; the daemon lives")
        func nestedImportFile() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let daemon = try #require(stack.daemon)
            let path = stack.directory + "/nest.ics"
            try Self.nestedCalendar(100_000).write(toFile: path, atomically: false, encoding: .utf8)
            let result = try await stack.beautyctl(["import", path])
            #expect(result.status != .exited(0), "\(result)")
            // Line 67: the 65th level (VCALENDAR on line 1 is the first, X-A from line 4 on).
            #expect(result.stderr.contains("nest.ics:67:"), "\(result)")
            #expect(result.stderr.contains("more than 64 deep"), "\(result)")
            #expect(daemon.isRunning, "\(stack.logs)")
            #expect(try stack.client().status().pid == daemon.pid)
        }

        @Test("an event too large for one request is refused at its FILE:LINE, not discarded unread by the daemon")
        func eventTooLargeToSend() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let daemon = try #require(stack.daemon)
            let path = stack.directory + "/big.ics"
            let small = (0..<3).map {
                "BEGIN:VEVENT\r\nUID:small-\($0)@x\r\nDTSTART:20300305T1\($0)0000Z\r\nSUMMARY:Visit \($0)\r\nEND:VEVENT\r\n"
            }.joined()
            // Line 1 BEGIN:VCALENDAR, 2 VERSION, 3 PRODID, then three 5-line events: the big one begins on line 19.
            try
                ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//hostile//EN\r\n" + small
                + "BEGIN:VEVENT\r\nUID:big@x\r\nDTSTART:20300306T100000Z\r\nSUMMARY:Big\r\nDESCRIPTION:"
                + String(repeating: "a", count: 3 << 20) + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
                .write(toFile: path, atomically: false, encoding: .utf8)
            let result = try await stack.beautyctl(["import", path])
            #expect(result.status == .exited(2), "\(result)")
            #expect(result.stderr.contains("big.ics:19: this item is too large to send to beautyd"), "\(result)")
            #expect(!result.stderr.contains("longer than 1 MiB"), "\(result)")
            #expect(
                try stack.client().call("appointment.list", AppointmentListParams(), as: [Appointment].self).isEmpty,
                "all or nothing")
            #expect(daemon.isRunning)
        }

        @Test("an .ics with more events than one import holds is refused before it is parsed, in bounded memory")
        func tooManyEventsRefusedEarly() async throws {
            // No daemon: the refusal comes before beautyctl parses the file or sends anything.
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            let path = stack.directory + "/many.ics"
            let events = AppointmentImportStage.standardMaxAppointments + 1
            // 15 MB; parsed whole it took ~20 times its size (4 GB for a 200 MB file).
            try
                ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//hostile//EN\r\n"
                + (0..<events).map { "BEGIN:VEVENT\r\nUID:e\($0)\r\nDTSTART:20300305T100000Z\r\nEND:VEVENT\r\n" }
                .joined()
                + "END:VCALENDAR\r\n").write(toFile: path, atomically: false, encoding: .utf8)
            let result = try await stack.run(
                "/usr/bin/time",
                [
                    "-f", "max RSS %M KiB", try Locations.built("beautyctl"),
                    "--socket", stack.socketPath, "import", path,
                ], timeout: .seconds(300))
            #expect(result.status == .exited(2), "\(result)")
            #expect(
                result.stderr.contains("many.ics: its \(events) events are more than one import holds"), "\(result)")
            let kibibytes = result.stderr.firstMatch(of: /max RSS (\d+) KiB/).flatMap { Int($0.1) }
            #expect(try #require(kibibytes) < 100 << 10, "beautyctl read the whole file: \(result)")
        }

        @Test(
            "contacts too many for one request are refused at the FILE:LINE of the first card that does not fit; one card too large at its FILE:LINE"
        )
        func contactsTooLargeToSend() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let many = stack.directory + "/many.vcf"
            try (0..<30_000).map {
                "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Client \($0)\r\nTEL:+48 600 \(100_000 + $0)\r\nEND:VCARD\r\n"
            }.joined()
                .write(toFile: many, atomically: false, encoding: .utf8)
            let refused = try await stack.beautyctl(["contact", "import", many])
            #expect(refused.status == .exited(2), "\(refused)")
            // Named at the first card that does not fit, so the file can be split there.
            let match = try #require(
                refused.stderr.firstMatch(
                    of:
                        /many\.vcf:(\d+): its 30000 contacts are more than one request to beautyd holds \(1048576 bytes\); the (\d+) before this card fit/
                ),
                "\(refused)")
            let (line, fitting) = (try #require(Int(match.1)), try #require(Int(match.2)))
            #expect(fitting > 10_000 && fitting < 30_000 && line == 5 * fitting + 1, "\(refused.stderr)")

            let one = stack.directory + "/one.vcf"
            try
                ("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Anna\r\nTEL:+48 600 000 001\r\nEND:VCARD\r\n"
                + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:" + String(repeating: "b", count: 2 << 20)
                + "\r\nTEL:+48 600 000 002\r\nEND:VCARD\r\n")
                .write(toFile: one, atomically: false, encoding: .utf8)
            let single = try await stack.beautyctl(["contact", "import", one])
            #expect(single.status == .exited(2), "\(single)")
            #expect(single.stderr.contains("one.vcf:6: this item is too large to send to beautyd"), "\(single)")
            #expect(try #require(stack.daemon).isRunning)
        }

        @Test("a JSON request nested 100,000 deep earns a parse error; the daemon lives")
        func nestedJSONRequest() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let daemon = try #require(stack.daemon)
            let client = try stack.client(timeout: 30)
            let levels = 100_000
            try client.send(
                line: #"{"jsonrpc":"2.0","id":1,"method":"status","params":"# + String(repeating: "[", count: levels)
                    + String(repeating: "]", count: levels) + "}")
            let answer = try JSONSerialization.jsonObject(with: client.readLine()) as? [String: Any]
            let error = answer?["error"] as? [String: Any]
            #expect(error?["code"] as? Int == RPCErrorCode.parseError.rawValue, "\(String(describing: answer))")
            #expect(daemon.isRunning, "\(stack.logs)")
            #expect(try stack.client().status().pid == daemon.pid)
        }

        @Test("a second daemon on a hard link to the database is refused, and so is a restart while the link exists")
        func hardLinkToTheDatabase() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let first = try #require(stack.daemon)
            _ = try await stack.beautyctlOK(["appointment", "add", "Haircut", "--at", "2030-03-05 15:00"])
            let other = stack.directory + "/other"
            try FileManager.default.createDirectory(
                atPath: other, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            #expect(link(stack.databasePath, other + "/db.sqlite") == 0)

            let second = try await stack.run(
                try Locations.built("beautyd"), ["--database", other + "/db.sqlite", "--socket", other + "/s"],
                timeout: .seconds(30))
            #expect(second.status == .exited(77), "\(second)")
            #expect(second.stderr.contains("has 2 names (hard links)"), "\(second)")
            #expect(
                !FileManager.default.fileExists(atPath: other + "/db.sqlite-wal"),
                "the second daemon opened the database")
            #expect(try stack.client().status().pid == first.pid)

            // The first daemon, restarted while the link is there, says so too.
            await stack.stopDaemon()
            let restarted = try await stack.run(try Locations.built("beautyd"), [], timeout: .seconds(30))
            #expect(
                restarted.status == .exited(77) && restarted.stderr.contains("find / -xdev -samefile"), "\(restarted)")
            unlink(other + "/db.sqlite")
            try await stack.startDaemon()
            #expect(
                try stack.client().call("appointment.list", AppointmentListParams(), as: [Appointment].self).count == 1)
        }

        @Test(
            "a locale name of 12 letters or more in LANG, LC_ALL, LC_MESSAGES or LANGUAGE: beautyd starts, beautyctl adds and lists"
        )
        func implausibleLocaleNames() async throws {
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            stack.locale = "xxxxxxxxxxxx"
            let daemon = try await stack.startDaemon(environment: ["LANGUAGE": "yyyyyyyyyyyyyyyy"])
            let beautyctl = try Locations.built("beautyctl")
            for variable in ["LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE"] {
                let environment = [variable: String(repeating: "z", count: 40)]
                let added = try await stack.run(
                    beautyctl,
                    [
                        "--socket", stack.socketPath, "appointment", "add", "Haircut \(variable)",
                        "--at", "2030-03-05 15:00",
                    ], environment: environment)
                #expect(added.status == .exited(0), "\(variable): \(added)")
                let agenda = try await stack.run(
                    beautyctl, ["--socket", stack.socketPath, "agenda", "--from", "2030-03-05", "--to", "2030-03-06"],
                    environment: environment)
                #expect(
                    agenda.status == .exited(0) && agenda.stdout.contains("Haircut \(variable)"),
                    "\(variable): \(agenda)")
            }
            #expect(daemon.isRunning, "\(stack.logs)")
        }

        @Test("a configuration nested 100,000 deep is refused at start with a message, not a crash")
        func nestedConfiguration() async throws {
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            let levels = 100_000
            try stack.writeConfig(
                "deep = " + String(repeating: "[", count: levels) + String(repeating: "]", count: levels) + "\n")
            let daemon = try stack.spawn("beautyd", try Locations.built("beautyd"), [])
            let exit = await daemon.waitForExit(timeout: .seconds(60))
            #expect(
                exit != nil && exit != .signaled(SIGSEGV) && exit != .exited(0),
                "\(String(describing: exit))\n\(stack.logs)")
            #expect(daemon.output.contains(stack.configPath), "the refusal should name the file\n\(daemon.outputTail)")
        }
    }
}
