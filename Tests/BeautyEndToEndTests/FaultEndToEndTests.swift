import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// Hardening: other users cannot read beautyd's files or reach its socket, user text never reaches a
// shell, and a notification server that is missing, hangs or restarts never stalls the socket and
// never loses or doubles a reminder.

/// Milliseconds at percentile `p` (0...100) of a sample, nearest rank.
private func percentile(_ sample: [Double], _ p: Double) -> Double {
    let sorted = sample.sorted()
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

/// Runs `body` and returns how long it took, in milliseconds.
private func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
}

extension Stack {
    /// Runs `arguments` as uid/gid 65534 (nobody) with no supplementary groups.
    func runAsNobody(_ arguments: [String]) async throws -> CommandResult {
        let setpriv = try Locations.system("setpriv", package: "util-linux")
        return try await run(setpriv, ["--reuid=65534", "--regid=65534", "--clear-groups"] + arguments)
    }

    /// Waits until the --hang server printed "hung <count> ...".
    func waitForHungNotify(_ count: Int, timeout: Duration) async -> Bool {
        await eventually(timeout: timeout, interval: .milliseconds(10)) { () -> Bool? in
            (server?.stdout ?? "").contains("hung \(count) ") ? true : nil
        } ?? false
    }
}

extension EndToEndBus {
    @Suite("Faults: other users, hostile text, a missing, hung or restarting notification server", .serialized)
    struct Faults {
        // MARK: - Other users

        @Test("another uid can neither read the database (with -wal, -shm) nor connect to the socket")
        func anotherUserIsLockedOut() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            _ = try stack.addAppointment("Private: dermatologist", start: tomorrowOnTheHour(), remindAt: [])

            // The stack's own directories are opened up like a 0755 home, so only what beautyd made protects its files.
            for dir in [
                stack.directory, stack.runtimeDirectory, stack.directory + "/data", stack.directory + "/config",
            ] {
                #expect(chmod(dir, 0o755) == 0)
            }
            let socketDirectory = (stack.socketPath as NSString).deletingLastPathComponent
            let dataDirectory = (stack.databasePath as NSString).deletingLastPathComponent
            let files = [
                stack.databasePath, stack.databasePath + "-wal", stack.databasePath + "-shm",
                stack.socketPath + ".lock",
            ]

