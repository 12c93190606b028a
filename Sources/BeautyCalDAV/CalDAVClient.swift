import Foundation

/// A CalDAV client for one account: discovery, RFC 6578 sync-collection with the ETag-listing fallback,
/// calendar-multiget in batches, and writes that always carry If-Match / If-None-Match.
///
/// hrefs are paths as the server gives them (percent-encoded); they are resolved against the account URL.
public final class CalDAVClient: Sendable {
    public let account: CalDAVAccount
    let transport: HTTPTransport

    /// How many resources one calendar-multiget asks for: large enough that 5,000 events take 25
    /// requests, small enough that one answer stays a few MiB.
    public static let multigetBatchSize = 200

    /// Throws `insecureURL` for plain HTTP to a host other than loopback unless the account allows it.
    public init(account: CalDAVAccount) throws {
        try HTTPTransport.checkTransport(account.url, allowInsecure: account.allowInsecure)
        self.account = account
        transport = HTTPTransport(
            credentials: account.credentials, allowInsecure: account.allowInsecure, origin: account.url,
            deadline: account.requestDeadline)
    }

    /// Requests and bytes over the client's life.
    public var statistics: CalDAVStatistics { transport.statistics }

    /// The HTTP client is process-wide and lives as long as the process: nothing to release. Kept so
    /// that callers need not change if the client comes to own connections.
    public func shutdown() async throws {}

    // MARK: - Calendars

    /// The calendar at `url` (PROPFIND, Depth 0).
    public func calendar(at url: URL) async throws -> CalDAVCalendar {
        let status = try await propfind(url, depth: "0", DAVRequestBodies.calendar)
        guard
            let response = status.responses.first(where: { samePath(resolve($0.href), url) }) ?? status.responses.first,
            let calendar = calendar(from: response)
        else { throw CalDAVError.malformed("\(url.absoluteString) is not a calendar collection") }
        return calendar
    }

    /// A new calendar named `named` for `components` (events; tasks for the dose list), in the
    /// user's calendar home (MKCALENDAR).
    public func makeCalendar(named name: String, components: [CalendarComponent] = [.event]) async throws
        -> CalDAVCalendar
    {
        guard let home = try await calendarHomes().first else {
            throw CalDAVError.notFound("a calendar home (calendar-home-set) for \(account.url.absoluteString)")
        }
        let url = home.appendingPathComponent(UUID().uuidString.lowercased(), isDirectory: true)
        let answer = try await transport.send(
            "MKCALENDAR", url, headers: [Self.xmlContent],
            body: DAVRequestBodies.makeCalendar(named: name, components: components))
        try expect(answer, [200, 201], url.path)
        return try await calendar(at: url)
    }

    // MARK: - Listing changes

    /// What changed since `token` (nil: everything), RFC 6578. `.syncTokenInvalid` when the server no
    /// longer knows the token; a truncated answer (507) is continued until complete.
    public func syncCollection(_ calendar: URL, token: String?) async throws -> CalDAVChanges {
        var changed: [String: String] = [:]
        var order: [String] = []
        var listed = Set<String>()
        var removed: [String] = []
        var current = token
        while true {
            let previous = current
            let answer = try await transport.send(
                "REPORT", calendar, headers: [("Depth", "0"), Self.xmlContent],
                body: DAVRequestBodies.syncCollection(token: current)
            )
            if current != nil, Self.forgotToken(answer) { throw CalDAVError.syncTokenInvalid }
            try expect(answer, [207], calendar.path)
            let status = try Multistatus(parsing: answer.body)
            guard let next = status.syncToken else {
                throw CalDAVError.malformed("a sync-collection answer without a sync-token")
            }
            var truncated = false
            for response in status.responses {
                if samePath(resolve(response.href), calendar) {
                    truncated = truncated || response.status == 507
                    continue
                }
                if response.status == 404 {
                    changed[response.href] = nil
                    removed.append(response.href)
                } else if let etag = response.text(DAVNamespace.dav, "getetag") {
                    changed[response.href] = etag
                    if listed.insert(response.href).inserted { order.append(response.href) }
                    if !removed.isEmpty { removed.removeAll { $0 == response.href } }
                }
            }
            current = next
            // A server that answers 507 without moving its token would otherwise be asked forever.
            if !truncated || next == previous { break }
        }
        let tags = order.compactMap { href in changed[href].map { CalDAVResourceTag(href: href, etag: $0) } }
        return CalDAVChanges(changed: tags, removed: removed, token: current ?? "")
    }

