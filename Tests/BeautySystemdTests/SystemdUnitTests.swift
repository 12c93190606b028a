import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

/// The committed `systemd/beautyd.service` and `systemd/beautyd.socket`: what they say, and that
/// `systemd-analyze --user verify` accepts them without a single warning.
@Suite struct SystemdUnitTests {
    static let service = Locations.file("systemd/beautyd.service")
    static let socket = Locations.file("systemd/beautyd.socket")

    /// `[Section]` -> key -> every value given for it (keys such as After= may repeat).
    typealias UnitFile = [String: [String: [String]]]

    static func parse(_ path: String) throws -> UnitFile {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var unit: UnitFile = [:]
        var section = ""
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast())
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            unit[section, default: [:]][key, default: []].append(value)
        }
        return unit
    }

    /// Runs `systemd-analyze --user --man=no verify` on `files` with a temporary HOME holding
    /// ~/.local/bin/beautyd (verify checks that ExecStart= exists) and a temporary runtime dir.
    static func verify(_ files: [String], in scratch: ScratchDirectory) async throws -> (
        status: ChildExit?, output: String
    ) {
        let analyze = try Locations.system("systemd-analyze", package: "systemd")
        let bin = try scratch.sub("home/.local/bin", create: true)
        _ = FileManager.default.createFile(
            atPath: bin + "/beautyd", contents: Data("#!/bin/sh\nexit 0\n".utf8),
            attributes: [.posixPermissions: 0o755])
        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": try scratch.sub("home"),
            "XDG_RUNTIME_DIR": try scratch.sub("rt", create: true),
        ]
        let run = try await scratch.run(
            analyze, ["--user", "--man=no", "verify"] + files,
            environment: environment)
        return (run.status, run.stdout + run.stderr)
    }

    @Test func unitFilesVerifyWithoutAnyWarning() async throws {
        let scratch = try ScratchDirectory()
        let result = try await Self.verify([Self.service, Self.socket], in: scratch)
        #expect(result.status == .exited(0))
        // Warnings still exit 0: any output at all is a failure.
        #expect(result.output == "", "systemd-analyze verify said:\n\(result.output)")
    }

    /// Guards the check above: the same verification does complain about a broken copy.
    @Test func verifyReportsAProblemInABrokenCopy() async throws {
        let scratch = try ScratchDirectory()
        let directory = try scratch.sub("units", create: true)
        let broken = directory + "/beautyd.service"
        let text = try String(contentsOfFile: Self.service, encoding: .utf8)
            .replacingOccurrences(of: "[Service]\n", with: "[Service]\nNoSuchSetting=yes\n")
        try text.write(toFile: broken, atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: Self.socket, toPath: directory + "/beautyd.socket")
        let result = try await Self.verify([broken, directory + "/beautyd.socket"], in: scratch)
        #expect(result.output.contains("NoSuchSetting"), "verify output:\n\(result.output)")
    }

    @Test func serviceIsANotifyUserServiceOfTheGraphicalSession() throws {
        let unit = try Self.parse(Self.service)
        let service = unit["Service"] ?? [:]
        #expect(service["Type"] == ["notify"])
        #expect(service["NotifyAccess"] == ["main"])
        #expect(service["ExecStart"] == ["%h/.local/bin/beautyd"])
        #expect(service["ExecReload"] == ["/bin/kill -HUP $MAINPID"])
        #expect(service["WatchdogSec"] == ["20s"])
        #expect(service["TimeoutAbortSec"] == ["5s"])
        #expect(service["RestrictAddressFamilies"] == ["AF_UNIX AF_INET AF_INET6"])
        #expect(service["Restart"] == ["on-failure"])
        #expect(service["RestartSec"] == ["2s"])
        // Refusals that repeat until someone acts: a refused database (65, 77) and a bad configuration (78).
        #expect(service["RestartPreventExitStatus"] == ["65 77 78"])
        #expect(service["UMask"] == ["0077"])
        #expect(service["NoNewPrivileges"] == ["yes"])

        let section = unit["Unit"] ?? [:]
        #expect(section["PartOf"] == ["graphical-session.target"])
        #expect(section["After", default: []].contains("graphical-session.target"))
        #expect(section["Requires"] == ["beautyd.socket"])
        #expect(section["After", default: []].contains("beautyd.socket"))

        let install = unit["Install"] ?? [:]
        #expect(install["WantedBy"] == ["graphical-session.target"])
        #expect(install["Also"] == ["beautyd.socket"])
    }

    @Test func socketIsWhereClientsLookForTheDaemon() throws {
        let unit = try Self.parse(Self.socket)
        let socket = unit["Socket"] ?? [:]
        #expect(socket["ListenStream"] == ["%t/beautyd/beautyd.sock"])
        #expect(socket["SocketMode"] == ["0600"])
        #expect(socket["DirectoryMode"] == ["0700"])
        #expect(unit["Install"]?["WantedBy"] == ["sockets.target"])

        // %t is $XDG_RUNTIME_DIR for a user manager: the same path beautyctl and beautyd default to.
        let runtime = "/run/user/1000"
        let listen = socket["ListenStream"]?.first?.replacingOccurrences(of: "%t", with: runtime)
        #expect(listen == SocketLocation.defaultPath(environment: ["XDG_RUNTIME_DIR": runtime]))
    }
}
