import BeautyCore
import BeautyNotify
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// Dose notifications: the dose, its re-notifications (nags) until it is missed, and the low-stock warning.
extension Scheduler {
    /// Shows a dose (or re-shows an unanswered one in place); after `nag_count` re-notifications it is missed.
    func deliverDose(_ trigger: Trigger) async -> Bool {
        if trigger.source == .lowStock { return await deliverLowStock(trigger) }
        do {
            let now = clock()
            guard let dose = try? store.medications.dose(id: trigger.itemID),
                let medication = try? store.medications.find(id: dose.medicationID),
                dose.state.isOpen
            else {
                // Answered or deleted meanwhile: nothing to show.
                try store.deliveries.markMissed([trigger.key], at: now)
                return true
            }
            if trigger.source == .nag, dose.nagCount >= config.nagCount {
                let shown = try store.medications.shownKey(ofDose: trigger.itemID)
                try giveUp(on: trigger, medication: medication, at: now)
                if let shown { await notifier.close(key: shown) }
                return true
            }
            let previous = try store.medications.shownKey(ofDose: trigger.itemID)
            let notification = content.dose(
                trigger, dose: dose, medication: medication, nagCount: config.nagCount,
                replacesKey: trigger.source == .plan ? nil : previous)
            return try await showThenRecord(notification, for: [trigger.key], as: "dose", metadata: metadata(trigger)) {
                [self] firedAt in
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
        } catch {
            return notShown([trigger.key], error, as: "dose", metadata: metadata(trigger))
        }
    }

    private func deliverLowStock(_ trigger: Trigger) async -> Bool {
        do {
            guard let dose = try? store.medications.dose(id: trigger.itemID),
                let medication = try? store.medications.find(id: dose.medicationID)
            else {
                try store.deliveries.markMissed([trigger.key], at: clock())
                return true
            }
            return try await showThenRecord(
                content.lowStock(medication, key: trigger.key), for: [trigger.key], as: "low-stock warning",
                metadata: metadata(trigger)
            ) { [self] firedAt in
                try store.deliveries.markFired([trigger.key], at: firedAt)
                hub.publish(
                    DaemonEvent(
                        .lowStock, at: firedAt, key: trigger.key, itemKind: .medication, itemID: trigger.itemID,
                        title: medication.name))
            }
        } catch {
            return notShown([trigger.key], error, as: "low-stock warning", metadata: metadata(trigger))
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
