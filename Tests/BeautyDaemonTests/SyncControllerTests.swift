@testable import BeautyDaemon
@testable import BeautyProtocol
import BeautyStore
import BeautyTestSupport
import Foundation
import Logging
import Testing

/// The sync area on its own: its controller routes the sync methods, and its coordinator runs a sync
/// with the sync store and a "reminders changed" call alone, no scheduler.
@Suite struct SyncControllerTests {
    let logger = Logger(label: "sync-test", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test("SyncController routes every sync.* method and nothing else")
    func routesTheSyncMethods() throws {
        let daemon = try makeDaemon(
            store: try AppDatabase.inMemory(), notifier: RecordingNotifier(), config: DaemonConfig(),
            session: SessionLanguage(.english),
            socket: "in process", logger: logger)
        let controller = SyncController(
            store: daemon.store.sync, categories: daemon.store.categories, sync: daemon.sync,
            settings: daemon.settings, remindersChanged: {}, logger: logger, clock: Date.init, zone: LocalZone.shared)
        var router = RequestRouter()
        controller.addRoutes(to: &router)
        #expect(Set(router.routes.keys) == Set(SyncRPC.methods))
        #expect(router.duplicates.isEmpty)
    }

    @Test("a sync that brings an appointment says the reminders changed; one that fails says so too")
    func syncsTellTheReminders() async throws {
        let event =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//hostile//EN\r\nBEGIN:VEVENT\r\nUID:cut@hostile\r\n"
            + "DTSTAMP:20260101T000000Z\r\nDTSTART:20270101T100000Z\r\nDTEND:20270101T110000Z\r\nSUMMARY:Haircut\r\n"
            + "END:VEVENT\r\nEND:VCALENDAR\r\n"
        let server = try await HostileCalDAVServer.start(.init(events: ["cut.ics": event]))
        defer { server.stop() }
        let db = try AppDatabase.inMemory()
        let calendar = server.calendarURL.absoluteString
        try db.sync.addAccount(
            SyncAccount(
                name: "hostile", url: calendar, user: "anna", passwordFile: server.passwordFile, calendarURL: calendar,
                calendarName: nil, insecure: false, supportsSyncCollection: true, createdAt: Date()))
        let told = TellCounter()
        let coordinator = SyncCoordinator(
            store: db.sync, appointments: db.appointments, categories: db.categories,
            settings: SettingsBox(DaemonConfig(), session: SessionLanguage(.english)),
            remindersChanged: { told.tell() }, logger: logger, clock: Date.init,
            zone: SettableZone(TimeZone(identifier: "Europe/Warsaw")!))

        let pulled = try await coordinator.syncNow(name: "hostile")
        #expect(pulled.map(\.fetched) == [1] && pulled.first?.error == nil, "\(pulled)")
        #expect(try db.sync.resource(account: "hostile", uid: "cut@hostile") != nil)
        #expect(told.count == 1)

        try await server.set(.init(error: .init(status: 500, body: "down for maintenance")))
        let failed = try await coordinator.syncNow(name: "hostile")
        #expect(failed.first?.error != nil)
        #expect(try db.sync.account(named: "hostile")?.failures == 1)
        // What a pull stored before its failure has reminders to arm too.
        #expect(told.count == 2)
        await coordinator.shutdown()
    }
}

/// How many times the coordinator said the reminders changed.
final class TellCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var told = 0

    func tell() { lock.withLock { told += 1 } }
    var count: Int { lock.withLock { told } }
}
