import BeautyCore
import BeautyNotify
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// Water reminders, and the daily tip, which is shown the same way.
extension Scheduler {
    /// Water reminders and the daily tip: shown unless no longer wanted at `now` (e.g. today's water goal reached).
    func plannerNoticeDelivery(_ trigger: Trigger, at now: Date) throws -> Delivery {
        guard let notification = try content.plannerNotice(trigger, now: now) else {
            // Not needed any more: recorded, not shown.
            return .instead { [self] in try store.deliveries.markMissed([trigger.key], at: clock()) }
        }
        return showing(notification, of: trigger) { [self] firedAt in
            try store.deliveries.markFired([trigger.key], at: firedAt)
            hub.publish(
                DaemonEvent(
                    .fired, at: firedAt, key: trigger.key, itemKind: trigger.itemKind,
                    itemID: trigger.itemID, title: notification.summary))
        }
    }
}
