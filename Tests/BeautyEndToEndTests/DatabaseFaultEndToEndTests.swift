import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// The database file as people and disks leave it: empty, damaged, from a newer beautyd, read-only,
// locked by another program, on a full disk, or holding a row beautyd cannot read back.

extension Stack {
    /// Starts beautyd (as `prefix`, e.g. setpriv, if given) and waits for it to end on its own: a refused
    /// start. One that keeps running is killed and reported.
    func refusedStart(prefix: [String] = [], arguments: [String] = []) async throws -> CommandResult {
        let beautyd = try Locations.built("beautyd")
        let command = prefix.isEmpty ? beautyd : prefix[0]
        let child = try spawn(
            "beautyd", command, Array(prefix.dropFirst()) + (prefix.isEmpty ? [] : [beautyd]) + arguments)
        guard let status = await child.wait(timeout: .seconds(20)) else {
            child.killNow()
            return CommandResult(
                status: .signaled(SIGKILL), stdout: child.stdout, stderr: "still running: \(child.stderr)")
        }
        return CommandResult(status: status, stdout: child.stdout, stderr: child.stderr)
    }

    /// `sqlite3 PATH SQL` (the sqlite3 shell).
    @discardableResult
    func sqlite(_ path: String, _ sql: String) async throws -> CommandResult {
        let result = try await run(try Locations.system("sqlite3", package: "sqlite3"), [path, sql])
        guard result.status == .exited(0) else { throw HarnessError("sqlite3 \(sql) failed: \(result)") }
        return result
    }
}

/// `python3 -c lockHolder DATABASE SECONDS LINGER`: takes the database's write lock (BEGIN EXCLUSIVE), prints
/// "locked", lets it go after SECONDS, prints "released <time>", and ends LINGER seconds later.
private let lockHolder = """
    import sqlite3, sys, time
    c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)
    c.execute("BEGIN EXCLUSIVE")
    print("locked", flush=True)
    time.sleep(float(sys.argv[2]))
    c.execute("COMMIT")
    print("released %.3f" % time.time(), flush=True)
    time.sleep(float(sys.argv[3]))
    """

/// The size of a file, nil if it does not exist.
private func fileSize(_ path: String) -> Int? {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : nil
}

extension EndToEndServing {
    @Suite("Database faults: refused files, a lock, a full disk, a row that cannot be read", .serialized)
    struct DatabaseFaults {
        @Test("an empty database file stops beautyd with a message naming it, and the file is left as it was")
        func emptyFile() async throws {
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            try FileManager.default.createDirectory(
                atPath: (stack.databasePath as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: stack.databasePath, contents: Data()))
            let result = try await stack.refusedStart()
            #expect(result.status == .exited(65), "\(result)")
            #expect(result.stderr.contains("beautyd: the database \(stack.databasePath) is an empty file"), "\(result)")
            #expect(fileSize(stack.databasePath) == 0)
        }

        @Test(
            "a damaged page stops beautyd with the way to recover; beautyd --recover keeps it and copies what is readable"
        )
        func damagedFile() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let client = try stack.client()
            for n in 0..<200 {
                let _: Contact = try client.call(
                    "contact.add",
                    ContactAddParams(name: "Client \(n) " + String(repeating: "x", count: 100), phone: "600 \(n)"))
            }
            await stack.stopDaemon()
            // beautyd leaves its last writes in the -wal: move them into the file, whose pages are damaged next.
            try await stack.sqlite(stack.databasePath, "PRAGMA wal_checkpoint(TRUNCATE)")
            let pages = try #require(fileSize(stack.databasePath)) / 4096
            try #require(pages > 10)
            let handle = try #require(FileHandle(forUpdatingAtPath: stack.databasePath))
            // The last page holds contacts (added last): damage that quick_check finds, whatever the schema's size.
            try handle.seek(toOffset: UInt64(pages - 1) * 4096)
            try handle.write(contentsOf: [UInt8](repeating: 0xA5, count: 4096))
            try handle.close()

            let refused = try await stack.refusedStart()
            #expect(refused.status == .exited(65), "\(refused)")
            #expect(
                refused.stderr.contains("beautyd: the database \(stack.databasePath) is damaged (quick_check: "),
                "\(refused)")
            #expect(refused.stderr.contains("run beautyd --recover"), "\(refused)")

