import BeautyCalDAV
import BeautyCore
import BeautyTestSupport
import Foundation
import Testing

/// Dose tasks on real Radicale and Xandikos servers: beautyd's task list made with MKCALENDAR for
/// VTODO, a written task read back, and a "phone" (python3-caldav) ticking or cancelling it, seen by
/// sync-collection and read as the phone's answer with the phone's time.
@Suite struct CalDAVDoseTaskTests {
    static let warsaw = TimeZone(identifier: "Europe/Warsaw")!
    static let written = date("2026-11-27T23:00:00Z")
    static let noticed = date("2026-11-28T07:10:00Z")

    static func date(_ iso: String) -> Date { ISO8601DateFormatter().date(from: iso)! }

    static func task(due: String) -> DoseTaskContent {
        DoseTaskContent(
            key: "5d0c8e1f", due: date(due), zone: warsaw, summary: "Witamina D — 1 kapsułka",
            alarmText: "Witamina D — 1 kapsułka")
    }

    private func client(_ server: CalDAVTestServer) throws -> CalDAVClient {
        let credentials = try PasswordFileCredentials(user: server.user, passwordFile: server.passwordFile)
        return try CalDAVClient(account: CalDAVAccount(url: server.baseURL, credentials: credentials))
    }

    @Test(arguments: CalDAVTestServer.Kind.allCases)
    func makeTaskListMakesAListForTasks(_ kind: CalDAVTestServer.Kind) async throws {
        let server = try await CalDAVTestServer.start(kind)
        let client = try client(server)
        let list = try await client.makeCalendar(named: "Leki", components: [.todo])
        #expect(list.displayName == "Leki")
        #expect(list.supportsTodos)
        #expect(list.supportsSyncCollection)
        // Radicale keeps the set asked for; Xandikos reports every kind whatever was asked.
        #expect(list.supportsEvents == (kind == .xandikos))
        #expect(try await client.calendar(at: list.url) == list)
        // The account's event calendar is not a task list on Radicale (no VTODO in its set there).
        let events = try await client.makeCalendar(named: "Beauty")
        #expect(events.supportsEvents)
        #expect(events.supportsTodos == (kind == .xandikos))
    }

    @Test(arguments: CalDAVTestServer.Kind.allCases)
    func aTickOnThePhoneIsReadAsTakenAtThePhonesTime(_ kind: CalDAVTestServer.Kind) async throws {
        let server = try await CalDAVTestServer.start(kind)
        let client = try client(server)
        let list = try await client.makeCalendar(named: "Leki", components: [.todo])
        let start = try await client.syncCollection(list.url, token: nil)
        #expect(start.changed.isEmpty)

        let content = Self.task(due: "2026-11-28T07:00:00Z")
        let href = client.href(forUID: content.uid, in: list.url)
        let ics = DoseTaskWriting.serialize(content, created: Self.written, stamp: Self.written, sequence: 0)
        _ = try await client.put(href, ics: ics, .mustNotExist)
        let afterWrite = try await client.syncCollection(list.url, token: start.token)
        let writtenTag = try #require(afterWrite.changed.first { $0.href == href }, "\(afterWrite)")

        // Read back as written (Xandikos stores the alarm's trigger as P0D), and open.
        let stored = try #require(try await client.fetch(list.url, hrefs: [href]).first)
        #expect(try DoseTaskReading.written(stored.ics, zone: Self.warsaw) == content)
        let open = try DoseTaskReading.read(
            stored.ics, noticedAt: Self.noticed, lastWrittenAt: Self.written, zone: Self.warsaw)
        #expect(open.kind == .open)

        let phone = CalDAVPhone(server: server, listPath: list.url.path)
        #expect(try await phone.openTasks() == [content.uid: content.summary])
        try await phone.complete(content.uid, at: Self.date("2026-11-28T07:04:12Z"))
        #expect(try await phone.openTasks().isEmpty)

        let afterTick = try await client.syncCollection(list.url, token: afterWrite.token)
        let tickedTag = try #require(afterTick.changed.first { $0.href == href }, "\(afterTick)")
        #expect(tickedTag.etag != writtenTag.etag)
        #expect(afterTick.removed.isEmpty)
        let ticked = try #require(try await client.fetch(list.url, hrefs: [href]).first)
        let reading = try DoseTaskReading.read(
            ticked.ics, noticedAt: Self.noticed, lastWrittenAt: Self.written, zone: Self.warsaw)
        #expect(reading == PhoneReading(kind: .taken, at: Self.date("2026-11-28T07:04:12Z"), rule: .r1))

        // beautyd's write over the ETag it had before the tick would erase it: the server refuses.
        await #expect(throws: CalDAVError.preconditionFailed(href: href)) {
            try await client.put(href, ics: ics, .mustMatch(etag: writtenTag.etag))
        }
    }

    /// A cancel on the phone is "skipped"; python3-caldav leaves LAST-MODIFIED as beautyd wrote it, so
    /// the answer is timed by the poll that saw it. Deleting shows as a removed href.
    @Test(arguments: CalDAVTestServer.Kind.allCases)
    func aCancelOnThePhoneIsSkippedAndADeleteIsARemovedHref(_ kind: CalDAVTestServer.Kind) async throws {
        let server = try await CalDAVTestServer.start(kind)
        let client = try client(server)
        let list = try await client.makeCalendar(named: "Lieky", components: [.todo])
        let first = Self.task(due: "2026-11-28T07:00:00Z"), second = Self.task(due: "2026-11-29T07:00:00Z")
        for content in [first, second] {
            let ics = DoseTaskWriting.serialize(content, created: Self.written, stamp: Self.written, sequence: 0)
            _ = try await client.put(client.href(forUID: content.uid, in: list.url), ics: ics, .mustNotExist)
        }
        let token = try await client.syncCollection(list.url, token: nil).token
        let phone = CalDAVPhone(server: server, listPath: list.url.path)
        try await phone.cancel(first.uid)
        try await phone.delete(second.uid)

        let changes = try await client.syncCollection(list.url, token: token)
        let firstHref = client.href(forUID: first.uid, in: list.url)
        #expect(changes.changed.map(\.href) == [firstHref])
        #expect(changes.removed == [client.href(forUID: second.uid, in: list.url)])
        let cancelled = try #require(try await client.fetch(list.url, hrefs: [firstHref]).first)
        let reading = try DoseTaskReading.read(
            cancelled.ics, noticedAt: Self.noticed, lastWrittenAt: Self.written, zone: Self.warsaw)
        #expect(reading == PhoneReading(kind: .skipped, at: Self.noticed, rule: .r2))
    }
}
