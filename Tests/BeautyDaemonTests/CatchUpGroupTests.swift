import BeautyCore
import BeautyDaemon
import BeautyNotify
import BeautyStore
import BeautyTestSupport
import Foundation
import Testing

/// The scheduler in process with a notifier that plays a server which has already shown one
/// member of a missed-while-away group (it answered that member's Notify late).
@Suite struct CatchUpGroupTests {
    @Test("a group member the server showed late is recorded as shown and left out of the group sent after it")
    func memberShownLateIsLeftOut() async throws {
        let store = try AppDatabase.inMemory()
        let now = Date()
        var ids: [Int64] = []
        for (title, late) in [("Manicure", 300.0), ("Pedicure", 200.0)] {
            let added = try store.appointments.add(
                Appointment(
                    title: title, start: now.addingTimeInterval(3600), reminders: [.at(now.addingTimeInterval(-late))]),
                now: now.addingTimeInterval(-600))
            ids.append(try #require(added.id))
        }
        let keys = try ids.map {
            try #require(try store.deliveries.of(itemKind: .appointment, itemID: $0).first?.trigger.key)
        }
        // A server that answers the first notification's Notify late: it has shown its first member already.
        let notifier = RecordingNotifier { index, notification in
            index == 0 ? .shownEarlier([notification.covers[0]]) : .shown(id: UInt32(index + 1))
        }
        let daemon = try await InProcessDaemon(now: now, notifier: notifier, store: store)
        defer { withExtendedLifetime(daemon) {} }

        var states: [DeliveryState] = []
        for _ in 0..<100 where states != [.fired, .fired] {
            try await Task.sleep(for: .milliseconds(50))
            states = try ids.map {
                try store.deliveries.of(itemKind: .appointment, itemID: $0).first?.state ?? .pending
            }
        }
        let shown = notifier.shown
        try #require(shown.count == 2, "notifications: \(shown.map(\.covers))")
        #expect(Set(shown[0].covers) == Set(keys))
        let lateKey = shown[0].covers[0]
        #expect(
            shown[1].covers == keys.filter { $0 != lateKey }, "the member shown late was sent again: \(shown[1].covers)"
        )
        #expect(!shown[1].body.contains(lateKey == keys[0] ? "Manicure" : "Pedicure"), "\(shown[1].body)")
        #expect(states == [.fired, .fired])
    }
}
