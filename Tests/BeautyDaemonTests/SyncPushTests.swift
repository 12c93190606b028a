@testable import BeautyDaemon
import BeautyCalDAV
import BeautyCore
import BeautyStore
import Foundation
import Logging
import Testing

/// The push side's decisions when a write is refused with 412, with a calendar in memory whose
/// listing missed the change (as when the server changes between the pull and the push). The
/// servers themselves are tested end to end (SyncEndToEndTests); this is only the engine's logic.
@Suite struct SyncPushTests {
    let zone = TimeZone(identifier: "Europe/Warsaw")!
    let start = Date(timeIntervalSince1970: 1_900_000_000)

    /// A calendar whose listing never changes; writes check their precondition as a server does.
    class StaleListingCalendar: CalendarServer, @unchecked Sendable {
        let lock = NSLock()
        var resources: [String: CalDAVResource] = [:]
        var puts = 0
        var statistics: CalDAVStatistics { CalDAVStatistics() }

        func calendar(at url: URL) async throws -> CalDAVCalendar {
            CalDAVCalendar(url: url, supportsSyncCollection: true, supportsEvents: true)
        }
        func syncCollection(_ calendar: URL, token: String?) async throws -> CalDAVChanges {
            CalDAVChanges(changed: [], removed: [], token: token ?? "t")
        }
        func etags(in calendar: URL) async throws -> [CalDAVResourceTag] { [] }
        func fetch(_ calendar: URL, hrefs: [String]) async throws -> [CalDAVResource] {
            lock.withLock { hrefs.compactMap { resources[$0] } }
        }
        func put(_ href: String, ics: String, _ precondition: CalDAVWritePrecondition) async throws -> String? {
            try lock.withLock {
                switch precondition {
                case .mustNotExist where resources[href] != nil: throw CalDAVError.preconditionFailed(href: href)
                case let .mustMatch(etag) where resources[href]?.etag != etag:
                    throw CalDAVError.preconditionFailed(href: href)
                default: break
                }
                puts += 1
                let etag = "\"\(puts)-\(href)\""
                resources[href] = CalDAVResource(href: href, etag: etag, ics: ics)
                return etag
            }
        }
        func delete(_ href: String, _ precondition: CalDAVWritePrecondition) async throws {}
        func href(forUID uid: String, in calendar: URL) -> String { "/cal/\(uid).ics" }
    }

    func engine(_ store: AppDatabase, _ server: StaleListingCalendar) throws -> SyncEngine {
        let account = try #require(try store.sync.account(named: "phone"))
        return SyncEngine(
            store: store.sync, appointments: store.appointments, server: server, account: account, takesNewEvents: true,
            zone: zone,
            now: { Date() },
            check: { appointments, names, _ in (appointments, names.map { $0.map { Contact(name: $0, phone: "") } }) },
            logger: Logger(label: "sync-test"))
    }

    func ics(_ title: String, uid: String) -> String {
        let event = CalendarEvent(Appointment(title: title, start: start, uid: uid), contactName: nil)
        return ICalendar.serialize([event], stamp: start, defaultZone: zone)
    }

    func store() throws -> AppDatabase {
        let store = try AppDatabase.inMemory()
        try store.sync.addAccount(
            SyncAccount(
                name: "phone", url: "http://127.0.0.1/cal/", user: "u", passwordFile: "/p",
                calendarURL: "http://127.0.0.1/cal/", calendarName: nil, insecure: false,
                supportsSyncCollection: true, createdAt: Date()))
        return store
    }

    @Test("a change refused with 412: the server's version wins in place and the local one becomes a conflict copy")
    func refusedChangeKeepsBoth() async throws {
        let store = try store(), server = StaleListingCalendar()
        let stored = try store.appointments.add(
            Appointment(title: "Facial", start: start, uid: "facial@x"), now: start, zone: zone)
        let pushed = try await engine(store, server).run()
        #expect(pushed.pushed == 1 && server.puts == 1)
        // The phone changes it, unseen by the listing; here it is changed too.
        _ = try await server.put(
            "/cal/facial@x.ics", ics: ics("Facial (phone)", uid: "facial@x"),
            .mustMatch(etag: "\"1-/cal/facial@x.ics\""))
        _ = try store.appointments.update(id: stored.id!, now: start, zone: zone) { $0.title = "Facial (desktop)" }

        let report = try await engine(store, server).run()
        #expect(report.conflicts == 1 && report.pushed == 0, "\(report)")
        #expect(try store.appointments.get(id: stored.id!).title == "Facial (phone)")
        #expect(try store.sync.conflicts().map(\.title) == ["Facial (desktop)"])
        #expect(try store.sync.conflicts().first?.ics?.contains("SUMMARY:Facial (desktop)") == true)
        #expect(try store.sync.outbox().isEmpty)
        #expect(
            server.resources["/cal/facial@x.ics"]?.ics.contains("Facial (phone)") == true,
            "the server's version was overwritten")
    }

    @Test("a sync cancelled while a write is on its way sends no further request")
    func aCancelledSyncSendsNothingMore() async throws {
        let store = try store(), server = CancellingCalendar()
        for title in ["Brows", "Nails", "Facial"] {
            _ = try store.appointments.add(
                Appointment(title: title, start: start, uid: "\(title.lowercased())@x"), now: start, zone: zone)
        }
        let engine = try engine(store, server)
        // A task of its own: the calendar cancels the task the sync runs in.
        let sync = Task { try await engine.run() }
        await #expect(throws: CancellationError.self) { _ = try await sync.value }
        #expect(server.puts == 1, "writes after the sync was cancelled: \(server.puts)")
        #expect(try store.sync.outbox().count == 2)
    }

    /// A calendar whose first write is answered just as the sync is cancelled (the daemon stopping,
    /// `[sync] sync_timeout`): the answer arrives, but the cancellation must stop what follows.
    final class CancellingCalendar: StaleListingCalendar, @unchecked Sendable {
        override func put(_ href: String, ics: String, _ precondition: CalDAVWritePrecondition) async throws -> String?
        {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await super.put(href, ics: ics, precondition)
        }
    }

    @Test(
        "a new event whose first PUT went through unanswered: the retry's 412 finds the same event and records it, no conflict, no copy"
    )
    func retriedCreationIsIdempotent() async throws {
        let store = try store(), server = StaleListingCalendar()
        _ = try store.appointments.add(
            Appointment(title: "Brows", start: start, uid: "brows@x"), now: start, zone: zone)
        _ = try await server.put("/cal/brows@x.ics", ics: ics("Brows", uid: "brows@x"), .mustNotExist)

        let report = try await engine(store, server).run()
        #expect(report.conflicts == 0 && report.pushed == 0, "\(report)")
        #expect(server.resources.count == 1 && server.puts == 1)
        #expect(try store.sync.resource(account: "phone", uid: "brows@x")?.etag == "\"1-/cal/brows@x.ics\"")
        #expect(try store.sync.outbox().isEmpty && store.sync.conflicts().isEmpty)
    }
}
