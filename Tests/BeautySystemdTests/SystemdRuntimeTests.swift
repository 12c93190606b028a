import BeautyTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's side of the systemd contract, with the real binary: socket activation through
/// `systemd-socket-activate`, and sd_notify messages on a `$NOTIFY_SOCKET` bound by the test.
@Suite(.serialized) struct SystemdRuntimeTests {
    static let statusRequest = #"{"jsonrpc":"2.0","id":1,"method":"status"}"#

    @Test func servesTheSocketSystemdPassesIn() async throws {
        let beautyd = try Locations.built("beautyd")
        let activate = try Locations.system("systemd-socket-activate", package: "systemd")
        let scratch = try ScratchDirectory()
        let environment = try scratch.xdgEnvironment()
        let listen = try scratch.sub("s.sock")
        // systemd-socket-activate passes on only the variables named with -E.
        let passed = environment.filter { $0.key != "PATH" }.sorted { $0.key < $1.key }.flatMap {
            ["-E", "\($0.key)=\($0.value)"]
        }
        let child = try scratch.spawn(
            "daemon", activate, ["-l", listen] + passed + [beautyd, "--database", try scratch.sub("db.sqlite")],
            environment: environment)

        // The first connection makes systemd-socket-activate exec beautyd in its own process.
        let client = try await RPCClient.connected(to: listen, within: .seconds(10))
        let answer = try client.roundTrip(Self.statusRequest)
        let result = try #require(answer["result"] as? [String: Any], "answer: \(answer)\nlog:\n\(child.output)")
        #expect(answer["id"] as? Int == 1)
        #expect(result["pid"] as? Int == Int(child.pid))
        #expect(result["version"] is String)

        // A second client on the same inherited socket, while the first stays connected.
        let second = try await RPCClient.connected(to: listen, within: .seconds(10))
        #expect(try second.roundTrip(#"{"jsonrpc":"2.0","id":"b","method":"contact.list"}"#)["result"] is [Any])

        // `echo ... | socat`: requests followed by EOF still get every answer, then the daemon hangs up.
        let oneShot = try await RPCClient.connected(to: listen, within: .seconds(10))
        try oneShot.send(line: #"{"jsonrpc":"2.0","id":1,"method":"now"}"#)
        try oneShot.send(line: #"{"jsonrpc":"2.0","method":"status"}"#)  // a notification: no answer
        try oneShot.send(line: #"{"jsonrpc":"2.0","id":2,"method":"status"}"#)
        oneShot.finishSending()
        #expect(oneShot.nextLine()?.hasPrefix(#"{"id":1,"#) == true)
        #expect(oneShot.nextLine()?.hasPrefix(#"{"id":2,"#) == true)
        #expect(oneShot.nextLine() == nil)

        // It adopted the passed fd rather than binding its own default socket.
        let ownSocket = environment["XDG_RUNTIME_DIR"]! + "/beautyd/beautyd.sock"
        #expect(!FileManager.default.fileExists(atPath: ownSocket))
        #expect(child.output.contains("listening on the socket systemd passed (fd 3)"), "log:\n\(child.output)")

        // Requests are answered before the service group has trapped SIGINT; "ready" comes once it has.
        let ready = await eventually(timeout: .seconds(120)) { child.output.contains(" ready: ") ? true : nil }
        #expect(ready == true, "no ready line\nlog:\n\(child.output)")
        child.signal(SIGINT)
        let status = await child.waitForExit()
        #expect(status == .exited(0), "log:\n\(child.output)")
    }

    @Test func reportsReadyWatchdogReloadAndStoppingOnNotifySocket() async throws {
        let beautyd = try Locations.built("beautyd")
        let scratch = try ScratchDirectory()
        let listener = try NotifyListener(path: try scratch.sub("notify.sock"))
        var environment = try scratch.xdgEnvironment()
        environment["NOTIFY_SOCKET"] = listener.path
        environment["WATCHDOG_USEC"] = "400000"  // pings expected every 200 ms
        let socketPath = try scratch.sub("b.sock")
        let child = try scratch.spawn(
            "daemon", beautyd,
            [
                "--socket", socketPath, "--database", try scratch.sub("db.sqlite"),
                "--config", try scratch.sub("config.toml"),
            ], environment: environment)

        let ready = try #require(
            listener.next { $0.split(separator: "\n").contains("READY=1") },
            "no READY=1; got \(listener.messages)\nlog:\n\(child.output)")
        #expect(ready.contains("STATUS="))
        #expect(ready.split(separator: "\n").contains("MAINPID=\(child.pid)"))

        // Ready means serving: the socket answers at once, no retry needed.
        let client = try RPCClient(path: socketPath)
        #expect(try client.roundTrip(Self.statusRequest)["result"] != nil)

        #expect(listener.next { $0 == "WATCHDOG=1" } != nil, "no WATCHDOG=1; got \(listener.messages)")

        // SIGHUP (ExecReload=) reloads: RELOADING=1 with a timestamp, then READY=1 again.
        child.signal(SIGHUP)
        let reloading = listener.next { $0.hasPrefix("RELOADING=1") }
        #expect(reloading?.contains("MONOTONIC_USEC=") == true, "got \(listener.messages)")
        #expect(listener.next { $0.split(separator: "\n").contains("READY=1") } != nil, "got \(listener.messages)")

        child.signal(SIGINT)
        let stopping = listener.next { $0.split(separator: "\n").contains("STOPPING=1") }
        #expect(stopping != nil, "no STOPPING=1; got \(listener.messages)\nlog:\n\(child.output)")
        let status = await child.waitForExit()
        #expect(status == .exited(0), "log:\n\(child.output)")
    }

    /// systemd may send ExecReload's SIGHUP, or a stop, the moment READY=1 arrives: beautyd must
    /// have trapped every signal by then, or the default action kills it with the database open.
    @Test func aReloadAndAStopSentTheMomentItIsReadyAreHandled() async throws {
        let beautyd = try Locations.built("beautyd")
        for round in 1...8 {
            let scratch = try ScratchDirectory()
            let listener = try NotifyListener(path: try scratch.sub("notify.sock"))
            var environment = try scratch.xdgEnvironment()
            environment["NOTIFY_SOCKET"] = listener.path
            let child = try scratch.spawn(
                "daemon", beautyd,
                [
                    "--socket", try scratch.sub("b.sock"), "--database", try scratch.sub("db.sqlite"),
                    "--config", try scratch.sub("config.toml"),
                ], environment: environment)
            try #require(
                listener.next { $0.split(separator: "\n").contains("READY=1") } != nil,
                "round \(round): no READY=1; got \(listener.messages)\nlog:\n\(child.output)")
            child.signal(SIGHUP)
            #expect(
                listener.next { $0.hasPrefix("RELOADING=1") } != nil,
                "round \(round): got \(listener.messages)\nlog:\n\(child.output)")
            child.signal(SIGINT)
            let status = await child.waitForExit()
            #expect(status == .exited(0), "round \(round): \(status)\nlog:\n\(child.output)")
        }
    }

