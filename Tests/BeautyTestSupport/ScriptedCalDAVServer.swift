import Foundation

/// Tests/BeautyTestSupport/Fixtures/scripted_caldav.py on loopback: one calendar, /cal/, whose answers a
/// test sets between requests (nested XML, huge or hostile events, error texts).
package final class ScriptedCalDAVServer: @unchecked Sendable {
    package struct Control: Encodable {
        /// Resource name to the file holding its text.
        package var events: [String: String] = [:]
        /// When more than 0, every PROPFIND and REPORT answer nests elements this deep.
        package var nested_xml = 0
        package var error: ErrorAnswer?
        /// sync-collection also lists this many made-up resources (extra-N.ics).
        package var listed_extra = 0

        package init(events: [String: String] = [:], nestedXML: Int = 0, error: ErrorAnswer? = nil, listedExtra: Int = 0) {
            self.events = events
            nested_xml = nestedXML
            self.error = error
            listed_extra = listedExtra
        }
    }

    package struct ErrorAnswer: Encodable {
        package var status: Int
        package var body: String
        package init(status: Int, body: String) {
            self.status = status
            self.body = body
        }
    }

    package let scratch: ScratchDirectory
    private let process: ChildProcess
    package private(set) var port = 0

    package var calendarURL: URL { URL(string: "http://127.0.0.1:\(port)/cal/")! }
    /// A password file of the right mode (the server takes any password).
    package let passwordFile: String

    package static func start(_ control: Control = Control()) async throws -> ScriptedCalDAVServer {
        let scratch = try ScratchDirectory()
        let server = try ScriptedCalDAVServer(scratch: scratch)
        try server.set(control)
        try await server.waitUntilListening()
        return server
    }

    private init(scratch: ScratchDirectory) throws {
        self.scratch = scratch
        passwordFile = scratch.path + "/password"
        guard FileManager.default.createFile(atPath: passwordFile, contents: Data("pw\n".utf8), attributes: [.posixPermissions: 0o600]) else {
            throw HarnessError("cannot write \(passwordFile)")
        }
        process = try scratch.spawn("hostile", Locations.python, [try Locations.fixture("scripted_caldav.py"), scratch.path + "/control.json"],
                                    environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
    }

    private func waitUntilListening() async throws {
        let line = await eventually(timeout: .seconds(30)) { () -> String? in
            let text = (try? String(contentsOfFile: process.stdoutPath, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").first { $0.hasPrefix("listening ") }.map(String.init)
        }
        guard let line, let port = Int(line.dropFirst("listening ".count)) else {
            throw HarnessError("the hostile CalDAV server did not start\n\((try? String(contentsOfFile: process.stderrPath, encoding: .utf8)) ?? "")")
        }
        self.port = port
    }

    /// What the next requests are answered.
    package func set(_ control: Control) throws {
        let file = scratch.path + "/control.json"
        try JSONEncoder().encode(control).write(to: URL(fileURLWithPath: file + ".new"))
        guard rename(file + ".new", file) == 0 else { throw HarnessError("cannot replace \(file)") }
    }

    /// Writes `text` as a file the control may name as an event.
    package func eventFile(_ name: String, _ text: String) throws -> String {
        let path = scratch.path + "/" + name
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// Kills the server and reaps it.
    package func stop() { _ = process.killNow() }
}
