import BeautyCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// What every test target shares: where the package, its built programs and the fixtures are;
// child processes that are always reaped; short temporary directories (Unix socket paths must stay
// under 108 bytes). The end-to-end stack (Stack.swift) runs real processes (dbus-daemon, a
// notification server, beautyd, beautyctl) on a private session bus inside one such directory.
//
// Children are started with posix_spawn, in their own process group, with an empty signal mask
// and default signal actions (a Swift Testing runner has SIGTERM blocked, and Foundation.Process
// children would inherit that), their stdout/stderr in files of the temporary directory. Every
// child is reaped; whatever a failing test leaves behind is killed by `Stack.shutdown()`, by
// `ChildProcess.deinit`, or at the latest when the test process exits.

package struct HarnessError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

// MARK: - Where things are

package enum Locations {
    /// The package root, from this file's path (Tests/BeautyTestSupport/Harness.swift).
    package static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A file of the package, by its path from the root ("docs/PROTOCOL.md").
    package static func file(_ relative: String) -> String { packageRoot.appendingPathComponent(relative).path }

    /// Where beautyd and beautyctl were built: $BEAUTYD_BIN_DIR, else next to the test bundle
    /// (.build/<triple>/debug), else .build/debug in the package.
    package static let binDirectory: String = {
        if let dir = ProcessInfo.processInfo.environment["BEAUTYD_BIN_DIR"], !dir.isEmpty { return dir }
        var candidates: [String] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            // The test runner is .build/<triple>/debug/beautydPackageTests.xctest (a file or a directory).
            var dir = (exe as NSString).deletingLastPathComponent
            if dir.hasSuffix(".xctest/Contents/MacOS") || dir.hasSuffix(".xctest") {
                dir = (dir.components(separatedBy: ".xctest").first! as NSString).deletingLastPathComponent
            }
            candidates.append(dir)
        }
        candidates.append((CommandLine.arguments.first.map { ($0 as NSString).deletingLastPathComponent }) ?? "")
        candidates.append(packageRoot.appendingPathComponent(".build/debug").path)
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0 + "/beautyd") }
            ?? packageRoot.appendingPathComponent(".build/debug").path
    }()

    /// A binary of this package; a missing one fails the test with how to build it.
    package static func built(_ name: String) throws -> String {
        let path = binDirectory + "/" + name
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw HarnessError(
                "\(path) does not exist: build it first (swift build --product \(name)), or point BEAUTYD_BIN_DIR at the directory holding it"
            )
        }
        return path
    }

    /// A system program the end-to-end tests need; a missing one is a failure, never a skip.
    package static func system(_ name: String, package: String) throws -> String {
        for dir in ["/usr/bin", "/bin", "/usr/local/bin", "/usr/sbin"]
        where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
            return "\(dir)/\(name)"
        }
        throw HarnessError("\(name) is not installed; the end-to-end tests need it (apt-get install \(package))")
    }

    /// A file of Tests/BeautyTestSupport/Fixtures, from the copied resource bundle.
    package static func fixture(_ name: String) throws -> String {
        if let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") {
            return url.path
        }
        let source = packageRoot.appendingPathComponent("Tests/BeautyTestSupport/Fixtures/\(name)").path
        guard FileManager.default.fileExists(atPath: source) else { throw HarnessError("fixture \(name) not found") }
        return source
    }

    /// The system interpreter: the one with python3-dbus and python3-gi (not a pyenv on PATH).
    package static let python = "/usr/bin/python3"
}

// MARK: - Child processes

/// The pids not reaped yet, killed when the test process exits (after a crash past a teardown).
private final class LiveChildren: @unchecked Sendable {
    static let shared = LiveChildren()
    private let lock = NSLock()
    private var pids = Set<pid_t>()
    private var registered = false

    func add(_ pid: pid_t) {
        lock.withLock {
            pids.insert(pid)
            if !registered {
                registered = true
                atexit { LiveChildren.shared.killAll() }
            }
        }
    }

    func remove(_ pid: pid_t) { _ = lock.withLock { pids.remove(pid) } }

    func killAll() {
        for pid in lock.withLock({ pids }) {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
        }
    }
}

package enum ChildExit: Equatable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    package var description: String {
        switch self {
        case let .exited(code): return "exit code \(code)"
        case let .signaled(signal): return "killed by signal \(signal)"
        }
    }
}