    /// SIGABRT is what the watchdog sends a beautyd that missed its pings: it must end the process
    /// (Swift's backtracer alone prints a backtrace and lets it serve on), so Restart= replaces it.
    @Test func sigabrtEndsTheDaemon() async throws {
        let beautyd = try Locations.built("beautyd")
        let scratch = try ScratchDirectory()
        let socketPath = try scratch.sub("b.sock")
        let child = try scratch.spawn(
            "daemon", beautyd, ["--socket", socketPath, "--database", try scratch.sub("db.sqlite")],
            environment: try scratch.xdgEnvironment())
        _ = try await RPCClient.connected(to: socketPath, within: .seconds(10)).roundTrip(Self.statusRequest)
        child.signal(SIGABRT)
        let status = await child.waitForExit(timeout: .seconds(60))
        #expect(status == .signaled(SIGABRT), "log:\n\(child.output)")
        #expect(child.output.contains("SIGABRT"), "log:\n\(child.output)")
    }

    /// SO_PEERCRED: a process of another uid that reaches the socket (here the permissions are
    /// opened up on purpose) gets one -32001 line and is disconnected. Needs root to switch uid.
    @Test(.enabled(if: getuid() == 0, "switching to another uid needs root"))
    func refusesPeersOfAnotherUser() async throws {
        let beautyd = try Locations.built("beautyd")
        let setpriv = try Locations.system("setpriv", package: "util-linux")
        let socat = try Locations.system("socat", package: "socat")
        let scratch = try ScratchDirectory()
        let socketPath = try scratch.sub("b.sock")
        let child = try scratch.spawn(
            "daemon", beautyd, ["--socket", socketPath, "--database", try scratch.sub("db.sqlite")],
            environment: try scratch.xdgEnvironment())
        // up and serving its own uid
        _ = try await RPCClient.connected(to: socketPath, within: .seconds(10)).roundTrip(Self.statusRequest)
        chmod(scratch.path, 0o755)
        chmod(socketPath, 0o666)

        let run = try await scratch.run(
            setpriv,
            ["--reuid=65534", "--regid=65534", "--clear-groups", socat, "-t", "5", "-", "UNIX-CONNECT:\(socketPath)"],
            environment: ["PATH": "/usr/bin:/bin"], timeout: .seconds(20))
        #expect(run.status == .exited(0), "stderr: \(run.stderr)")
        let answer = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
            "stdout: \(run.stdout)")
        let error = try #require(answer["error"] as? [String: Any])
        #expect(error["code"] as? Int == -32001)
        #expect(answer["id"] is NSNull)
        #expect(child.output.contains("refused a connection from uid 65534"), "log:\n\(child.output)")

        child.signal(SIGINT)
        #expect(await child.waitForExit() == .exited(0))
    }

    /// A bad configuration file stops the start with EX_CONFIG (78) and names the file and line,
    /// which is what `journalctl --user -u beautyd` shows before Restart= gives up.
    @Test func refusesToStartWithABrokenConfig() async throws {
        let beautyd = try Locations.built("beautyd")
        let scratch = try ScratchDirectory()
        let config = try scratch.sub("broken.toml")
        try "[scheduling]\nsnooze = \"10m\"\nmax_lateness = 12\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let listener = try NotifyListener(path: try scratch.sub("notify.sock"))
        var environment = try scratch.xdgEnvironment()
        environment["NOTIFY_SOCKET"] = listener.path
        let run = try await scratch.run(
            beautyd,
            ["--config", config, "--socket", try scratch.sub("b.sock"), "--database", try scratch.sub("db.sqlite")],
            environment: environment, timeout: .seconds(20))
        #expect(run.status == .exited(78))
        #expect(run.stderr.contains("\(config):3:"), "stderr:\n\(run.stderr)")
        #expect(run.stderr.contains("max_lateness"))
        #expect(listener.next(within: .milliseconds(300)) { $0.contains("READY=1") } == nil)
    }
}
