import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

// Helpers for the systemd-facing tests: where the package and the built daemon are, short
// temporary directories (Unix socket paths must stay under 108 bytes), the daemon as a child
// process that is always reaped, and raw Unix sockets (stream for JSON-RPC, datagram for sd_notify).

struct SetupError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

enum Package {
    /// The package root, from this file's path (Tests/BeautySystemdTests/Support.swift).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func file(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// `$BEAUTYD_BIN_DIR/beautyd`, else `<package root>/.build/debug/beautyd`.
    static func beautyd() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        let directory = environment["BEAUTYD_BIN_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? file(".build/debug")
        let path = directory + "/beautyd"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw SetupError("\(path) is missing: run `swift build --product beautyd` first, or set BEAUTYD_BIN_DIR")
        }
        return path
    }

    /// A program from the system; a missing one is a failure with the package to install, never a skip.
    static func system(_ name: String, package: String) throws -> String {
        for directory in ["/usr/bin", "/bin", "/usr/sbin", "/usr/local/bin"]
        where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
            return "\(directory)/\(name)"
        }
        throw SetupError("\(name) is not installed; these tests need it (apt-get install \(package))")
    }
}

/// A fresh `/tmp/bd-XXXXXX` directory, removed with everything in it when released.
final class ScratchDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/bd-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw SetupError("mkdtemp failed: errno \(errno)") }
        path = String(cString: made)
    }

    func sub(_ name: String, create: Bool = false) throws -> String {
        let full = "\(path)/\(name)"
        if create { try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true) }
        return full
    }

    /// The per-user XDG variables pointing inside this directory, plus a harmless PATH and HOME.
    func xdgEnvironment() throws -> [String: String] {
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

    func read(_ name: String) -> String {
        (try? String(contentsOfFile: "\(path)/\(name)", encoding: .utf8)) ?? ""
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A child started with Foundation.Process, its output in files, stopped by pid with a signal
/// (a Swift Testing runner blocks SIGTERM, which children inherit) and always reaped.
final class Child {
    let process = Process()
    let outputPath: String
    let errorPath: String

    /// Starts the program with stdout in `output` and stderr in `errors` (default: `output` too).
    init(_ executable: String, _ arguments: [String], environment: [String: String], output: String,
         errors: String? = nil) throws {
        outputPath = output
        errorPath = errors ?? output
        func sink(_ path: String) throws -> FileHandle {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        }
        let out = try sink(output)
        let err = errors == nil ? out : try sink(errorPath)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        try? out.close()
        if errors != nil { try? err.close() }
    }

    var pid: pid_t { process.processIdentifier }

    func signal(_ number: Int32) { if process.isRunning { kill(pid, number) } }

    /// Waits for the exit; past the deadline the child is killed and nil is returned.
    func waitForExit(timeout: Duration = .seconds(10)) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    var errors: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    deinit {
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// Runs a program to completion and returns its exit status (nil if it had to be killed), stdout and stderr.
func runToCompletion(_ executable: String, _ arguments: [String], environment: [String: String],
                     in scratch: ScratchDirectory, timeout: Duration = .seconds(60)
) async throws -> (status: Int32?, stdout: String, stderr: String) {
    let tag = UUID().uuidString.prefix(8)
    let child = try Child(executable, arguments, environment: environment,
                          output: try scratch.sub("\(tag).out"), errors: try scratch.sub("\(tag).err"))
    let status = await child.waitForExit(timeout: timeout)
    return (status, child.output, child.errors)
}

// MARK: - Unix sockets

private func socketAddress(_ path: String) throws -> sockaddr_un {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
        throw SetupError("socket path too long for sun_path: \(path)")
    }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        raw.copyBytes(from: bytes)
        raw[bytes.count] = 0
    }
    return address
}

private func withSocketAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) throws -> R {
    var address = try socketAddress(path)
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}

/// Waits until `fd` is readable; false on timeout.
private func readable(_ fd: Int32, within timeout: Duration) -> Bool {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
    return poll(&entry, 1, max(milliseconds, 0)) > 0
}

/// The receiving end of `$NOTIFY_SOCKET`: a bound datagram socket, as systemd has.
final class NotifyListener {
    let path: String
    private let fd: Int32
    /// Every datagram received so far, in order.
    private(set) var messages: [String] = []

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SetupError("socket: errno \(errno)") }
        let bound = try withSocketAddress(path) { bind(fd, $0, $1) }
        guard bound == 0 else { throw SetupError("bind \(path): errno \(errno)") }
    }

    /// Receives datagrams until one satisfies `match`, or nil after `timeout`.
    func next(within timeout: Duration = .seconds(15), where match: (String) -> Bool) -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard readable(fd, within: .milliseconds(100)) else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { continue }
            let message = String(decoding: buffer[..<count], as: UTF8.self)
            messages.append(message)
            if match(message) { return message }
        }
        return nil
    }

    deinit { close(fd) }
}

/// A JSON-RPC client over a Unix stream socket, one line per request and answer.
final class LineClient {
    private let fd: Int32
    private var pending: [UInt8] = []

    /// Connects, retrying while the socket does not exist or refuses, up to `timeout`.
    init(path: String, timeout: Duration = .seconds(10)) throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            let candidate = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard candidate >= 0 else { throw SetupError("socket: errno \(errno)") }
            if try withSocketAddress(path, { connect(candidate, $0, $1) }) == 0 {
                fd = candidate
                return
            }
            let failure = errno
            close(candidate)
            guard ContinuousClock.now < deadline else { throw SetupError("connect \(path): errno \(failure)") }
            usleep(20_000)
        }
    }

    func send(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw SetupError("send: errno \(errno)") }
            sent += n
        }
    }

    /// Shuts down the write side, as `echo ... | socat` does at the end of its input.
    func finishSending() { shutdown(fd, Int32(SHUT_WR)) }

    /// The next line without its newline, or nil at end of stream or after `timeout`.
    func readLine(within timeout: Duration = .seconds(10)) -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            guard ContinuousClock.now < deadline else { return nil }
            guard readable(fd, within: .milliseconds(100)) else { continue }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            pending.append(contentsOf: buffer[..<count])
        }
    }

    /// Sends one request and decodes its answer as a JSON object.
    func call(_ line: String) throws -> [String: Any] {
        try send(line)
        guard let answer = readLine() else { throw SetupError("no answer to \(line)") }
        guard let object = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any] else {
            throw SetupError("answer is not a JSON object: \(answer)")
        }
        return object
    }

    deinit { close(fd) }
}
