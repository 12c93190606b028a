import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// A real CalDAV server on loopback for tests: Radicale (htpasswd users, MKCALENDAR) or Xandikos (no
/// authentication; it takes any credentials), each in its own short temporary directory:
///
///     data/       the server's storage (kept across `restart()`)
///     password    the user's password, mode 0600, for `PasswordFileCredentials`
///     users       Radicale's htpasswd file (plain)
///     server.*    the server's output: its request log, which `requestCount` reads
///
/// `put`/`get`/`delete`/`request` speak plain HTTP with Basic authentication, as a phone would.
package final class CalDAVTestServer: @unchecked Sendable {
    package enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        case radicale, xandikos
        package var description: String { rawValue }
    }

    package let kind: Kind
    package let user: String
    package let password: String
    package let port: Int
    private let scratch: ScratchDirectory
    private var process: ChildProcess
    private var logsBeforeRestart = 0

    package var directory: String { scratch.path }
    /// The server itself, e.g. http://127.0.0.1:PORT/ (discovery starts here).
    package var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }
    /// The user's principal collection.
    package var principalURL: URL { URL(string: "/\(user)/", relativeTo: baseURL)!.absoluteURL }
    /// A calendar for events that exists from the start.
    package var calendarURL: URL {
        URL(string: kind == .radicale ? "/\(user)/calendar/" : "/\(user)/calendars/calendar/", relativeTo: baseURL)!
            .absoluteURL
    }
    /// A file holding the password (mode 0600).
    package var passwordFile: String { directory + "/password" }

    /// Starts `kind` on a free loopback port, with `user`/`password` and one empty calendar.
    package static func start(_ kind: Kind, user: String = "alice", password: String = "s3cret-pw") async throws
        -> CalDAVTestServer
    {
        let scratch = try ScratchDirectory()
        try FileManager.default.createDirectory(atPath: scratch.path + "/data", withIntermediateDirectories: true)
        try writePrivate(password + "\n", to: scratch.path + "/password")
        try writePrivate("\(user):\(password)\n", to: scratch.path + "/users")
        let server = try await listening(kind, user: user, password: password, in: scratch)
        if kind == .radicale {
            // Radicale starts empty: the calendar is made the way a client makes one.
            let made = try await server.request(
                "MKCALENDAR", server.calendarURL.path, headers: ["Content-Type": "application/xml"],
                body: """
                    <?xml version="1.0" encoding="utf-8"?><c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">\
                    <d:set><d:prop><d:displayname>Calendar</d:displayname></d:prop></d:set></c:mkcalendar>
                    """)
            guard made.status == 201 else {
                throw HarnessError("Radicale MKCALENDAR answered \(made.status): \(made.body)")
            }
        }
        return server
    }

    /// The port is free when chosen but another process may take it before the server binds it:
    /// a server that exits at start gets another port.
    private static func listening(_ kind: Kind, user: String, password: String, in scratch: ScratchDirectory)
        async throws -> CalDAVTestServer
    {
        var attempt = 1
        while true {
            let port = try freePort()
            let process = try launch(kind, user: user, port: port, in: scratch)
            let server = CalDAVTestServer(
                kind: kind, user: user, password: password, port: port, scratch: scratch, process: process)
            do {
                try await server.waitUntilListening()
                return server
            } catch  where attempt < 3 && !process.isRunning {
                attempt += 1
            }
        }
    }

    private init(
        kind: Kind, user: String, password: String, port: Int, scratch: ScratchDirectory, process: ChildProcess
    ) {
        self.kind = kind
        self.user = user
        self.password = password
        self.port = port
        self.scratch = scratch
        self.process = process
    }

    deinit { process.killNow() }

    /// SIGKILL and reap: the server is gone as after a crash or a network cut.
    package func stop() async {
        process.killNow()
        logsBeforeRestart += Self.countRequests(in: process.output, kind: kind)
    }

    /// Starts it again on the same port with the same data.
    package func restart() async throws {
        await stop()
        process = try Self.launch(kind, user: user, port: port, in: scratch)
        try await waitUntilListening()
    }

    package var isRunning: Bool { process.isRunning }

    /// HTTP requests the server has logged since it first started (the harness's own included).
    package var requestCount: Int { logsBeforeRestart + Self.countRequests(in: process.output, kind: kind) }

    /// The server's log, for failure messages.
    package var log: String { process.outputTail }

    // MARK: - As a phone would

    package struct Response: Sendable, CustomStringConvertible {
        package var status: Int
        package var headers: [String: String]
        package var body: String
        package var etag: String? { headers.first { $0.key.lowercased() == "etag" }?.value }
        package var description: String { "\(status) \(body.prefix(500))" }
    }

    /// Any request with Basic authentication; `path` is absolute on the server ("/alice/calendar/x.ics").
    package func request(_ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil)
        async throws -> Response
    {
        var request = URLRequest(url: URL(string: path, relativeTo: baseURL)!.absoluteURL, timeoutInterval: 30)
        request.httpMethod = method
        request.setValue(
            "Basic " + Data("\(user):\(password)".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw HarnessError("no HTTP answer to \(method) \(path)") }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields["\(name)"] = "\(value)" }
        return Response(status: http.statusCode, headers: fields, body: String(decoding: data, as: UTF8.self))
    }

    /// The path of `name` in the ready calendar ("/alice/calendar/<name>").
    package func path(_ name: String) -> String {
        calendarURL.path + (calendarURL.path.hasSuffix("/") ? "" : "/") + name
    }

    /// PUTs an event as a phone app does (no precondition unless given); the answer carries the ETag.
    @discardableResult
    package func put(_ path: String, ics: String, headers: [String: String] = [:]) async throws -> Response {
        let answer = try await request(
            "PUT", path, headers: ["Content-Type": "text/calendar; charset=utf-8"].merging(headers) { $1 }, body: ics)
        guard (200..<300).contains(answer.status) else { throw HarnessError("PUT \(path) answered \(answer)") }
        return answer
    }

    package func get(_ path: String) async throws -> Response { try await request("GET", path) }

    @discardableResult
    package func delete(_ path: String) async throws -> Response { try await request("DELETE", path) }

    /// Puts events into the ready calendar's storage directly, as files (Radicale only): thousands in
    /// a second where as many PUTs take minutes. Radicale sees them at its next request, as if a
    /// client had written them. `events` are file name → iCalendar text.
    package func seedDirectly(_ events: [(name: String, ics: String)]) throws {
        guard kind == .radicale else { throw HarnessError("seedDirectly needs Radicale's file storage") }
        let folder = directory + "/data/collection-root"
        for event in events {
            let file = folder + path(event.name)
            guard FileManager.default.createFile(atPath: file, contents: Data(event.ics.utf8)) else {
                throw HarnessError("cannot write \(file)")
            }
        }
    }

    /// Every event in the ready calendar: href → iCalendar text (calendar-query REPORT for VEVENTs).
    package func events() async throws -> [String: String] {
        let answer = try await request(
            "REPORT", calendarURL.path, headers: ["Depth": "1", "Content-Type": "application/xml"],
            body: """
                <?xml version="1.0" encoding="utf-8"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">\
                <d:prop><d:getetag/><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR">\
                <c:comp-filter name="VEVENT"/></c:comp-filter></c:filter></c:calendar-query>
                """)
        guard answer.status == 207 else { throw HarnessError("calendar-query answered \(answer)") }
        return Self.hrefsAndCalendarData(answer.body)
    }

    /// A minimal event: enough iCalendar for any server and client.
    package static func event(uid: String, summary: String, start: Date, minutes: Int = 60, extra: [String] = [])
        -> String
    {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        func formatted(_ date: Date) -> String {
            let c = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            return String(
                format: "%04d%02d%02dT%02d%02d%02dZ", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
        }
        let lines =
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//beautyd tests//phone//EN", "BEGIN:VEVENT", "UID:\(uid)",
                "DTSTAMP:\(formatted(Date()))", "DTSTART:\(formatted(start))",
                "DTEND:\(formatted(start.addingTimeInterval(Double(minutes) * 60)))", "SUMMARY:\(summary)",
            ] + extra + ["END:VEVENT", "END:VCALENDAR"]
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    // MARK: - Processes

    private static func launch(_ kind: Kind, user: String, port: Int, in scratch: ScratchDirectory) throws
        -> ChildProcess
    {
        let environment = ["PATH": "/usr/bin:/bin", "HOME": scratch.path, "LANG": "C.UTF-8"]
        switch kind {
        case .radicale:
            let config = scratch.path + "/radicale.conf"
            try """
            [server]
            hosts = 127.0.0.1:\(port)
            [auth]
            type = htpasswd
            htpasswd_filename = \(scratch.path)/users
            htpasswd_encryption = plain
            delay = 0
            [storage]
            filesystem_folder = \(scratch.path)/data
            [logging]
            level = info
            mask_passwords = True
            """.write(toFile: config, atomically: true, encoding: .utf8)
            _ = try Locations.system("radicale", package: "radicale")
            return try scratch.spawn(
                "server", Locations.python, ["-m", "radicale", "--config", config], environment: environment)
        case .xandikos:
            let xandikos = try Locations.system("xandikos", package: "xandikos")
            return try scratch.spawn(
                "server", xandikos,
                [
                    "--defaults", "-d", scratch.path + "/data", "-l", "127.0.0.1", "-p", String(port),
                    "--current-user-principal", "/\(user)/",
                ], environment: environment)
        }
    }

    private func waitUntilListening() async throws {
        // A safety net only: a server starting while the whole suite runs on two busy cores is slow.
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            guard process.isRunning else { throw HarnessError("\(kind) exited at start\n\(process.outputTail)") }
            if Self.answers(port: port) {
                // Xandikos makes its default calendar after it listens: wait until it is there.
                if let answer = try? await request("PROPFIND", calendarURL.path, headers: ["Depth": "0"]),
                    kind == .radicale || answer.status == 207
                {
                    return
                }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw HarnessError("\(kind) did not listen on 127.0.0.1:\(port) within 120 s\n\(process.outputTail)")
    }

    /// Radicale logs "<METHOD> request for '<path>' ... received from"; Xandikos (aiohttp) one access line a request.
    private static func countRequests(in log: String, kind: Kind) -> Int {
        let marker = kind == .radicale ? " received from " : "aiohttp.access"
        return log.split(separator: "\n").filter { $0.contains(marker) }.count
    }

    private static func writePrivate(_ text: String, to path: String) throws {
        guard
            FileManager.default.createFile(
                atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        else {
            throw HarnessError("cannot write \(path)")
        }
        chmod(path, 0o600)
    }

    /// A port nobody listens on now: bind port 0, read what the kernel chose, close.
    package static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(fd, pointer, length) == 0 else { return -1 }
                return getsockname(fd, pointer, &length)
            }
        }
        guard bound == 0 else { throw HarnessError("bind: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    package static func answers(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// href → calendar-data from a multistatus, read with a regular expression (the test side stays
    /// independent of the client's XML parser).
    private static func hrefsAndCalendarData(_ xml: String) -> [String: String] {
        var result: [String: String] = [:]
        let responses = xml.components(separatedBy: "response>").filter { $0.contains("calendar-data") }
        for chunk in responses {
            guard let href = firstMatch(#"href>([^<]+)</"#, in: chunk),
                let data = firstMatch(#"calendar-data[^>]*>([^<]*)</"#, in: chunk)
            else { continue }
            result[href] = data.replacingOccurrences(of: "&#13;", with: "\r").replacingOccurrences(
                of: "&lt;", with: "<"
            )
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        }
        return result
    }

    private static func firstMatch(_ pattern: String, in text: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
            let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }
}