    /// RFC 6578 §3.2 says 403 or 409 with DAV:valid-sync-token; Xandikos 0.2 answers 500 to a token it
    /// does not know. Taking any such refusal as a forgotten token costs at worst one full listing.
    private static func forgotToken(_ answer: HTTPAnswer) -> Bool {
        switch answer.status {
        case 400, 403, 409, 412: return String(decoding: answer.body, as: UTF8.self).contains("sync-token")
        case 500: return true
        default: return false
        }
    }

    /// Every resource and its ETag (PROPFIND, Depth 1): the fallback where sync-collection is missing,
    /// to be compared with the ETags known, when the calendar's CTag moved.
    public func etags(in calendar: URL) async throws -> [CalDAVResourceTag] {
        let status = try await propfind(calendar, depth: "1", DAVRequestBodies.etags)
        return status.responses.compactMap { response in
            guard !samePath(resolve(response.href), calendar),
                response.property(DAVNamespace.dav, "resourcetype")?.contains(DAVNamespace.dav, "collection") != true,
                let etag = response.text(DAVNamespace.dav, "getetag")
            else { return nil }
            return CalDAVResourceTag(href: response.href, etag: etag)
        }
    }

    // MARK: - Reading and writing resources

    /// The resources at `hrefs` (calendar-multiget REPORT, `multigetBatchSize` a request), their text
    /// with CRLF line ends. An href the server no longer has is left out.
    public func fetch(_ calendar: URL, hrefs: [String]) async throws -> [CalDAVResource] {
        var resources: [CalDAVResource] = []
        resources.reserveCapacity(hrefs.count)
        var start = hrefs.startIndex
        while start < hrefs.endIndex {
            let end = min(start + Self.multigetBatchSize, hrefs.endIndex)
            let answer = try await transport.send(
                "REPORT", calendar, headers: [("Depth", "1"), Self.xmlContent],
                body: DAVRequestBodies.multiget(hrefs: hrefs[start..<end])
            )
            try expect(answer, [207], calendar.path)
            for response in try Multistatus(parsing: answer.body).responses {
                guard CollectionScope.member(response.href, of: calendar) != nil else { continue }
                guard let ics = response.property(DAVNamespace.caldav, "calendar-data")?.text, !ics.isEmpty else {
                    continue
                }
                resources.append(
                    CalDAVResource(
                        href: response.href, etag: response.text(DAVNamespace.dav, "getetag") ?? "",
                        ics: Self.withCRLF(ics)))
            }
            start = end
        }
        return resources
    }

