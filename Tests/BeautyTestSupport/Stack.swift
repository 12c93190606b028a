import BeautyCore
import BeautyProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Everything one test runs against, inside one short temporary directory (/tmp/bd-XXXXXX, so
/// every Unix socket path stays far below the 108-byte limit):
///
///     bus            the private session bus socket (dbus-daemon with Fixtures/session-bus.conf)
///     run/beautyd/   XDG_RUNTIME_DIR: beautyd.sock and its lock
///     data/beautyd/  XDG_DATA_HOME: beautyd.sqlite
///     config/beautyd XDG_CONFIG_HOME: config.toml when a test writes one
///     notify.log     one JSON line per Notify the test server received
///     *.out, *.err   every child's output
///
/// Set BEAUTYD_E2E_KEEP=1 to keep the directory after the test.
package final class Stack: @unchecked Sendable {
    package let directory: String
    package let busAddress: String
    package private(set) var children: [ChildProcess] = []
    package private(set) var bus: ChildProcess
    package private(set) var server: ChildProcess?
    package private(set) var daemon: ChildProcess?
    private var names: [String: Int] = [:]
    /// The `LANG` of every child started from now on (LANGUAGE, LC_ALL and LC_MESSAGES unset); nil
    /// keeps them in the C locale, in English, as every test before translations expects.
    package var locale: String?
    private var busRestarts = 0
    private var finished = false

    package var runtimeDirectory: String { directory + "/run" }
    package var socketPath: String { runtimeDirectory + "/beautyd/beautyd.sock" }
    package var databasePath: String { directory + "/data/beautyd/beautyd.sqlite" }
    package var configPath: String { directory + "/config/beautyd/config.toml" }
    package var notifyLog: String { directory + "/notify.log" }

    /// Bus first, then (optionally) the test notification server, then (optionally) beautyd.
    package static func start(
        server: Bool = true, serverFlags: [String] = [], daemon: Bool = true,
        config: String? = nil
    ) async throws -> Stack {
        let stack = try await Stack()
        do {
            if let config { try stack.writeConfig(config) }
            if server { try await stack.startServer(flags: serverFlags) }
            if daemon { try await stack.startDaemon() }
        } catch {
            stack.shutdown()
            throw error
        }
        return stack
    }

    private init() async throws {
        directory = try makeShortTemporaryDirectory()
        for sub in ["run", "data", "config", "home"] {
            try FileManager.default.createDirectory(atPath: "\(directory)/\(sub)", withIntermediateDirectories: true)
        }
        do {
            bus = try await Self.launchBus(in: directory)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
        // Without the guid dbus-daemon prints: as with a user bus (unix:path=$XDG_RUNTIME_DIR/bus), a bus
        // restarted at the same path is the same address.
        busAddress = "unix:path=\(directory)/bus"
        children.append(bus)
    }

    /// dbus-daemon with Fixtures/session-bus.conf listening at `<directory>/bus`; returns once it printed its address.
    private static func launchBus(in directory: String, name: String = "dbus-daemon") async throws -> ChildProcess {
        let dbus = try Locations.system("dbus-daemon", package: "dbus")
        let config = try Locations.fixture("session-bus.conf")
        let bus = try ChildProcess(
            name: name, executable: dbus,
            arguments: [
                "--config-file=\(config)", "--nofork", "--print-address=1", "--address=unix:path=\(directory)/bus",
            ],
            environment: ["PATH": "/usr/bin:/bin"], logDirectory: directory)
        let address = await eventually(timeout: .seconds(5)) { () -> String? in
            let out = bus.stdout
            guard out.hasSuffix("\n"), let first = out.split(separator: "\n").first else { return nil }
            return String(first)
        }
        guard let address, address.hasPrefix("unix:") else {
            let tail = bus.outputTail
            bus.killNow()
            throw HarnessError("dbus-daemon printed no address\n\(tail)")
        }
        return bus
    }

    /// Kills the session bus (and with it every connection to it), as when the user's bus dies.
    package func killBus() {
        bus.killNow()
        unlink(directory + "/bus")  // a dbus-daemon does not remove its socket file when killed
    }

    /// Starts a new session bus at the same address, as a socket-activated user bus comes back.
    package func restartBus() async throws {
        busRestarts += 1
        bus = try await Self.launchBus(in: directory, name: "dbus-daemon-\(busRestarts + 1)")
        children.append(bus)
    }

    deinit { shutdown() }

    // MARK: - Children

    /// The environment of every child: the bus, the XDG directories and the zone of this stack, and
    /// nothing of the developer's desktop session.
    package var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        for key in env.keys
        where key.hasPrefix("XDG_") || key.hasPrefix("LISTEN_") || key.hasPrefix("WATCHDOG_")
            || [
                "DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY", "NOTIFY_SOCKET", "JOURNAL_STREAM",
                "INVOCATION_ID", "BEAUTYD_SOCKET", "TZ",
            ].contains(key)
        {
            env[key] = nil
        }
        env["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        env["XDG_RUNTIME_DIR"] = runtimeDirectory
        env["XDG_DATA_HOME"] = directory + "/data"
        env["XDG_CONFIG_HOME"] = directory + "/config"
        env["XDG_CACHE_HOME"] = directory + "/home/.cache"
        env["HOME"] = directory + "/home"
        env["TZ"] = testTimeZone.identifier
        for key in ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"] { env[key] = nil }
        if let locale { env["LANG"] = locale } else { env["LC_ALL"] = "C.UTF-8" }
        return env
    }

    /// Starts a child whose files are named after it (a second one of the same name gets "-2").
    package func spawn(
        _ name: String, _ executable: String, _ arguments: [String], environment extra: [String: String] = [:]
    ) throws -> ChildProcess {
        let count = (names[name] ?? 0) + 1
        names[name] = count
        let child = try ChildProcess(
            name: count == 1 ? name : "\(name)-\(count)", executable: executable, arguments: arguments,
            environment: environment.merging(extra) { $1 }, logDirectory: directory)
        children.append(child)
        return child
    }

    /// Runs a short command to its end (killed after `timeout`).
    package func run(
        _ executable: String, _ arguments: [String], environment extra: [String: String] = [:],
        timeout: Duration = .seconds(10)
    ) async throws -> CommandResult {
        try await spawn((executable as NSString).lastPathComponent, executable, arguments, environment: extra).result(
            within: timeout)
    }

    /// `beautyctl --socket <this stack's socket> ARGS...`
    package func beautyctl(_ arguments: [String], socket: Bool = true) async throws -> CommandResult {
        let binary = try Locations.built("beautyctl")
        return try await run(binary, (socket ? ["--socket", socketPath] : []) + arguments)
    }

    package func writeConfig(_ text: String) throws {
        try FileManager.default.createDirectory(
            atPath: (configPath as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true)
        try text.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    /// Starts the Python test server (Fixtures/notification_server.py); returns when it owned its bus name.
    @discardableResult
    package func startServer(flags: [String] = []) async throws -> Date {
        let script = try Locations.fixture("notification_server.py")
        let child = try spawn("notification-server", Locations.python, [script, notifyLog] + flags)
        server = child
        // "ready <unique name> <time>\n"
        let ready = await eventually(timeout: .seconds(10)) { () -> Date?? in
            let words = child.stdout.split(whereSeparator: \.isWhitespace)
            if words.count >= 3, words[0] == "ready", let time = Double(words[2]) {
                return .some(Date(timeIntervalSince1970: time))
            }
            return child.isRunning ? nil : .some(nil)
        }
        guard let owned = ready ?? nil else {
            throw HarnessError("the test notification server did not start\n\(child.outputTail)")
        }
        return owned
    }

    package func stopServer() async {
        await server?.stop(SIGKILL)
        server = nil
    }

    /// Starts the real beautyd and waits until its socket answers `status`. `environment` is added to
    /// (and overrides) the stack's, e.g. `["TZ": "", "BEAUTYD_LOCALTIME": link]` to follow a zone link.
    @discardableResult
    package func startDaemon(arguments: [String] = ["--log-level", "debug"], environment: [String: String] = [:])
        async throws -> ChildProcess
    {
        let child = try spawn("beautyd", try Locations.built("beautyd"), arguments, environment: environment)
        daemon = child
        let socketPath = self.socketPath
        let answering = await eventually(timeout: .seconds(15), interval: .milliseconds(10)) { () -> Bool? in
            if !child.isRunning { return false }
            guard FileManager.default.fileExists(atPath: socketPath),
                let client = try? RPCClient(path: socketPath, timeout: 2)
            else { return nil }
            return (try? client.status()) != nil ? true : nil
        }
        guard answering == true else {
            throw HarnessError("beautyd did not start answering on \(socketPath)\n\(child.outputTail)")
        }
        return child
    }

    /// Stops beautyd gracefully (SIGINT) and returns how it ended.
    @discardableResult
    package func stopDaemon(signal: Int32 = SIGINT) async -> ChildExit? {
        let status = await daemon?.stop(signal, grace: .seconds(10))
        daemon = nil
        return status
    }

    /// Kills everything still running (daemon first, gracefully), reaps it, removes the directory.
    package func shutdown() {
        guard !finished else { return }
        finished = true
        if let daemon, daemon.isRunning {
            daemon.signal(SIGINT)
            for _ in 0..<300 where daemon.isRunning { usleep(10_000) }
        }
        for child in children.reversed() { child.killNow() }
        if ProcessInfo.processInfo.environment["BEAUTYD_E2E_KEEP"] == nil {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    // MARK: - Talking to it

    package func client(timeout: TimeInterval = 5) throws -> RPCClient {
        try RPCClient(path: socketPath, timeout: timeout)
    }

    /// Adds an appointment over the socket with absolute reminders.
    package func addAppointment(_ title: String, start: Date, remindAt: [Date]) throws -> AppointmentDetail {
        var params = AppointmentAddParams(title: title, start: start)
        params.reminders = remindAt.map(Reminder.at)
        return try client().call("appointment.add", params)
    }

    /// Every Notify the test server has logged so far.
    package func notifications() -> [NotifyCall] {
        guard let text = try? String(contentsOfFile: notifyLog, encoding: .utf8) else { return [] }
        let decoder = JSONDecoder()
        return text.split(separator: "\n").compactMap { try? decoder.decode(NotifyCall.self, from: Data($0.utf8)) }
    }

    /// Waits until at least `count` notifications were logged; returns all of them (maybe fewer on timeout).
    package func waitForNotifications(_ count: Int, timeout: Duration) async -> [NotifyCall] {
        await eventually(timeout: timeout, interval: .milliseconds(10)) { () -> [NotifyCall]? in
            let calls = notifications()
            return calls.count >= count ? calls : nil
        } ?? notifications()
    }

    /// Makes the test server emit ActionInvoked(id, key) as if the user clicked a button.
    package func click(_ action: String, on id: UInt32) async throws {
        try await callTestServer("Invoke", ["uint32:\(id)", "string:\(action)"])
    }

    /// Calls a method of the test server's org.beautyd.Test interface with dbus-send; returns its printed reply.
    @discardableResult
    private func callTestServer(_ method: String, _ arguments: [String]) async throws -> String {
        let dbusSend = try Locations.system("dbus-send", package: "dbus-bin")
        let result = try await run(
            dbusSend,
            [
                "--session", "--print-reply", "--dest=org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                "org.beautyd.Test.\(method)",
            ] + arguments)
        guard result.status == .exited(0) else { throw HarnessError("dbus-send \(method) failed: \(result)") }
        return result.stdout
    }

    /// The ids of the test server's popups still open: shown and not closed by anyone.
    package func displayed() async throws -> [UInt32] {
        try await callTestServer("Displayed", []).split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            return words.count == 2 && words[0] == "uint32" ? UInt32(words[1]) : nil
        }
    }

    /// Makes the test server emit NotificationClosed(id, reason) (1 expired, 2 dismissed by the user, 3 closed by a call).
    package func close(_ id: UInt32, reason: UInt32) async throws {
        try await callTestServer("Close", ["uint32:\(id)", "uint32:\(reason)"])
    }

    /// Whether a bus name has an owner on this stack's bus.
    package func busNameHasOwner(_ name: String) async throws -> Bool {
        let dbusSend = try Locations.system("dbus-send", package: "dbus-bin")
        let result = try await run(
            dbusSend,
            [
                "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                "org.freedesktop.DBus.NameHasOwner", "string:\(name)",
            ])
        return result.stdout.contains("boolean true")
    }

    /// Every child's output, for failure messages.
    package var logs: String { children.map(\.outputTail).joined(separator: "\n") }
}