/// One spawned program, its output in `<logDirectory>/<name>.out` and `.err`.
package final class ChildProcess: @unchecked Sendable {
    package let name: String
    package let pid: pid_t
    package let stdoutPath: String
    package let stderrPath: String
    private let lock = NSLock()
    private var status: ChildExit?

    package init(
        name: String, executable: String, arguments: [String], environment: [String: String], logDirectory: String
    ) throws {
        self.name = name
        stdoutPath = "\(logDirectory)/\(name).out"
        stderrPath = "\(logDirectory)/\(name).err"

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw HarnessError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        self.pid = pid
        LiveChildren.shared.add(pid)
    }

    deinit { killNow() }

    /// The exit status once the process has ended (reaping it), nil while it runs.
    package func poll() -> ChildExit? {
        lock.withLock {
            if let status { return status }
            var raw: Int32 = 0
            let result = waitpid(pid, &raw, WNOHANG)
            guard result == pid else { return nil }
            status = Self.decode(raw)
            LiveChildren.shared.remove(pid)
            return status
        }
    }

    package var isRunning: Bool { poll() == nil }

    package func signal(_ signal: Int32) {
        if poll() == nil { kill(pid, signal) }
    }

    /// Waits up to `timeout` for the process to end on its own.
    package func wait(timeout: Duration) async -> ChildExit? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let status = poll() { return status }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits up to `timeout` for the process to end on its own; past it, kills it and answers nil.
    package func waitForExit(timeout: Duration = .seconds(10)) async -> ChildExit? {
        if let status = await wait(timeout: timeout) { return status }
        killNow()
        return nil
    }

    /// Sends `signal`, waits up to `grace`, then kills it for good; always reaps.
    @discardableResult
    package func stop(_ signal: Int32 = SIGKILL, grace: Duration = .seconds(5)) async -> ChildExit {
        self.signal(signal)
        if let status = await wait(timeout: grace) { return status }
        return killNow()
    }

    /// SIGKILL to the process and its group, and a blocking reap (quick: SIGKILL cannot be ignored).
    @discardableResult
    package func killNow() -> ChildExit {
        lock.withLock {
            if let status { return status }
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
            let decoded = Self.decode(raw)
            status = decoded
            LiveChildren.shared.remove(pid)
            return decoded
        }
    }

    package var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    package var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// How the program ended and what it printed, once it has ended by itself within `timeout`
    /// (killed and an error past it).
    package func result(within timeout: Duration) async throws -> CommandResult {
        guard let status = await waitForExit(timeout: timeout) else {
            throw HarnessError("\(name) did not finish within \(timeout)\n\(outputTail)")
        }
        return CommandResult(status: status, stdout: stdout, stderr: stderr)
    }

    /// Both outputs, stdout first, for a program whose log goes to either.
    package var output: String { stdout + stderr }

    /// The last lines of both outputs, for failure messages.
    package var outputTail: String {
        let out = stdout.split(separator: "\n", omittingEmptySubsequences: false).suffix(30).joined(separator: "\n")
        let err = stderr.split(separator: "\n", omittingEmptySubsequences: false).suffix(40).joined(separator: "\n")
        return
            "--- \(name) (pid \(pid), \(poll()?.description ?? "running")) stdout:\n\(out)\n--- \(name) stderr:\n\(err)"
    }

    private static func decode(_ raw: Int32) -> ChildExit {
        let signal = raw & 0x7f
        return signal == 0 ? .exited((raw >> 8) & 0xff) : .signaled(signal)
    }
}

