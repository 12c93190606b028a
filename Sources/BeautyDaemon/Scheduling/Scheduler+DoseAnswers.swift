import BeautyCore
import BeautyNotify
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// Dose answers, from notification buttons and `beautyctl dose`.
extension Scheduler {
    /// Records taken / skipped / snoozed for a dose, closes its notification, and warns once on low stock.
    public func answerDose(id: Int64, _ state: Dose.State, at confirmedAt: Date, snoozeSeconds: Int? = nil) async throws -> DoseAnswer {
        let now = clock()
        if state == .snoozed, let dose = try? store.dose(id: id), dose.scheduledAt > now {
            // Snoozing a dose before it is due would show it earlier than planned.
            throw ValidationError(field: "id", "dose \(id) is not due yet (scheduled \(Timestamps(zone: LocalZone.shared.current).short(dose.scheduledAt))); snooze a dose once it is due")
        }
        let until = state == .snoozed ? now.addingTimeInterval(TimeInterval(snoozeSeconds ?? config.snoozeSeconds)) : nil
        let answer = try store.answerDose(id: id, state, confirmedAt: confirmedAt, now: now, snoozeUntil: until)
        guard answer.changed else { return answer }
        let shown = answer.shownKey
        if let shown {
            // Not awaited: this runs for `beautyctl dose`, and a close queued behind a hung Notify on the
            // GLib thread could otherwise hold the request up for the D-Bus timeout (~25 s).
            Task { [notifier] in await notifier.close(key: shown) }
        }
        logger.info("dose \(state.rawValue)", metadata: ["item_id": "\(id)", "item_kind": "medication"])
        if let event = DaemonEvent.Kind(answer: state) {
            hub.publish(DaemonEvent(event, at: now, key: shown, itemKind: .medication, itemID: id,
                                    title: try? store.medication(id: answer.dose.medicationID).name,
                                    detail: until.map { WireJSON.formatInstant($0) }))
        }
        if let low = answer.lowStock {
            logger.notice("stock of \(low.name) is down to \(NotificationContent.number(low.stock ?? 0))")
        }
        wake(.edited)
        return answer
    }
}