    /// iCalendar lines end in CRLF (RFC 5545 §3.1), but an XML parser hands text over with every
    /// line break made LF (XML 1.0 §2.11): put the CRs back so the text is as the server stores it.
    static func withCRLF(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(text.unicodeScalars.count + text.unicodeScalars.count / 40)
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            if scalar == "\n", previous != "\r" { scalars.append("\r") }
            scalars.append(scalar)
            previous = scalar
        }
        return String(scalars)
    }

    /// Writes `ics` at `href` under `precondition`; the new ETag when the server gives one. `href` must
    /// lie inside the account's collection (`outsideCollection` otherwise, and nothing is sent).
    @discardableResult
    public func put(_ href: String, ics: String, _ precondition: CalDAVWritePrecondition) async throws -> String? {
        let answer = try await transport.send(
            "PUT", try member(href),
            headers: [("Content-Type", "text/calendar; charset=utf-8"), Self.header(precondition)], body: ics
        )
        try expect(answer, [200, 201, 204], href)
        return answer.headers.first(name: "ETag")
    }

    /// Deletes `href` under `precondition` (a 404 is `.notFound`: already gone); inside the account's
    /// collection only, as `put`.
    public func delete(_ href: String, _ precondition: CalDAVWritePrecondition) async throws {
        let answer = try await transport.send("DELETE", try member(href), headers: [Self.header(precondition)])
        try expect(answer, [200, 204], href)
    }

    /// Where a new event with `uid` goes: the calendar's path and a file name made from the UID, the
    /// same every time so that a retried PUT finds the event it made before.
    public func href(forUID uid: String, in calendar: URL) -> String {
        var path = calendar.path(percentEncoded: true)
        if !path.hasSuffix("/") { path += "/" }
        return path + ResourceName.fileName(forUID: uid)
    }

    // MARK: - Helpers shared with discovery

    static let xmlContent = ("Content-Type", "application/xml; charset=utf-8")

    private static func header(_ precondition: CalDAVWritePrecondition) -> (String, String) {
        switch precondition {
        case .mustNotExist: return ("If-None-Match", "*")
        case let .mustMatch(etag): return ("If-Match", etag)
        }
    }

    func propfind(_ url: URL, depth: String, _ body: String, staysOnOrigin: Bool = false) async throws -> Multistatus {
        let answer = try await transport.send(
            "PROPFIND", url, headers: [("Depth", depth), Self.xmlContent], body: body,
            staysOnOrigin: staysOnOrigin)
        try expect(answer, [207], url.path)
        return try Multistatus(parsing: answer.body)
    }

    /// An href (a path or a whole URL) against the account URL.
    func resolve(_ href: String) -> URL {
        if let url = URL(string: href, relativeTo: account.url) { return url.absoluteURL }
        let encoded = href.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? href
        return URL(string: encoded, relativeTo: account.url)?.absoluteURL ?? account.url
    }

    /// `href` inside the account's URL (the calendar followed), or `outsideCollection`.
    private func member(_ href: String) throws -> URL {
        guard let url = CollectionScope.member(href, of: account.url) else { throw CalDAVError.outsideCollection(href) }
        return url
    }

    /// Whether two URLs name the same collection (trailing slash and percent-encoding aside).
    func samePath(_ a: URL, _ b: URL) -> Bool {
        func normal(_ url: URL) -> String {
            let path = url.path(percentEncoded: false)
            return path.hasSuffix("/") ? String(path.dropLast()) : path
        }
        return normal(a) == normal(b)
    }

    /// The calendar a PROPFIND response describes, nil when it is not a calendar or lies on another
    /// origin than the account's (the password does not follow it there).
    func calendar(from response: Multistatus.Response) -> CalDAVCalendar? {
        guard CollectionScope.sameOrigin(resolve(response.href), account.url) else { return nil }
        guard response.property(DAVNamespace.dav, "resourcetype")?.contains(DAVNamespace.caldav, "calendar") == true
        else { return nil }
        let syncToken = response.text(DAVNamespace.dav, "sync-token")
        let reports = response.property(DAVNamespace.dav, "supported-report-set")
        let components = response.property(DAVNamespace.caldav, "supported-calendar-component-set")
        return CalDAVCalendar(
            url: resolve(response.href),
            displayName: response.text(DAVNamespace.dav, "displayname"),
            ctag: response.text(DAVNamespace.calendarServer, "getctag"),
            syncToken: syncToken,
            supportsSyncCollection: reports.map { $0.contains(DAVNamespace.dav, "sync-collection") }
                ?? (syncToken != nil),
            supportsEvents: Self.takes(.event, components),
            supportsTodos: Self.takes(.todo, components)
        )
    }

    /// Whether a `supported-calendar-component-set` names `component` (no set: it takes all).
    private static func takes(_ component: CalendarComponent, _ set: DAVElement?) -> Bool {
        set.map { set in
            set.children(DAVNamespace.caldav, "comp").contains {
                $0.attributes["name"]?.uppercased() == component.rawValue
            }
        } ?? true
    }

    /// Maps an unexpected status to the error the sync engine acts on.
    func expect(_ answer: HTTPAnswer, _ accepted: Set<Int>, _ what: String) throws {
        if accepted.contains(answer.status) { return }
        switch answer.status {
        case 401: throw CalDAVError.unauthorized
        case 404, 410: throw CalDAVError.notFound(what)
        case 412: throw CalDAVError.preconditionFailed(href: what)
        default:
            let detail = String(decoding: answer.body.prefix(300), as: UTF8.self).trimmingCharacters(
                in: .whitespacesAndNewlines)
            throw CalDAVError.server(status: answer.status, detail: "\(what): \(detail)")
        }
    }
}