            let recovery = try await stack.run(try Locations.built("beautyd"), ["--recover"])
            #expect(recovery.status == .exited(0), "\(recovery)")
            #expect(recovery.stdout.contains("beautyd: recovered \(stack.databasePath) — rows copied: "), "\(recovery)")
            let dataDirectory = (stack.databasePath as NSString).deletingLastPathComponent
            let kept = try FileManager.default.contentsOfDirectory(atPath: dataDirectory)
                .filter { $0.hasPrefix("beautyd.sqlite.damaged-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
            #expect(kept.count == 1, "the damaged file is not kept: \(kept)")

            try await stack.startDaemon()
            let contacts: [Contact] = try stack.client().call("contact.list", NoParams())
            #expect(contacts.count > 100, "only \(contacts.count) contacts recovered")
            let whileRunning = try await stack.run(try Locations.built("beautyd"), ["--recover"])
            #expect(
                whileRunning.status == .exited(1) && whileRunning.stderr.contains("already running"), "\(whileRunning)")
        }

        @Test("a database migrated by a newer beautyd is refused, naming both versions")
        func newerSchema() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            await stack.stopDaemon()
            let known = try await stack.sqlite(stack.databasePath, "SELECT count(*) FROM grdb_migrations")
            try await stack.sqlite(
                stack.databasePath,
                """
                INSERT INTO grdb_migrations(identifier) VALUES ('v8: reminders by e-mail');
                UPDATE setting SET value = '0.3.0' WHERE key = 'beautydVersion';
                """)
            let refused = try await stack.refusedStart()
            #expect(refused.status == .exited(65), "\(refused)")
            for part in [
                stack.databasePath, "newer beautyd 0.3.0", "v8: reminders by e-mail",
                "beautyd \(BeautyVersion.current) knows",
            ] {
                #expect(refused.stderr.contains(part), "\(part) missing: \(refused)")
            }
            let migrations = try await stack.sqlite(stack.databasePath, "SELECT count(*) FROM grdb_migrations")
            let expected = (Int(known.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) + 1
            #expect(
                migrations.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == String(expected),
                "the file was changed")
        }

        @Test("a read-only database: the message names the file and the fix, and the start after the fix works")
        func readOnly() async throws {
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            // Root ignores file modes: beautyd runs as nobody here, in a directory of its own.
            #expect(chmod(stack.directory, 0o755) == 0)
            let home = stack.directory + "/nobody"
            #expect(mkdir(home, 0o700) == 0 && chown(home, 65534, 65534) == 0)
            let database = home + "/beautyd.sqlite"
            let asNobody = [
                try Locations.system("setpriv", package: "util-linux"), "--reuid=65534", "--regid=65534",
                "--clear-groups",
            ]
            let arguments = [
                "--database", database, "--socket", home + "/beautyd.sock", "--config", home + "/none.toml",
            ]

            func startsAndServes() async throws -> Bool {
                let beautyd = try stack.spawn(
                    "beautyd", asNobody[0], Array(asNobody.dropFirst()) + [try Locations.built("beautyd")] + arguments)
                let ready = await eventually(timeout: .seconds(15)) { () -> Bool? in
                    beautyd.stderr.contains(" ready: ") ? true : (beautyd.isRunning ? nil : false)
                }
                let tail = beautyd.outputTail
                await beautyd.stop(SIGINT)
                if ready != true { Issue.record("beautyd did not start\n\(tail)") }
                return ready == true
            }

            try #require(try await startsAndServes())
            #expect(chmod(database, 0o400) == 0)
            let refused = try await stack.refusedStart(prefix: asNobody, arguments: arguments)
            #expect(refused.status == .exited(77), "\(refused)")
            #expect(
                refused.stderr.contains(
                    "beautyd: cannot write the database \(database): \(database) is not writable (mode 400); fix: chmod u+rw '\(database)'"
                ),
                "\(refused)")
            for side in [database + "-wal", database + "-shm"] {
                #expect(!FileManager.default.fileExists(atPath: side), "the refused start left \(side)")
            }
            #expect(chmod(database, 0o600) == 0)
            #expect(try await startsAndServes(), "the start after the fix failed")

            // A read-only -shm left behind by an earlier beautyd's failed start does not keep failing either.
            let shm = database + "-shm"
            #expect(FileManager.default.createFile(atPath: shm, contents: Data(count: 32_768)))
            #expect(chown(shm, 65534, 65534) == 0 && chmod(shm, 0o400) == 0)
            #expect(try await startsAndServes(), "a leftover read-only -shm stopped the start")
        }

        @Test("a row that cannot be read: agenda and export answer one line with their own code, not a row dump")
        func unreadableRow() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            var params = AppointmentAddParams(title: "Dermatologist", start: tomorrowOnTheHour())
            params.notes = "private: " + String(repeating: "n", count: 9_000)
            params.reminders = []
            let _: AppointmentDetail = try stack.client().call("appointment.add", params)
            await stack.stopDaemon()
            // Still inside the agenda's range as SQLite compares it, but no instant.
            try await stack.sqlite(
                stack.databasePath, "UPDATE appointment SET start = substr(start, 1, 10) || ' broken'")
            try await stack.startDaemon()

            let client = try stack.client()
            for line in [
                #"{"jsonrpc":"2.0","id":1,"method":"agenda","params":{}}"#,
                #"{"jsonrpc":"2.0","id":2,"method":"appointment.export"}"#,
            ] {
                let answer = try client.roundTrip(line)
                #expect(answer.errorCode == RPCErrorCode.databaseDamaged, "\(answer)")
                let message = try #require(answer.errorMessage)
                #expect(
                    message.hasPrefix("database damaged: the database \(stack.databasePath) is damaged"), "\(message)")
                #expect(
                    message.count < 600 && !message.contains("private") && !message.contains("\n"),
                    "\(message.prefix(800))")
            }
        }

        @Test(
            "a lock held by another program: requests get their own error, status says so, the reminder comes when it goes"
        )
        func lockedDatabase() async throws {
            // A long retry_interval: a reminder held by a lock must still come about when the lock goes.
            let stack = try await Stack.start(config: "[scheduling]\nretry_interval = \"60s\"\n")
            defer { stack.shutdown() }
            let due = wholeSecond(after: 3)
            _ = try stack.addAppointment("Held by a lock", start: tomorrowOnTheHour(), remindAt: [due])
            let holder = try stack.spawn(
                "lock-holder", Locations.python,
                ["-c", lockHolder, stack.databasePath, String(due.timeIntervalSinceNow + 9), "60"])
            let locked = await eventually(timeout: .seconds(5)) { holder.stdout.contains("locked") ? true : nil }
            try #require(locked == true, "\(holder.outputTail)")

            // A write waits the busy timeout (5 s), then fails with -32010.
            let answer = try stack.client(timeout: 15).roundTrip(
                #"{"jsonrpc":"2.0","id":1,"method":"contact.add","params":{"name":"Anna","phone":"600"}}"#)
            #expect(answer.errorCode == RPCErrorCode.databaseLocked, "\(answer)")
            #expect(
                answer.errorMessage?.hasPrefix(
                    "database locked: the database \(stack.databasePath) is locked by another program") == true,
                "\(answer)")

            // The reminder is due meanwhile; its first try waits 5 s for the lock too.
            let waitingFor = await eventually(timeout: .seconds(due.timeIntervalSinceNow + 9)) {
                try? stack.client().status().waitingFor
            }
            #expect(
                waitingFor?.hasPrefix("the database: the database \(stack.databasePath) is locked by another program")
                    == true,
                "\(String(describing: waitingFor))")
            let shown = try await stack.beautyctl(["status"])
            #expect(shown.stdout.contains("wait for the database: the database"), "\(shown)")
            #expect(stack.notifications().isEmpty)

            let released = await eventually(timeout: .seconds(15)) { () -> Double? in
                holder.stdout.split(separator: "\n").first { $0.hasPrefix("released ") }.flatMap {
                    Double($0.dropFirst(9))
                }
            }
            let releasedAt = try #require(released, "\(holder.outputTail)")
            let calls = await stack.waitForNotifications(1, timeout: .seconds(15))
            try #require(calls.count == 1, "the reminder did not come after the lock went\n\(stack.logs)")
            report(
                String(format: "reminder held by a lock: shown %.2f s after the lock went", calls[0].time - releasedAt))
            #expect(calls[0].time >= releasedAt)

            let log = try #require(stack.daemon?.stderr)
            #expect(
                log.contains(
                    "waiting for the database: the database \(stack.databasePath) is locked by another program"),
                "\(log)")
            #expect(!log.contains("waiting for a notification server"), "\(log)")
            // The pass that showed the reminder clears the wait when it ends, which may be after the
            // server logged the Notify: wait for that, not for a moment that happens to come after it.
            let cleared = await eventually(timeout: .seconds(30)) {
                try? stack.client().status().waitingFor == nil ? true : nil
            }
            #expect(
                cleared == true,
                "status still waits for: \(String(describing: try? stack.client().status().waitingFor))\n\(stack.logs)")
        }

        @Test(
            "a reminder shown just before another program locks the database is recorded once the lock goes, never shown twice"
        )
        func lockedAfterShow() async throws {
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            // Before the server answers the first Notify, another program takes the lock for 7 s: beautyd's
            // write of "fired" waits its 5 s busy timeout and fails; a write from then on works 2 s later.
            let script = stack.directory + "/lock-holder.py"
            let holderOutput = stack.directory + "/lock-holder.out"
            try lockHolder.write(toFile: script, atomically: true, encoding: .utf8)
            _ = try await stack.startServer(flags: [
                "--before-first-reply",
                """
                \(Locations.python) '\(script)' '\(stack.databasePath)' 7 0 > '\(holderOutput)' 2>&1 &
                for i in $(seq 200); do grep -q locked '\(holderOutput)' 2>/dev/null && break; sleep 0.05; done
                """,
            ])
            try await stack.startDaemon()
            _ = try stack.addAppointment(
                "Shown, then locked", start: tomorrowOnTheHour(), remindAt: [wholeSecond(after: 2)])

            let first = await stack.waitForNotifications(1, timeout: .seconds(10))
            try #require(first.count == 1, "\(stack.logs)")
            let recorded = await eventually(timeout: .seconds(30)) { () -> String? in
                let log = stack.daemon?.stderr ?? ""
                return log.contains("reminder delivered: Shown, then locked") ? log : nil
            }
            let log = try #require(recorded, "the shown reminder was never recorded\n\(stack.logs)")
            #expect(stack.notifications().count == 1, "shown again: \(stack.notifications())")
            #expect(
                log.contains(
                    "reminder shown; recording it waits for the database: the database \(stack.databasePath) is locked by another program"
                ),
                "\(log)")
            let states = try await stack.sqlite(
                stack.databasePath, "SELECT state || ' ' || attempts FROM delivery WHERE itemKind = 'appointment'")
            #expect(states.stdout == "fired 1\n", "\(states)")
            // The pass that records it clears the wait when it ends, which may be after it logged the record.
            let cleared = await eventually(timeout: .seconds(30)) {
                try? stack.client().status().waitingFor == nil ? true : nil
            }
            #expect(
                cleared == true,
                "status still waits for: \(String(describing: try? stack.client().status().waitingFor))\n\(stack.logs)")
            #expect(try String(contentsOfFile: holderOutput, encoding: .utf8).contains("released"))
        }

        @Test(
            "a full disk: requests get their own error, status and the log say so, the reminder comes once space is freed"
        )
        func fullDisk() async throws {
            let stack = try await Stack.start(daemon: false, config: "[scheduling]\nretry_interval = \"2s\"\n")
            let disk = stack.directory + "/disk"
            defer {
                stack.shutdown()
                umount2(disk, Int32(MNT_DETACH))
                rmdir(disk)
            }
            #expect(mkdir(disk, 0o700) == 0)
            try #require(
                mount("tmpfs", disk, "tmpfs", 0, "size=2m") == 0, "mount tmpfs: \(String(cString: strerror(errno)))")
            let database = disk + "/beautyd.sqlite"
            try await stack.startDaemon(arguments: ["--log-level", "debug", "--database", database])
            let due = wholeSecond(after: 3)
            _ = try stack.addAppointment("Held by a full disk", start: tomorrowOnTheHour(), remindAt: [due])

            // Fill the disk to the last byte.
            let filler = disk + "/filler"
            let handle = try #require(
                FileHandle(forWritingAtPath: filler)
                    ?? {
                        FileManager.default.createFile(atPath: filler, contents: nil)
                        return FileHandle(forWritingAtPath: filler)
                    }())
            let block = Data(count: 4096)
            while (try? handle.write(contentsOf: block)) != nil {}
            try? handle.close()

            let answer = try stack.client().roundTrip(
                #"{"jsonrpc":"2.0","id":1,"method":"contact.add","params":{"name":"Anna","phone":"600"}}"#)
            #expect(answer.errorCode == RPCErrorCode.diskFull, "\(answer)")
            #expect(
                answer.errorMessage?.hasPrefix("disk full: the disk holding \(database) is full") == true, "\(answer)")

            await sleep(until: due.addingTimeInterval(1.5))
            let status = try stack.client().status()
            #expect(
                status.waitingFor?.hasPrefix("the database: the disk holding \(database) is full") == true, "\(status)")
            #expect(stack.notifications().isEmpty)

            unlink(filler)
            let calls = await stack.waitForNotifications(1, timeout: .seconds(10))
            #expect(calls.count == 1, "the reminder did not come after space was freed\n\(stack.logs)")
            let log = try #require(stack.daemon?.stderr)
            #expect(log.contains("waiting for the database: the disk holding \(database) is full"), "\(log)")
            #expect(!log.contains("waiting for a notification server"), "\(log)")
        }
    }
}
