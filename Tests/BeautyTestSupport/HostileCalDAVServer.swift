import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Tests/BeautyTestSupport/Fixtures/hostile_caldav.py on loopback: a CalDAV server that misbehaves on
/// purpose (one calendar, /cal/), with a trap listening on another host and port. A test sets what
/// it answers between requests through `control` (the server's control paths) or `set` (a whole
/// script: the events it serves, nested XML, an error text, a huge listing).
package final class HostileCalDAVServer: @unchecked Sendable {
    /// What the server answers from now on, as `POST /control/script` takes it: it then serves these
    /// events alone, keeps its sync tokens and lists no href leading elsewhere.
    package struct Script: Encodable {
        /// Resource name (in /cal/) to its iCalendar text.
        package var events: [String: String] = [:]
        /// When more than 0, every PROPFIND and REPORT answer nests elements this deep.
        package var nested_xml = 0
        package var error: ErrorAnswer?
        /// sync-collection also lists this many made-up resources (extra-N.ics).
        package var listed_extra = 0

        package init(
            events: [String: String] = [:], nestedXML: Int = 0, error: ErrorAnswer? = nil, listedExtra: Int = 0
        ) {
            self.events = events
            nested_xml = nestedXML
            self.error = error
            listed_extra = listedExtra
        }
    }

    /// Every REPORT answered with this status and text.
    package struct ErrorAnswer: Encodable {
        package var status: Int
        package var body: String
        package init(status: Int, body: String) {
            self.status = status
            self.body = body
        }
    }

    package let port: Int
    package let trapPort: Int
    package let process: ChildProcess
    /// A password file of the right mode (the server takes any password).
    package let passwordFile: String
    private let scratch: ScratchDirectory?

    /// A server of the stack's (stopped with it), listing hrefs that lead elsewhere and refusing every sync token.
    package convenience init(stack: Stack) async throws {
        try await self.init(directory: stack.directory, scratch: nil) { name, arguments in
            try stack.spawn(name, Locations.python, arguments)
        }
    }

    /// A server of its own, answering `script`.
    package static func start(_ script: Script = Script()) async throws -> HostileCalDAVServer {
        let scratch = try ScratchDirectory()
        let server = try await HostileCalDAVServer(directory: scratch.path, scratch: scratch) { name, arguments in
            try scratch.spawn(
                name, Locations.python, arguments, environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        }
        try await server.set(script)
        return server
    }

    private init(directory: String, scratch: ScratchDirectory?, spawn: (String, [String]) throws -> ChildProcess)
        async throws
    {
        var attempt = 0
        while true {
            attempt += 1
            let port = try CalDAVTestServer.freePort(), trap = try CalDAVTestServer.freePort()
            let process = try spawn(
                "hostile-\(attempt)", [try Locations.fixture("hostile_caldav.py"), String(port), String(trap)])
            let up = await eventually(timeout: .seconds(20)) { () -> Bool? in
                if !process.isRunning { return false }
                return CalDAVTestServer.answers(port: port) && process.output.contains("LISTENING") ? true : nil
            }
            if up == true {
                self.port = port
                trapPort = trap
                self.process = process
                break
            }
            process.killNow()
            if attempt >= 3 { throw HarnessError("hostile_caldav.py did not start\n\(process.outputTail)") }
        }
        self.scratch = scratch
        passwordFile = directory + "/hostile.pw"
        guard
            FileManager.default.createFile(
                atPath: passwordFile, contents: Data("hunter2\n".utf8), attributes: [.posixPermissions: 0o600])
        else {
            throw HarnessError("cannot write \(passwordFile)")
        }
    }

    deinit { process.killNow() }

    package var calendarURL: URL { URL(string: "http://127.0.0.1:\(port)/cal/")! }
    package var lines: [String] { process.output.split(separator: "\n").map(String.init) }
    /// Whatever reached the trap (another host or port): should stay empty.
    package var trapped: [String] { lines.filter { $0.hasPrefix("TRAP ") } }
    /// Writes the server took, as "PUT /cal/x.ics".
    package var writes: [String] {
        lines.filter { $0.hasPrefix("MAIN PUT ") || $0.hasPrefix("MAIN DELETE ") }.map {
            String($0.dropFirst(5).split(separator: " auth=")[0])
        }
    }

    /// `POST /control/WHAT` (see the fixture): the server's listing of the hrefs it holds.
    @discardableResult
    package func control(_ what: String, body: String? = nil) async throws -> String {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/control/\(what)")!, timeoutInterval: 120)
        request.httpMethod = "POST"
        request.httpBody = body.map { Data($0.utf8) }
        return String(decoding: try await URLSession.shared.data(for: request).0, as: UTF8.self)
    }

    /// What the next requests are answered.
    package func set(_ script: Script) async throws {
        try await control("script", body: String(decoding: try JSONEncoder().encode(script), as: UTF8.self))
    }

    /// Kills the server and reaps it.
    package func stop() { process.killNow() }
}
