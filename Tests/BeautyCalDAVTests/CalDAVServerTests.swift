import BeautyCalDAV
import BeautyTestSupport
import Foundation
import Testing

/// The client against real Radicale and Xandikos servers on loopback, each test with its own server.
@Suite struct CalDAVServerTests {
    static let servers = CalDAVTestServer.Kind.allCases

    private func client(_ server: CalDAVTestServer, url: URL? = nil) throws -> CalDAVClient {
        let credentials = try PasswordFileCredentials(user: server.user, passwordFile: server.passwordFile)
        return try CalDAVClient(account: CalDAVAccount(url: url ?? server.baseURL, credentials: credentials))
    }

    private func event(_ uid: String, _ summary: String = "Haircut") -> String {
        CalDAVTestServer.event(uid: uid, summary: summary, start: Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test(arguments: servers)
    func discoveryFromTheServerFindsTheEventCalendar(_ kind: CalDAVTestServer.Kind) async throws {
        let server = try await CalDAVTestServer.start(kind)
        let calendars = try await client(server).discoverCalendars()
        let found = try #require(calendars.first { $0.url.path == server.calendarURL.path }, "\(calendars)")
        #expect(found.supportsEvents)
        #expect(found.supportsSyncCollection)
        #expect(found.syncToken != nil)
        #expect(found.ctag != nil)
    }

    @Test(arguments: servers)
    func discoveryFromACalendarURLAnswersThatCalendar(_ kind: CalDAVTestServer.Kind) async throws {
        let server = try await CalDAVTestServer.start(kind)
        let calendars = try await client(server, url: server.calendarURL).discoverCalendars()
        #expect(calendars.map(\.url.path) == [server.calendarURL.path])
    }

    @Test(arguments: servers)
    func makeCalendarCreatesANamedEventCalendarInTheHome(_ kind: CalDAVTestServer.Kind) async throws {
        let server = try await CalDAVTestServer.start(kind)
        let client = try client(server)
        let made = try await client.makeCalendar(named: "Beauty & care")
        #expect(made.displayName == "Beauty & care")
        #expect(made.supportsEvents)
        let discovered = try await client.discoverCalendars()
        #expect(discovered.contains { $0.url.path == made.url.path })
        #expect(try await client.calendar(at: made.url) == made)
    }

    @Test(arguments: servers)
    func writesCarryTheirPreconditions(_ kind: CalDAVTestServer.Kind) async throws {
        let server = try await CalDAVTestServer.start(kind)
        let client = try client(server)
        let href = client.href(forUID: "visit-1@beautyd", in: server.calendarURL)
        #expect(href.hasPrefix(server.calendarURL.path) && href.hasSuffix(".ics"))

        let first = try await client.put(href, ics: event("visit-1@beautyd"), .mustNotExist)
        await #expect(throws: CalDAVError.preconditionFailed(href: href)) {
            try await client.put(href, ics: event("visit-1@beautyd", "Again"), .mustNotExist)
        }
        let tags = try await client.etags(in: server.calendarURL)
        let etag = try #require(tags.first { $0.href == href }?.etag, "\(tags)")
        if let first { #expect(first == etag) }

        // The phone changes it: the ETag the client holds is stale now.
        try await server.put(href, ics: event("visit-1@beautyd", "Moved by the phone"))
        await #expect(throws: CalDAVError.preconditionFailed(href: href)) {
            try await client.put(href, ics: event("visit-1@beautyd", "Local edit"), .mustMatch(etag: etag))
        }
        await #expect(throws: CalDAVError.preconditionFailed(href: href)) {
            try await client.delete(href, .mustMatch(etag: etag))
        }
        let current = try #require(try await client.etags(in: server.calendarURL).first { $0.href == href }?.etag)
        let updated = try await client.put(href, ics: event("visit-1@beautyd", "Local edit"), .mustMatch(etag: current))
        #expect(try await server.get(href).body.contains("SUMMARY:Local edit"))
        let latest = try #require(try await client.etags(in: server.calendarURL).first { $0.href == href }?.etag)
        if let updated { #expect(updated == latest) }
        try await client.delete(href, .mustMatch(etag: latest))
        #expect(try await server.get(href).status == 404)
    }

    @Test(arguments: servers)
    func fetchGetsManyEventsInBatches(_ kind: CalDAVTestServer.Kind) async throws {
        let server = try await CalDAVTestServer.start(kind)
        let client = try client(server)
        let count = CalDAVClient.multigetBatchSize + 30
        var hrefs: [String] = []
        for index in 0..<count {
            let href = server.path("e\(index).ics")
            try await server.put(href, ics: event("e\(index)", "Visit \(index)"))
            hrefs.append(href)
        }
        let before = client.statistics.requests
        let resources = try await client.fetch(server.calendarURL, hrefs: hrefs + [server.path("gone.ics")])
        #expect(client.statistics.requests - before == 2)
        #expect(resources.count == count)
        #expect(Set(resources.map(\.href)) == Set(hrefs))
        let visit7 = try #require(resources.first { $0.href == server.path("e7.ics") })
        #expect(visit7.ics.contains("SUMMARY:Visit 7\r\n"))
        #expect(visit7.ics.hasSuffix("END:VCALENDAR\r\n"))
        #expect(!visit7.ics.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "a line break without CR")
        #expect(!visit7.etag.isEmpty)
        let tags = try await client.etags(in: server.calendarURL)
        #expect(Set(tags.map(\.href)) == Set(hrefs))
        #expect(tags.first { $0.href == visit7.href }?.etag == visit7.etag)
    }

    @Test(arguments: servers)
    func syncCollectionReportsExactlyWhatChanged(_ kind: CalDAVTestServer.Kind) async throws {
        let server = try await CalDAVTestServer.start(kind)
        let client = try client(server)
        for index in 0..<3 { try await server.put(server.path("s\(index).ics"), ics: event("s\(index)")) }

        let all = try await client.syncCollection(server.calendarURL, token: nil)
        #expect(Set(all.changed.map(\.href)) == Set((0..<3).map { server.path("s\($0).ics") }))
        #expect(all.removed.isEmpty)

        let unchanged = try await client.syncCollection(server.calendarURL, token: all.token)
        #expect(unchanged.changed.isEmpty && unchanged.removed.isEmpty)

        let edited = try await server.put(server.path("s1.ics"), ics: event("s1", "Changed on the phone"))
        let one = try await client.syncCollection(server.calendarURL, token: unchanged.token)
        #expect(one.changed.map(\.href) == [server.path("s1.ics")])
        if let etag = edited.etag { #expect(one.changed.first?.etag == etag) }
        #expect(one.removed.isEmpty)

        try await server.delete(server.path("s2.ics"))
        let gone = try await client.syncCollection(server.calendarURL, token: one.token)
        #expect(gone.changed.isEmpty)
        #expect(gone.removed == [server.path("s2.ics")])
    }

    @Test(arguments: servers)
    func aTokenTheServerDoesNotKnowAsksForAFullListing(_ kind: CalDAVTestServer.Kind) async throws {
        let server = try await CalDAVTestServer.start(kind)
        let client = try client(server)
        let real = try await client.syncCollection(server.calendarURL, token: nil).token
        let bogus = kind == .radicale ? "http://radicale.org/ns/sync/0000" : String(repeating: "0", count: 40)
        #expect(real != bogus)
        await #expect(throws: CalDAVError.syncTokenInvalid) {
            try await client.syncCollection(server.calendarURL, token: bogus)
        }
    }

    @Test(arguments: servers)
    func calendarCTagAndTokenMoveWithAChange(_ kind: CalDAVTestServer.Kind) async throws {
        let server = try await CalDAVTestServer.start(kind)
        let client = try client(server)
        let before = try await client.calendar(at: server.calendarURL)
        try await server.put(server.path("c.ics"), ics: event("c"))
        let after = try await client.calendar(at: server.calendarURL)
        #expect(before.ctag != after.ctag)
        #expect(before.syncToken != after.syncToken)
        #expect(after.url.path == server.calendarURL.path)
    }

    @Test func aWrongPasswordIsUnauthorized() async throws {
        let server = try await CalDAVTestServer.start(.radicale)
        let scratch = try ScratchDirectory()
        let file = scratch.path + "/wrong"
        _ = FileManager.default.createFile(
            atPath: file, contents: Data("not-it\n".utf8), attributes: [.posixPermissions: 0o600])
        let credentials = try PasswordFileCredentials(user: server.user, passwordFile: file)
        let client = try CalDAVClient(account: CalDAVAccount(url: server.baseURL, credentials: credentials))
        await #expect(throws: CalDAVError.unauthorized) { try await client.discoverCalendars() }
        await #expect(throws: CalDAVError.unauthorized) { try await client.etags(in: server.calendarURL) }
    }

    @Test func requestsAreCountedByClientAndServerAlike() async throws {
        let server = try await CalDAVTestServer.start(.radicale)
        let client = try client(server, url: server.calendarURL)
        let before = server.requestCount
        _ = try await client.calendar(at: server.calendarURL)
        _ = try await client.syncCollection(server.calendarURL, token: nil)
        #expect(client.statistics.requests == 2)
        #expect(client.statistics.bytesSent > 0 && client.statistics.bytesReceived > 0)
        let counted = await eventually(timeout: .seconds(5)) { server.requestCount - before == 2 ? true : nil }
        #expect(counted == true, "server counted \(server.requestCount - before)")
    }

    @Test func aStoppedServerIsUnreachableAndARestartedOneAnswersAgain() async throws {
        let server = try await CalDAVTestServer.start(.radicale)
        let client = try client(server)
        try await server.put(server.path("kept.ics"), ics: event("kept"))
        await server.stop()
        // Refused at once, not retried until the connect timeout (which would say "timed out").
        await #expect {
            try await client.etags(in: server.calendarURL)
        } throws: { error in
            guard case let .unreachable(reason) = error as? CalDAVError else { return false }
            return reason.contains("Connection refused")
        }
        try await server.restart()
        #expect(try await client.etags(in: server.calendarURL).map(\.href) == [server.path("kept.ics")])
    }
}

