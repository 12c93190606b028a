import BeautyCore
import BeautyNotify
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// Water reminders, and the daily tip, which is shown the same way.
extension Scheduler {
    /// Water reminders and the daily tip: shown unless no longer wanted (e.g. today's water goal reached).
    func deliverPlannerNotice(_ trigger: Trigger) async -> Bool {
        do {
            guard let notification = try content.plannerNotice(trigger, now: clock()) else {
                try store.deliveries.markMissed([trigger.key], at: clock())  // not needed any more: recorded, not shown
                return true
            }
            return try await showThenRecord(
                notification, for: [trigger.key], as: "\(trigger.itemKind.rawValue) reminder",
                metadata: metadata(trigger)
            ) { [self] firedAt in
                try store.deliveries.markFired([trigger.key], at: firedAt)
                hub.publish(
                    DaemonEvent(
                        .fired, at: firedAt, key: trigger.key, itemKind: trigger.itemKind,
                        itemID: trigger.itemID, title: notification.summary))
            }
        } catch {
            return notShown(
                [trigger.key], error, as: "\(trigger.itemKind.rawValue) reminder", metadata: metadata(trigger))
        }
    }
}