            func mode(_ path: String) -> mode_t? {
                var info = stat()
                return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
            }
            for dir in [socketDirectory, dataDirectory] {
                #expect(mode(dir) == 0o700, "\(dir) mode \(String(mode(dir) ?? 0, radix: 8))")
            }
            // A WAL database always has both side files while it is open: they hold the same data.
            for path in files {
                let m = try #require(mode(path), "\(path) does not exist while beautyd runs")
                #expect(m & 0o077 == 0, "\(path) mode \(String(m, radix: 8))")
            }
            // No configuration file was written, so beautyd must not have made a config directory either;
            // if it did, it must be private.
            let configDirectory = stack.directory + "/config/beautyd"
            if let m = mode(configDirectory) { #expect(m & 0o077 == 0, "config directory mode \(String(m, radix: 8))") }

            // Switching to another uid needs root (as in CI and the development container).
            guard getuid() == 0 else {
                report("not root: the uid 65534 read and connect attempts were not made")
                return
            }
            let connect = """
                import socket, sys
                s = socket.socket(socket.AF_UNIX)
                try:
                    s.connect(sys.argv[1])
                except OSError as e:
                    print("refused: %s" % e.strerror); sys.exit(3)
                s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"status"}\\n')
                print("answer: %s" % s.recv(65536).decode()); sys.exit(0)
                """
            func nobodyIsRefused(_ situation: String) async throws {
                for path in files {
                    let read = try await stack.runAsNobody(["/bin/cat", path])
                    #expect(
                        read.status == .exited(1) && read.stderr.contains("Permission denied") && read.stdout.isEmpty,
                        "\(situation): uid 65534 read \(path): \(read)")
                }
                let client = try await stack.runAsNobody([Locations.python, "-c", connect, stack.socketPath])
                #expect(
                    client.status == .exited(3) && client.stdout.contains("Permission denied"),
                    "\(situation): uid 65534 connecting to the socket: \(client)")
            }
            try await nobodyIsRefused("beautyd's directories 0700")
            // Defence in depth: even with its directories searchable, the files and the socket themselves refuse.
            for dir in [socketDirectory, dataDirectory] { #expect(chmod(dir, 0o711) == 0) }
            try await nobodyIsRefused("beautyd's directories opened to 0711")
            for dir in [socketDirectory, dataDirectory] { #expect(chmod(dir, 0o700) == 0) }
            #expect(try stack.client().status().counts.appointments == 1, "the daemon must still serve its owner")
        }

        @Test("a database left readable by others is made private at start, and so are its -wal and -shm")
        func looseDatabaseIsTightened() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            _ = try stack.addAppointment("Before", start: tomorrowOnTheHour(), remindAt: [])
            let stopped = await stack.stopDaemon()
            #expect(
                stopped == .exited(0), "beautyd did not stop cleanly: \(String(describing: stopped))\n\(stack.logs)")
            // As if restored from a backup with a umask of 022: SQLite would give -wal and -shm the same mode.
            #expect(chmod(stack.databasePath, 0o644) == 0)
            try await stack.startDaemon()
            _ = try stack.addAppointment("After", start: tomorrowOnTheHour(), remindAt: [])
            for path in [stack.databasePath, stack.databasePath + "-wal", stack.databasePath + "-shm"] {
                var info = stat()
                try #require(lstat(path, &info) == 0, "\(path) is missing")
                #expect(info.st_mode & 0o777 == 0o600, "\(path) mode \(String(info.st_mode & 0o777, radix: 8))")
            }
            #expect(try stack.client().status().counts.appointments == 2)
        }

        // MARK: - Hostile text

        @Test("shell syntax in titles and addresses runs nothing and round-trips unchanged, up to the notification")
        func shellSyntaxIsJustText() async throws {
            let stack = try await Stack.start()
            defer { stack.shutdown() }
            let tag = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            let canary = "/tmp/pwned-canary-\(tag)"
            try FileManager.default.createDirectory(atPath: canary, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: canary) }
            let marks = (1...6).map { "/tmp/pwned-\(tag)-\($0)" }
            defer { for mark in marks { unlink(mark) } }
            let titles = [
                "$(touch \(marks[0]))",
                "`touch \(marks[1])`",
                "x; touch \(marks[2]); rm -rf \(canary)",
                "a | touch \(marks[3]) && rm -rf \(canary) || true",
                "'\"; touch \(marks[4]) #\\ %s %n %x & <b>bold</b> &amp;",
            ]
            let address = "${IFS}$(touch \(marks[5])); `rm -rf \(canary)`"
            let due = wholeSecond(after: 2)
            var ids: [Int64] = []
            for (index, title) in titles.enumerated() {
                if index % 2 == 0 {
                    var params = AppointmentAddParams(title: title, start: tomorrowOnTheHour())
                    params.address = address
                    params.reminders = [.at(due)]
                    let added: AppointmentDetail = try stack.client().call("appointment.add", params)
                    ids.append(try #require(added.appointment.id))
                } else {
                    // Through beautyctl: its arguments are argv, never a command line.
                    let result = try await stack.beautyctl([
                        "appointment", "add", title, "--at", iso(tomorrowOnTheHour()),
                        "--address", address, "--remind-at", iso(due), "--json",
                    ])
                    try #require(result.status == .exited(0), "\(result)")
                    let added = try WireJSON.decoder().decode(AppointmentDetail.self, from: Data(result.stdout.utf8))
                    ids.append(try #require(added.appointment.id))
                }
            }
            let calls = await stack.waitForNotifications(titles.count, timeout: .seconds(due.timeIntervalSinceNow + 5))
            try #require(calls.count == titles.count, "\(calls)\n\(stack.logs)")
            #expect(Set(calls.map(\.summary)) == Set(titles), "\(calls.map(\.summary))")
            for call in calls {
                #expect(call.body.contains(address), "the address must reach the body as typed: \(call.body)")
            }
            for (id, title) in zip(ids, titles) {
                let stored = try stack.client().show(id).appointment
                #expect(stored.title == title && stored.address == address, "\(stored)")
            }
            let listed = try await stack.beautyctl(["appointment", "list", "--json"])
            let list = try WireJSON.decoder().decode([Appointment].self, from: Data(listed.stdout.utf8))
            #expect(Set(list.map(\.title)) == Set(titles))
            for mark in marks {
                #expect(!FileManager.default.fileExists(atPath: mark), "\(mark) exists: a shell ran user text")
            }
            #expect(FileManager.default.fileExists(atPath: canary), "\(canary) was removed: a shell ran user text")
        }

        // MARK: - Bad import files

        @Test("a water JSON file that is not valid JSON is refused with the line the error is on")
        func waterJSONSyntaxErrorNamesItsLine() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let cases = [
                (
                    "bad-value.json",
                    "[\n  {\"uuid\": \"a\", \"amountMl\": 200, \"start\": \"2030-01-15T10:00:00Z\"},\n  {\"uuid\": \"b\", \"amountMl\": 2OO, \"start\": \"2030-01-15T11:00:00Z\"}\n]\n",
                    3
                ),
                (
                    "cut-short.json",
                    "[\n  {\"uuid\": \"a\", \"amountMl\": 200,\n   \"start\": \"2030-01-15T10:00:00Z\"},\n\n", 3
                ),
            ]
            for (name, text, line) in cases {
                let path = stack.directory + "/" + name
                try text.write(toFile: path, atomically: true, encoding: .utf8)
                let result = try await stack.beautyctl(["water", "import", path])
                #expect(result.status == .exited(2), "\(name): \(result)")
                #expect(
                    result.stderr.contains("\(name):\(line): not valid JSON")
                        && result.stderr.contains("nothing was imported"),
                    "\(name): the refusal should name line \(line): \(result.stderr)")
            }
        }

        // MARK: - A notification server that never answers Notify

        @Test("a hung Notify: the socket answers at once, and a replacement server gets the reminder exactly once")
        func hungServer() async throws {
            let stack = try await Stack.start(serverFlags: ["--hang"])
            defer { stack.shutdown() }
            let due = wholeSecond(after: 1)
            let hungID = try #require(
                try stack.addAppointment("Pedicure", start: tomorrowOnTheHour(), remindAt: [due]).appointment.id)
            try #require(
                await stack.waitForHungNotify(1, timeout: .seconds(due.timeIntervalSinceNow + 5)),
                "the hanging server never got the Notify\n\(stack.logs)")
            let hangBegan = Date()

            // libnotify now waits on the GLib thread for a reply that never comes (~25 s).
            let client = try stack.client()
            var statusTimes: [Double] = [], addTimes: [Double] = [], connectTimes: [Double] = []
            for index in 0..<100 {
                statusTimes.append(try milliseconds { _ = try client.status() })
                var params = AppointmentAddParams(title: "During the hang \(index)", start: tomorrowOnTheHour())
                params.reminders = []
                addTimes.append(
                    try milliseconds { let _: AppointmentDetail = try client.call("appointment.add", params) })
                if index % 10 == 0 { connectTimes.append(try milliseconds { _ = try stack.client().status() }) }
            }
            let hangLasted = Date().timeIntervalSince(hangBegan)
            for (name, sample) in [
                ("status", statusTimes), ("appointment.add", addTimes), ("connect+status", connectTimes),
            ] {
                report(
                    String(
                        format: "hung Notify: %@ over %d requests: p50 %.2f ms, p99 %.2f ms, max %.2f ms",
                        name, sample.count, percentile(sample, 50), percentile(sample, 99), sample.max() ?? .nan))
                #expect(
                    sample.allSatisfy { $0 < 500 },
                    "\(name) waited on the hung notification server: \(sample.sorted().suffix(5))")
            }
            try #require(hangLasted < 20, "measuring took \(hangLasted) s: the Notify may have timed out meanwhile")
            let during = try client.status()
            #expect(during.counts.appointments == 101)
            #expect(
                during.notificationServer.name == "beautyd-test-server",
                "status must use the cached server info: \(during)")
            #expect(
                during.notificationServer.lastError?.hasPrefix("no answer to Notify yet") == true,
                "status should say a Notify hangs: \(during)")
            let shownStatus = try await stack.beautyctl(["status"])
            #expect(shownStatus.stdout.contains("no answer to Notify yet"), "\(shownStatus)")
            #expect(stack.notifications().isEmpty)
            // Asked and not answered: durably "delivering" (a crash now would count it as shown, never twice).
            #expect(try client.show(hungID).deliveries.map(\.state) == [.delivering])

            // The hung server is replaced by a working one: the reminder is shown exactly once.
            await stack.stopServer()
            let replaced = try await stack.startServer()
            let calls = await stack.waitForNotifications(1, timeout: .seconds(10))
            try #require(calls.count == 1, "the reminder never reached the new server\n\(stack.logs)")
            report(
                String(
                    format: "hung server replaced: new server ready -> Notify %.1f ms",
                    (calls[0].time - replaced.timeIntervalSince1970) * 1000))
            #expect(calls[0].summary == "Pedicure")
            try await Task.sleep(for: .seconds(1.5))
            #expect(stack.notifications().count == 1, "shown more than once: \(stack.notifications())")
            #expect(try stack.client().show(hungID).deliveries.map(\.state) == [.fired])
            let after = try stack.client().status()
            #expect(after.notificationServer.reachable && after.counts.pendingDeliveries == 0, "\(after)")
        }

        @Test("SIGINT during a hung Notify stops beautyd promptly, and the reminder is shown after the restart")
        func stopsDuringAHang() async throws {
            let stack = try await Stack.start(serverFlags: ["--hang"])
            defer { stack.shutdown() }
            let due = wholeSecond(after: 1)
            let id = try #require(
                try stack.addAppointment("Hair colour", start: tomorrowOnTheHour(), remindAt: [due]).appointment.id)
            try #require(
                await stack.waitForHungNotify(1, timeout: .seconds(due.timeIntervalSinceNow + 5)), "\(stack.logs)")

            let asked = Date()
            let stopped = await stack.stopDaemon()
            let took = Date().timeIntervalSince(asked)
            report(String(format: "SIGINT during a hung Notify: stopped in %.0f ms", took * 1000))
            #expect(stopped == .exited(0), "\(String(describing: stopped))\n\(stack.logs)")
            #expect(took < 5, "beautyd took \(took) s to stop: it waited for the hung Notify")

            // Nothing was recorded as shown, so the next start shows it (to a working server).
            await stack.stopServer()
            try await stack.startServer()
            try await stack.startDaemon()
            let calls = await stack.waitForNotifications(1, timeout: .seconds(5))
            try #require(calls.count == 1, "\(stack.logs)")
            #expect(calls[0].summary == "Hair colour")
            try await Task.sleep(for: .seconds(1))
            #expect(stack.notifications().count == 1)
            #expect(try stack.client().show(id).deliveries.map(\.state) == [.fired])
        }

        @Test("`dose taken` answers at once while a Notify hangs: closing the dose's popup is not waited for")
        func doseAnswerDuringAHang() async throws {
            let stack = try await Stack.start()
            defer { stack.shutdown() }
            let dueSoon = await DueSoon.after(1.5)
            let (medication, doseID) = try stack.addMedication("Vitamin D", dose: "1 tablet", dueSoon)
            let shown = await stack.waitForNotifications(1, timeout: .seconds(dueSoon.due.timeIntervalSinceNow + 5))
            try #require(shown.count == 1, "\(shown)\n\(stack.logs)")

            // The desktop's server freezes: its replacement never answers Notify, and a reminder is stuck in one.
            await stack.stopServer()
            try await stack.startServer(flags: ["--hang"])
            _ = try stack.addAppointment("Hair mask", start: tomorrowOnTheHour(), remindAt: [wholeSecond(after: 0.5)])
            try #require(await stack.waitForHungNotify(1, timeout: .seconds(5)), "\(stack.logs)")

            var answer: DoseResult?
            let took = try milliseconds {
                answer = try stack.client(timeout: 10).call("dose.taken", DoseParams(id: doseID))
            }
            report(String(format: "dose.taken during a hung Notify: %.2f ms", took))
            #expect(took < 500, "dose.taken waited \(took) ms for the hung notification server")
            #expect(answer?.changed == true && answer?.dose.state == .taken, "\(String(describing: answer))")
            #expect(try stack.dose(doseID, of: medication.id!)?.state == .taken)
        }

        // MARK: - A notification server restarting between two reminders

        @Test("the server restarts between two reminders: the second is shown once, by the new server")
        func serverRestartsBetweenReminders() async throws {
            let stack = try await Stack.start()
            defer { stack.shutdown() }
            let firstDue = wholeSecond(after: 1)
            let secondDue = firstDue.addingTimeInterval(3)
            let first = try #require(
                try stack.addAppointment("Nails", start: tomorrowOnTheHour(), remindAt: [firstDue]).appointment.id)
            let second = try #require(
                try stack.addAppointment("Brows", start: tomorrowOnTheHour(), remindAt: [secondDue]).appointment.id)
            let shown = await stack.waitForNotifications(1, timeout: .seconds(firstDue.timeIntervalSinceNow + 5))
            try #require(shown.map(\.summary) == ["Nails"], "\(shown)\n\(stack.logs)")

            // The server dies; the second reminder falls due with nobody on the bus.
            await stack.stopServer()
            try #require(Date() < secondDue, "too slow to stop the server before the second reminder")
            await sleep(until: secondDue.addingTimeInterval(0.5))
            let waiting = try await eventually(timeout: .seconds(3)) { () -> StatusResult? in
                let status = try stack.client().status()
                return status.counts.waitingDeliveries == 1 ? status : nil
            }
            #expect(waiting?.notificationServer.reachable == false, "\(String(describing: waiting))\n\(stack.logs)")
            #expect(stack.notifications().count == 1)

            let newServer = try await stack.startServer()
            let calls = await stack.waitForNotifications(2, timeout: .seconds(5))
            try #require(calls.count == 2, "\(calls)\n\(stack.logs)")
            #expect(calls[1].summary == "Brows")
            #expect(calls[1].date >= newServer, "the second reminder must go to the new server")
            report(
                String(
                    format: "server restarted: new server ready -> waiting reminder received %.1f ms",
                    (calls[1].time - newServer.timeIntervalSince1970) * 1000))
            try await Task.sleep(for: .seconds(1))
            #expect(stack.notifications().count == 2, "\(stack.notifications())")
            #expect(try stack.client().show(first).deliveries.map(\.state) == [.fired])
            #expect(try stack.client().show(second).deliveries.map(\.state) == [.fired])
        }
    }
}