/// A calendar of phone size: a first sync lists and fetches it in a handful of requests, and a sync
/// after one change fetches that one event.
@Suite struct CalDAVLargeCalendarTests {
    @Test func aSyncAfterOneChangeIn2000EventsFetchesOneEvent() async throws {
        let server = try await CalDAVTestServer.start(.radicale)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        try server.seedDirectly(
            (0..<2000).map { index in
                (
                    name: "big-\(index).ics",
                    ics: CalDAVTestServer.event(
                        uid: "big-\(index)", summary: "Visit \(index)",
                        start: start.addingTimeInterval(Double(index) * 3600),
                        extra: index % 5 == 0
                            ? ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER:-PT1H", "END:VALARM"]
                            : [])
                )
            })
        let credentials = try PasswordFileCredentials(user: server.user, passwordFile: server.passwordFile)
        let client = try CalDAVClient(account: CalDAVAccount(url: server.calendarURL, credentials: credentials))

        let first = try await client.syncCollection(server.calendarURL, token: nil)
        let everything = try await client.fetch(server.calendarURL, hrefs: first.changed.map(\.href))
        #expect(everything.count == 2000)
        #expect(client.statistics.requests == 1 + 2000 / CalDAVClient.multigetBatchSize)
        #expect(everything.filter { $0.ics.contains("BEGIN:VALARM") }.count == 400)

        try await server.put(
            server.path("big-1234.ics"), ics: CalDAVTestServer.event(uid: "big-1234", summary: "Moved", start: start))
        let before = client.statistics
        let changes = try await client.syncCollection(server.calendarURL, token: first.token)
        let fetched = try await client.fetch(server.calendarURL, hrefs: changes.changed.map(\.href))
        #expect(fetched.map(\.href) == [server.path("big-1234.ics")])
        #expect(fetched.first?.ics.contains("SUMMARY:Moved") == true)
        #expect(client.statistics.requests - before.requests == 2)
        #expect(client.statistics.bytesReceived - before.bytesReceived < 5_000)
    }
}
