import BeautyCore
import BeautyNotify
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// Dose notifications: the dose, its re-notifications (nags) until it is missed, and the low-stock warning.
extension Scheduler {
    /// A dose (or an unanswered one re-shown in place); after `nag_count` re-notifications, a miss to record.
    func doseDelivery(_ trigger: Trigger, at now: Date) throws -> Delivery {
        if trigger.source == .lowStock { return lowStockDelivery(trigger, at: now) }
        guard let dose = try? store.medications.dose(id: trigger.itemID),
            let medication = try? store.medications.find(id: dose.medicationID),
            dose.state.isOpen
        else {
            // Answered or deleted meanwhile: nothing to show.
            return .instead { [self] in try store.deliveries.markMissed([trigger.key], at: now) }
        }
        let previous = try store.medications.shownKey(ofDose: trigger.itemID)
        if trigger.source == .nag, dose.nagCount >= config.nagCount {
            return .instead { [self] in
                try giveUp(on: trigger, medication: medication, at: now)
                if let previous { await notifier.close(key: previous) }
            }
        }
        let notification = content.dose(
            trigger, dose: dose, medication: medication, nagCount: config.nagCount,
            replacesKey: trigger.source == .plan ? nil : previous)
        return showing(notification, of: trigger) { [self] firedAt in
            try store.deliveries.markFired([trigger.key], at: firedAt)
            try store.medications.doseShown(
                trigger, at: firedAt, nagInterval: TimeInterval(config.nagIntervalSeconds))
            let lateMs = Int(firedAt.timeIntervalSince(trigger.fireAt) * 1000)
            logger.info(
                "dose notification shown: \(medication.name) (\(trigger.source.rawValue), \(lateMs) ms after due)",
                metadata: metadata(trigger))
            hub.publish(
                DaemonEvent(
                    trigger.source == .nag ? .renotified : .fired, at: firedAt, key: trigger.key,
                    itemKind: .medication, itemID: trigger.itemID, title: medication.name))
        }
    }

    private func lowStockDelivery(_ trigger: Trigger, at now: Date) -> Delivery {
        guard let dose = try? store.medications.dose(id: trigger.itemID),
            let medication = try? store.medications.find(id: dose.medicationID)
        else {
            return .instead { [self] in try store.deliveries.markMissed([trigger.key], at: now) }
        }
        return showing(content.lowStock(medication, key: trigger.key), of: trigger) { [self] firedAt in
            try store.deliveries.markFired([trigger.key], at: firedAt)
            hub.publish(
                DaemonEvent(
                    .lowStock, at: firedAt, key: trigger.key, itemKind: .medication, itemID: trigger.itemID,
                    title: medication.name))
        }
    }

    /// An unanswered dose after its last re-notification: recorded as missed.
    private func giveUp(on trigger: Trigger, medication: Medication, at now: Date) throws {
        _ = try store.medications.markDoseMissed(id: trigger.itemID)
        try store.deliveries.markMissed([trigger.key], at: now)
        logger.warning(
            "dose not confirmed after \(config.nagCount) reminders: recorded as missed", metadata: metadata(trigger))
        hub.publish(
            DaemonEvent(
                .missed, at: now, key: trigger.key, itemKind: .medication,
                itemID: trigger.itemID, title: medication.name))
        noticeDoses()
    }

    /// A re-notification that comes due while notifications are off: counted, not shown.
    func silentNag(_ trigger: Trigger, at now: Date) throws {
        guard let dose = try? store.medications.dose(id: trigger.itemID),
            let medication = try? store.medications.find(id: dose.medicationID),
            dose.state.isOpen
        else { try store.deliveries.markMissed([trigger.key], at: now); return }
        if dose.nagCount >= config.nagCount { return try giveUp(on: trigger, medication: medication, at: now) }
        try store.deliveries.markSuppressed([trigger.key], at: now)
        try store.medications.doseShown(trigger, at: now, nagInterval: TimeInterval(config.nagIntervalSeconds))
        hub.publish(
            DaemonEvent(
                .suppressed, at: now, key: trigger.key, itemKind: .medication, itemID: trigger.itemID,
                title: medication.name))
    }
}
