import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

// The end-to-end harness: real processes (dbus-daemon, a notification server, beautyd, beautyctl),
// a private session bus, real Unix sockets, all inside one short temporary directory per test.
//
// Children are started with posix_spawn, in their own process group, with an empty signal mask
// and default signal actions (a Swift Testing runner has SIGTERM blocked, and Foundation.Process
// children would inherit that), their stdout/stderr in files of the temporary directory. Every
// child is reaped; whatever a failing test leaves behind is killed by `Stack.shutdown()`, by
// `ChildProcess.deinit`, or at the latest when the test process exits.

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

// MARK: - Where things are

enum Locations {
    /// The package root, from this file's path (Tests/BeautyEndToEndTests/TestHarness.swift).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Where beautyd and beautyctl were built: $BEAUTYD_BIN_DIR, else next to the test bundle
    /// (.build/<triple>/debug), else .build/debug in the package.
    static let binDirectory: String = {
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
    static func built(_ name: String) throws -> String {
        let path = binDirectory + "/" + name
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw HarnessError("\(path) does not exist: build it first (swift build --product \(name)), or point BEAUTYD_BIN_DIR at the directory holding it")
        }
        return path
    }

    /// A system program the end-to-end tests need; a missing one is a failure, never a skip.
    static func system(_ name: String, package: String) throws -> String {
        for dir in ["/usr/bin", "/bin", "/usr/local/bin", "/usr/sbin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
            return "\(dir)/\(name)"
        }
        throw HarnessError("\(name) is not installed; the end-to-end tests need it (apt-get install \(package))")
    }

    /// A file of Tests/BeautyEndToEndTests/Fixtures, from the copied resource bundle.
    static func fixture(_ name: String) throws -> String {
        if let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") { return url.path }
        let source = packageRoot.appendingPathComponent("Tests/BeautyEndToEndTests/Fixtures/\(name)").path
        guard FileManager.default.fileExists(atPath: source) else { throw HarnessError("fixture \(name) not found") }
        return source
    }

    /// The system interpreter: the one with python3-dbus and python3-gi (not a pyenv on PATH).
    static let python = "/usr/bin/python3"
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

enum ExitStatus: Equatable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    var description: String {
        switch self {
        case let .exited(code): return "exit code \(code)"
        case let .signaled(signal): return "killed by signal \(signal)"
        }
    }
}

/// One spawned program, its output in `<logDirectory>/<name>.out` and `.err`.
final class ChildProcess: @unchecked Sendable {
    let name: String
    let pid: pid_t
    let stdoutPath: String
    let stderrPath: String
    private let lock = NSLock()
    private var status: ExitStatus?

    init(name: String, executable: String, arguments: [String], environment: [String: String], logDirectory: String) throws {
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
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

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
    func poll() -> ExitStatus? {
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

    var isRunning: Bool { poll() == nil }

    func signal(_ signal: Int32) {
        if poll() == nil { kill(pid, signal) }
    }

    /// Waits up to `timeout` for the process to end on its own.
    func wait(timeout: Duration) async -> ExitStatus? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let status = poll() { return status }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Sends `signal`, waits up to `grace`, then kills it for good; always reaps.
    @discardableResult
    func stop(_ signal: Int32 = SIGKILL, grace: Duration = .seconds(5)) async -> ExitStatus {
        self.signal(signal)
        if let status = await wait(timeout: grace) { return status }
        return killNow()
    }

    /// SIGKILL to the process and its group, and a blocking reap (quick: SIGKILL cannot be ignored).
    @discardableResult
    func killNow() -> ExitStatus {
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

    var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// The last lines of both outputs, for failure messages.
    var outputTail: String {
        let out = stdout.split(separator: "\n", omittingEmptySubsequences: false).suffix(30).joined(separator: "\n")
        let err = stderr.split(separator: "\n", omittingEmptySubsequences: false).suffix(40).joined(separator: "\n")
        return "--- \(name) (pid \(pid), \(poll()?.description ?? "running")) stdout:\n\(out)\n--- \(name) stderr:\n\(err)"
    }

    private static func decode(_ raw: Int32) -> ExitStatus {
        let signal = raw & 0x7f
        return signal == 0 ? .exited((raw >> 8) & 0xff) : .signaled(signal)
    }
}

/// A finished short-lived command.
struct CommandResult: CustomStringConvertible {
    var status: ExitStatus
    var stdout: String
    var stderr: String

    var description: String { "\(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}

// MARK: - Small helpers

/// Polls `probe` every `interval` until it gives a value or `timeout` passes.
func eventually<T>(timeout: Duration, interval: Duration = .milliseconds(20), _ probe: () throws -> T?) async rethrows -> T? {
    let deadline = ContinuousClock.now + timeout
    while true {
        if let value = try probe() { return value }
        if ContinuousClock.now >= deadline { return nil }
        try? await Task.sleep(for: interval)
    }
}

/// Sleeps until a wall-clock instant (short waits only).
func sleep(until date: Date) async {
    let seconds = date.timeIntervalSinceNow
    if seconds > 0 { try? await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up)))) }
}

/// A whole second `seconds` (at least) from now: reminders are due on whole seconds.
func wholeSecond(after seconds: TimeInterval) -> Date {
    Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + seconds).rounded(.up))
}

/// "2026-12-01T13:00:00Z"
func iso(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
}

/// The zone beautyd runs in during these tests: not UTC, so local-time text is really checked.
let testTimeZone = TimeZone(identifier: "Europe/Warsaw")!

/// "HH:mm" of an instant in the daemon's zone.
func localClock(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = testTimeZone
    formatter.dateFormat = "HH:mm"
    return formatter.string(from: date)
}

/// A later start for appointments: the next whole hour a day ahead.
func tomorrowOnTheHour() -> Date {
    Date(timeIntervalSince1970: ((Date().timeIntervalSince1970 / 3600).rounded(.up) + 24) * 3600)
}

// MARK: - One notification as the test server logged it

struct NotifyCall: Decodable, CustomStringConvertible {
    struct Hints: Decodable {
        var category: String?
        var urgency: Int?
    }

    var time: Double
    var id: UInt32
    var appName: String
    var replacesID: UInt32
    var summary: String
    var body: String
    var actions: [String]
    var hints: Hints
    var expireTimeout: Int

    enum CodingKeys: String, CodingKey {
        case time, id, summary, body, actions, hints
        case appName = "app_name", replacesID = "replaces_id", expireTimeout = "expire_timeout"
    }

    var date: Date { Date(timeIntervalSince1970: time) }
    /// Action keys only (the list alternates key, label).
    var actionKeys: [String] { stride(from: 0, to: actions.count, by: 2).map { actions[$0] } }
    var description: String { "Notify #\(id) at \(time): \(summary) | \(body) | \(actions) | \(hints.category ?? "-")" }
}