/// A finished short-lived command.
package struct CommandResult: CustomStringConvertible {
    package var status: ChildExit
    package var stdout: String
    package var stderr: String

    package init(status: ChildExit, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    package var description: String { "\(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}

/// A fresh `/tmp/bd-XXXXXX` directory (short, for Unix socket paths).
package func makeShortTemporaryDirectory() throws -> String {
    var template = Array("/tmp/bd-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        throw HarnessError("mkdtemp: \(String(cString: strerror(errno)))")
    }
    return String(cString: made)
}

/// A short temporary directory removed with everything in it when released.
package final class ScratchDirectory {
    package let path: String

    package init() throws { path = try makeShortTemporaryDirectory() }

    package func sub(_ name: String, create: Bool = false) throws -> String {
        let full = "\(path)/\(name)"
        if create { try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true) }
        return full
    }

    /// The per-user XDG variables pointing inside this directory, plus a harmless PATH and HOME.
    package func xdgEnvironment() throws -> [String: String] {
        [
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": path,
            "XDG_RUNTIME_DIR": try sub("rt", create: true),
            "XDG_CONFIG_HOME": try sub("cfg", create: true),
            "XDG_DATA_HOME": try sub("data", create: true),
            // A bus address that does not exist: the daemon must not reach the real session.
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(path)/no-bus",
        ]
    }

    /// Starts a program with its output in this directory (`<name>.out`, `<name>.err`).
    package func spawn(_ name: String, _ executable: String, _ arguments: [String], environment: [String: String])
        throws -> ChildProcess
    {
        try ChildProcess(
            name: name, executable: executable, arguments: arguments, environment: environment, logDirectory: path)
    }

    /// Runs a program to its end (killed after `timeout`, which is an error).
    package func run(
        _ executable: String, _ arguments: [String], environment: [String: String],
        timeout: Duration = .seconds(60)
    ) async throws -> CommandResult {
        try await spawn(
            "\((executable as NSString).lastPathComponent)-\(UUID().uuidString.prefix(8))", executable, arguments,
            environment: environment
        ).result(within: timeout)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

// MARK: - Small helpers

/// Polls `probe` every `interval` until it gives a value or `timeout` passes.
package func eventually<T>(timeout: Duration, interval: Duration = .milliseconds(20), _ probe: () throws -> T?)
    async rethrows -> T?
{
    let deadline = ContinuousClock.now + timeout
    while true {
        if let value = try probe() { return value }
        if ContinuousClock.now >= deadline { return nil }
        try? await Task.sleep(for: interval)
    }
}

/// Sleeps until a wall-clock instant (short waits only).
package func sleep(until date: Date) async {
    let seconds = date.timeIntervalSinceNow
    if seconds > 0 { try? await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up)))) }
}

/// A whole second `seconds` (at least) from now: reminders are due on whole seconds.
package func wholeSecond(after seconds: TimeInterval) -> Date {
    Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + seconds).rounded(.up))
}

/// "2026-12-01T13:00:00Z"
package func iso(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
}

/// The zone beautyd runs in during these tests: not UTC, so local-time text is really checked.
package let testTimeZone = TimeZone(identifier: "Europe/Warsaw")!

/// "HH:mm" of an instant in the daemon's zone.
package func localClock(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = testTimeZone
    formatter.dateFormat = "HH:mm"
    return formatter.string(from: date)
}

/// Instants built from a wall-clock time in a named zone, so tests read like calendars.
package func instant(_ text: String, _ zone: String = "Europe/Warsaw") -> Date {
    let tz = TimeZone(identifier: zone)!
    let parts = text.split(separator: " ")
    let ymd = parts[0].split(separator: "-").map { Int($0)! }
    let hms = parts.count > 1 ? parts[1].split(separator: ":").map { Int($0)! } : [0, 0]
    return LocalTime.instant(
        year: ymd[0], month: ymd[1], day: ymd[2], hour: hms[0], minute: hms[1],
        second: hms.count > 2 ? hms[2] : 0, in: tz)!
}

/// A later start for appointments: the next whole hour a day ahead.
package func tomorrowOnTheHour() -> Date {
    Date(timeIntervalSince1970: ((Date().timeIntervalSince1970 / 3600).rounded(.up) + 24) * 3600)
}

// MARK: - One notification as the test server logged it

package struct NotifyCall: Decodable, CustomStringConvertible {
    package struct Hints: Decodable {
        package var category: String?
        package var urgency: Int?
        package var resident: Bool?
    }

    package var time: Double
    package var id: UInt32
    package var appName: String
    package var replacesID: UInt32
    package var summary: String
    package var body: String
    package var actions: [String]
    package var hints: Hints
    package var expireTimeout: Int

    package enum CodingKeys: String, CodingKey {
        case time, id, summary, body, actions, hints
        case appName = "app_name", replacesID = "replaces_id", expireTimeout = "expire_timeout"
    }

    package var date: Date { Date(timeIntervalSince1970: time) }
    /// Action keys only (the list alternates key, label).
    package var actionKeys: [String] { stride(from: 0, to: actions.count, by: 2).map { actions[$0] } }
    package var description: String {
        "Notify #\(id) at \(time): \(summary) | \(body) | \(actions) | \(hints.category ?? "-")"
    }
}
