import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real `systemd --user` for a test user, on a machine whose PID 1 is not systemd (a container,
/// CI). What logind and PID 1 would do at a login is done by hand, as root:
///
/// - the user `beautyd-test` is made with useradd if missing;
/// - `user.slice/user-UID.slice/user@UID.service` is made in the named (`systemd`) and unified
///   cgroup hierarchies and given to the user; a machine without them mounted gets them mounted;
/// - `/run/user/UID` is made fresh, mode 0700, owned by the user;
/// - in a private mount and PID namespace (`unshare -m -p --fork --mount-proc`), a tmpfs on
///   `/run/systemd` holds `/run/systemd/system`, so `sd_booted()` is true in there only; the
///   script joins the cgroups and starts `/lib/systemd/systemd --user` as the user
///   (`setpriv --reuid --regid --init-groups`) with `XDG_RUNTIME_DIR=/run/user/UID`.
///
/// `run` and `spawn` start the user's programs in those namespaces (nsenter), where `systemctl
/// --user` with that runtime directory talks to the manager, and dbus-user-session's `dbus.socket`
/// gives the user a session bus at `/run/user/UID/bus`. Pids the manager reports are those of its
/// PID namespace: act on its processes through systemctl (`systemctl --user kill`), never with
/// kill(2) from the test.
///
/// `stop()` (a "logout"), or the release of the manager object, kills the namespace's first
/// process with SIGKILL, which takes every process of the namespace with it, and reaps it. Only
/// one manager per user runs at a time: suites using it are `.serialized`, and no two suites use it.
package final class SystemdUserManager: @unchecked Sendable {
    package static let userName = "beautyd-test"

    package let uid: uid_t
    package let gid: gid_t
    /// The user's HOME for this manager (owned by the user; kept across managers given the same one).
    package let home: String
    package var runtimeDirectory: String { "/run/user/\(uid)" }
    private let scratch: ScratchDirectory
    private let process: ChildProcess

    /// Starts a manager for the test user with `home` as HOME (made and given to the user if
    /// missing); returns once `systemctl --user show -p SystemState` says running.
    package static func start(home: String, timeout: Duration = .seconds(60)) async throws -> SystemdUserManager {
        guard getuid() == 0 else { throw HarnessError("a systemd user manager for a test user needs root") }
        let scratch = try ScratchDirectory()
        let (uid, gid) = try await ensureUser(in: scratch)
        let service = "user.slice/user-\(uid).slice/user@\(uid).service"
        var cgroups: [String] = []
        for hierarchy in ["systemd", "unified"] {
            let root = try await cgroupHierarchy(hierarchy, in: scratch)
            let directory = "\(root)/\(service)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try giveToUser(directory, uid: uid, gid: gid, recursive: true)
            cgroups.append(directory)
        }
        let runtime = "/run/user/\(uid)"
        try? FileManager.default.removeItem(atPath: runtime)
        try FileManager.default.createDirectory(
            atPath: runtime, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        try giveToUser(runtime, uid: uid, gid: gid)
        if !FileManager.default.fileExists(atPath: home) {
            try FileManager.default.createDirectory(
                atPath: home, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        }
        try giveToUser(home, uid: uid, gid: gid)
        // A ScratchDirectory is root's and 0700: the user must be able to reach HOME inside it.
        chmod((home as NSString).deletingLastPathComponent, 0o755)

        let setpriv = try Locations.system("setpriv", package: "util-linux")
        let script = scratch.path + "/user-manager.sh"
        try """
        set -e
        mkdir -p /run/systemd
        mount -t tmpfs -o mode=0755 tmpfs /run/systemd
        mkdir -p /run/systemd/system
        \(cgroups.map { "echo $$ > \($0)/cgroup.procs" }.joined(separator: "\n"))
        \(setpriv) --reuid=\(uid) --regid=\(gid) --init-groups /usr/bin/env -i HOME=\(home) USER=\(userName) \
        LOGNAME=\(userName) XDG_RUNTIME_DIR=\(runtime) PATH=/usr/local/bin:/usr/bin:/bin /lib/systemd/systemd --user &
        wait
        """.write(toFile: script, atomically: true, encoding: .utf8)
        let unshare = try Locations.system("unshare", package: "util-linux")
        let process = try scratch.spawn(
            "user-manager", unshare,
            [
                "--mount", "--propagation", "private", "--pid", "--fork", "--kill-child", "--mount-proc", "/bin/sh",
                script,
            ], environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        let manager = SystemdUserManager(uid: uid, gid: gid, home: home, scratch: scratch, process: process)
        let deadline = ContinuousClock.now + timeout
        var state = ""
        while state != "running" {
            guard process.isRunning else {
                throw HarnessError("the user manager ended at start\n\(process.outputTail)")
            }
            guard ContinuousClock.now < deadline else { break }
            try await Task.sleep(for: .milliseconds(200))
            // Fails at once while the manager is still starting; says "running" once it is up.
            state = (try? await manager.property("SystemState", of: "")) ?? ""
        }
        guard state == "running" else {
            await manager.stop()
            throw HarnessError(
                "systemd --user did not reach SystemState=running within \(timeout)\n\(process.outputTail)")
        }
        return manager
    }

    private init(uid: uid_t, gid: gid_t, home: String, scratch: ScratchDirectory, process: ChildProcess) {
        self.uid = uid
        self.gid = gid
        self.home = home
        self.scratch = scratch
        self.process = process
    }

    deinit { stopNow() }

    /// The environment of the user's own commands: a login shell's HOME, runtime directory, PATH.
    package var environment: [String: String] {
        [
            "HOME": home, "USER": Self.userName, "LOGNAME": Self.userName, "XDG_RUNTIME_DIR": runtimeDirectory,
            "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
        ]
    }

    /// Runs a program as the test user (its environment plus `extra`), inside the manager's namespaces.
    package func run(
        _ executable: String, _ arguments: [String], environment extra: [String: String] = [:],
        timeout: Duration = .seconds(60)
    ) async throws -> CommandResult {
        try await scratch.run(
            try Locations.system("nsenter", package: "util-linux"), try asUser(executable, arguments),
            environment: environment.merging(extra) { $1 }, timeout: timeout)
    }

    /// Starts a long-running program as the test user inside the manager's namespaces; the caller stops it.
    package func spawn(
        _ name: String, _ executable: String, _ arguments: [String], environment extra: [String: String] = [:]
    ) throws -> ChildProcess {
        try scratch.spawn(
            name, try Locations.system("nsenter", package: "util-linux"), try asUser(executable, arguments),
            environment: environment.merging(extra) { $1 })
    }

    /// nsenter's arguments for `executable` run as the user in the manager's PID and mount
    /// namespaces. From outside them the manager sees its peers' pid as 0 and now and then drops
    /// their connection ("Transport endpoint is not connected"); in there pids mean what they say.
    private func asUser(_ executable: String, _ arguments: [String]) throws -> [String] {
        let children =
            (try? String(contentsOfFile: "/proc/\(process.pid)/task/\(process.pid)/children", encoding: .utf8)) ?? ""
        guard let first = children.split(separator: " ").first.flatMap({ Int32($0) }) else {
            throw HarnessError("the user manager's namespace is gone\n\(process.outputTail)")
        }
        let setpriv = try Locations.system("setpriv", package: "util-linux")
        return [
            "--target", String(first), "--pid", "--mount", setpriv, "--reuid=\(uid)", "--regid=\(gid)", "--init-groups",
            executable,
        ] + arguments
    }

    /// `systemctl --user ARGUMENTS` as the user; a failure is an error with its output.
    @discardableResult
    package func systemctl(_ arguments: String...) async throws -> String {
        let result = try await run("/usr/bin/systemctl", ["--user"] + arguments)
        guard result.status == .exited(0) else {
            throw HarnessError("systemctl --user \(arguments.joined(separator: " ")): \(result)\n\(output)")
        }
        return result.stdout
    }

    /// Waits until a unit's property has `value` (systemd handles READY=1 and the like in its own
    /// time); answers the last value seen.
    @discardableResult
    package func waitFor(_ name: String, of unit: String, toBe value: String, within timeout: Duration = .seconds(30))
        async throws -> String
    {
        let deadline = ContinuousClock.now + timeout
        var seen = try await property(name, of: unit)
        while seen != value, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            seen = try await property(name, of: unit)
        }
        return seen
    }

    /// One property of a unit (`systemctl --user show -p NAME --value UNIT`), or of the manager for "".
    package func property(_ name: String, of unit: String) async throws -> String {
        let arguments = ["show", "-p", name, "--value"] + (unit.isEmpty ? [] : [unit])
        let result = try await run("/usr/bin/systemctl", ["--user"] + arguments, timeout: .seconds(30))
        guard result.status == .exited(0) else {
            throw HarnessError("systemctl --user \(arguments.joined(separator: " ")): \(result)")
        }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Makes a file or directory the test wrote for the user the user's own.
    package func give(_ path: String, recursive: Bool = false) throws {
        try Self.giveToUser(path, uid: uid, gid: gid, recursive: recursive)
    }

    /// Ends the manager and every process it started (SIGKILL to its PID namespace), reaps it, and
    /// removes the runtime directory, as logind does at the last logout.
    package func stop() async { stopNow() }

    private func stopNow() {
        // Once only: a later manager of the same user may have made the runtime directory anew.
        guard process.isRunning else { return }
        process.killNow()
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }

    package var output: String { process.outputTail }

    // MARK: - What logind and PID 1 would have made

    private static func ensureUser(in scratch: ScratchDirectory) async throws -> (uid_t, gid_t) {
        if let entry = getpwnam(userName) { return (entry.pointee.pw_uid, entry.pointee.pw_gid) }
        let useradd = try Locations.system("useradd", package: "passwd")
        let made = try await scratch.run(
            useradd,
            [
                "--user-group", "--no-create-home", "--home-dir", "/nonexistent",
                "--shell", "/usr/sbin/nologin", userName,
            ],
            environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        guard let entry = getpwnam(userName) else { throw HarnessError("useradd \(userName) failed: \(made)") }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    /// `/sys/fs/cgroup/NAME`, mounted if this machine lacks it (a fresh container may have only
    /// the controllers, or only cgroup v2 at /sys/fs/cgroup).
    private static func cgroupHierarchy(_ name: String, in scratch: ScratchDirectory) async throws -> String {
        let path = "/sys/fs/cgroup/\(name)"
        if FileManager.default.fileExists(atPath: path + "/cgroup.procs") { return path }
        if FileManager.default.fileExists(atPath: "/sys/fs/cgroup/cgroup.controllers") {
            // Pure cgroup v2: one hierarchy serves as both.
            return "/sys/fs/cgroup"
        }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let arguments =
            name == "unified"
            ? ["-t", "cgroup2", "none", path]
            : ["-t", "cgroup", "-o", "none,name=systemd", "cgroup", path]
        let mounted = try await scratch.run(
            "/bin/mount", arguments, environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        guard mounted.status == .exited(0) else {
            throw HarnessError("cannot mount the \(name) cgroup hierarchy: \(mounted)")
        }
        return path
    }

    private static func giveToUser(_ path: String, uid: uid_t, gid: gid_t, recursive: Bool = false) throws {
        guard chown(path, uid, gid) == 0 else {
            throw HarnessError("chown \(path): \(String(cString: strerror(errno)))")
        }
        guard recursive, let entries = FileManager.default.enumerator(atPath: path) else { return }
        for case let entry as String in entries {
            _ = chown("\(path)/\(entry)", uid, gid)
        }
    }
}
