import BeautyCore
import BeautyLocalization
import BeautyNotify
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// Appointment reminders, one at a time or several missed while away as one notification.
extension Scheduler {
    /// An appointment's reminder, or (its appointment gone) a miss to record.
    func appointmentDelivery(_ trigger: Trigger) -> Delivery {
        guard let notification = content.appointment(trigger) else {
            return .instead { [self] in
                let now = clock()
                try store.deliveries.markMissed([trigger.key], at: now)  // its item is gone
                hub.publish(
                    DaemonEvent(
                        .missed, at: now, key: trigger.key, itemKind: trigger.itemKind,
                        itemID: trigger.itemID, detail: "item deleted"))
            }
        }
        return showing(notification, of: trigger) { [self] firedAt in
            try store.deliveries.markFired([trigger.key], at: firedAt)
            let lateMs = Int(firedAt.timeIntervalSince(trigger.fireAt) * 1000)
            logger.info(
                "reminder delivered: \(notification.summary) (\(lateMs) ms after due)", metadata: metadata(trigger))
            hub.publish(
                DaemonEvent(
                    .fired, at: firedAt, key: trigger.key, itemKind: trigger.itemKind,
                    itemID: trigger.itemID, title: notification.summary))
        }
    }

    /// Several reminders missed while away become one notification.
    func deliverGroup(_ triggers: [Trigger]) async -> Bool {
        // Members the server has already shown (it answered their Notify late) are recorded as shown
        // and left out: the others get a notification that tells only of them. Once shown, a record
        // that cannot be written yet is kept and written later, never shown again; so a failure
        // returns only the members not shown yet to pending.
        var members = triggers
        do {
            while case .shownEarlier(let shown) = try await show(missedWhileAway(members), for: members.map(\.key)) {
                let early = members.filter { shown.contains($0.key) }
                _ = record(
                    ShownDelivery(
                        keys: early.map(\.key), description: "missed-while-away reminders", metadata: nil,
                        shownAt: clock()
                    ) { [self] firedAt in
                        try recordFired(early, at: firedAt, detail: "shown when the notification server answered late")
                    })
                members.removeAll { shown.contains($0.key) }
                if members.isEmpty { return true }
            }
            let shown = members
            return record(
                ShownDelivery(
                    keys: shown.map(\.key), description: "missed-while-away reminders", metadata: nil,
                    shownAt: clock()
                ) { [self] firedAt in
                    try recordFired(shown, at: firedAt, detail: "missed while away")
                    logger.notice("delivered \(shown.count) reminders missed while away as one notification")
                })
        } catch {
            return notShown(members.map(\.key), error, as: "missed-while-away reminders")
        }
    }

    /// One notification telling of several reminders, named by its members and covering each of them.
    private func missedWhileAway(_ triggers: [Trigger]) -> DesktopNotification {
        let items = triggers.map {
            (title: store.title(of: $0) ?? localizer.tr("(deleted)"), occurrence: $0.occurrence)
        }
        let answers = triggers.map { $0.itemKind == .medication ? NotificationText.doseCommand($0.itemID) : nil }
        let text = NotificationText.missedWhileAway(items, answers: answers, zone: zone.current, localizer: localizer)
        return DesktopNotification(
            key: "catch-up/" + triggers.map(\.key).sorted().joined(separator: ","), summary: text.summary,
            body: text.body,
            category: ItemKind.appointment.notificationCategory, covers: triggers.map(\.key), staysUntilDismissed: true)
    }

    private func recordFired(_ triggers: [Trigger], at firedAt: Date, detail: String) throws {
        try store.deliveries.markFired(triggers.map(\.key), at: firedAt)
        for trigger in triggers {
            hub.publish(
                DaemonEvent(
                    .fired, at: firedAt, key: trigger.key, itemKind: trigger.itemKind,
                    itemID: trigger.itemID, title: store.title(of: trigger), detail: detail))
        }
    }
}
