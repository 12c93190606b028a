import BeautyCore
import BeautyDaemon
import BeautyNotify
import BeautyStore
import BeautyTestSupport
import Foundation
import Logging
import Testing

/// The scheduler with a real database and a notifier that plays a server which has already shown one
/// member of a missed-while-away group (it answered that member's Notify late).
@Suite struct CatchUpGroupTests {
    /// Answers the first notification with "already shown" for its first covered key, shows the rest.
    final class LateAnsweringNotifier: Notifier, @unchecked Sendable {
        let events: AsyncStream<NotifierEvent>
        private let lock = NSLock()
        private var requests: [DesktopNotification] = []

        init() { events = AsyncStream { _ in } }

        var shown: [DesktopNotification] { lock.withLock { requests } }

        func show(_ notification: DesktopNotification) async throws -> ShowOutcome {
            lock.withLock {
                requests.append(notification)
                return requests.count == 1 ? .shownEarlier([notification.covers[0]]) : .shown(id: UInt32(requests.count))
            }
        }

        func close(key: String) async {}
        func serverInfo() -> NotificationServerInfo { NotificationServerInfo(reachable: true) }
    }

    @Test("a group member the server showed late is recorded as shown and left out of the group sent after it")
    func memberShownLateIsLeftOut() async throws {
        let scratch = try ScratchDirectory()
        let store = try AppDatabase.open(path: try scratch.sub("db.sqlite"))
        let now = Date()
        var ids: [Int64] = []
        for (title, late) in [("Manicure", 300.0), ("Pedicure", 200.0)] {
            let added = try store.addAppointment(
                Appointment(title: title, start: now.addingTimeInterval(3600), reminders: [.at(now.addingTimeInterval(-late))]),
                now: now.addingTimeInterval(-600))
            ids.append(try #require(added.id))
        }
        let keys = try ids.map { try #require(try store.deliveries(itemKind: .appointment, itemID: $0).first?.trigger.key) }
        let notifier = LateAnsweringNotifier()
        let scheduler = Scheduler(store: store, notifier: notifier, hub: EventHub(), config: DaemonConfig(),
                                  logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let running = Task { try await scheduler.run() }
        defer { running.cancel() }

        var states: [DeliveryState] = []
        for _ in 0..<100 where states != [.fired, .fired] {
            try await Task.sleep(for: .milliseconds(50))
            states = try ids.map { try store.deliveries(itemKind: .appointment, itemID: $0).first?.state ?? .pending }
        }
        let shown = notifier.shown
        try #require(shown.count == 2, "notifications: \(shown.map(\.covers))")
        #expect(Set(shown[0].covers) == Set(keys))
        let lateKey = shown[0].covers[0]
        #expect(shown[1].covers == keys.filter { $0 != lateKey }, "the member shown late was sent again: \(shown[1].covers)")
        #expect(!shown[1].body.contains(lateKey == keys[0] ? "Manicure" : "Pedicure"), "\(shown[1].body)")
        #expect(states == [.fired, .fired])
    }
}
