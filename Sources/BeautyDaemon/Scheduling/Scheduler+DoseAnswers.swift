import BeautyCore
import BeautyNotify
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// Dose answers, from notification buttons and `beautyctl dose`.
extension Scheduler {
    /// Records taken / skipped / snoozed for a dose, closes its notification, and warns once on low stock.
    public func answerDose(
        id: Int64, _ state: Dose.State, at confirmedAt: Date, snoozeSeconds: Int? = nil,
        source: DoseAnswerSource = .desktop
    ) async throws -> DoseAnswer {
        let now = clock()
        if state == .snoozed, let dose = try? store.medications.dose(id: id), dose.scheduledAt > now {
            // Snoozing a dose before it is due would show it earlier than planned.
            throw ValidationError(
                field: "id", template: "dose %s is not due yet (scheduled %s); snooze a dose once it is due", id,
                Timestamps(zone: zone.current).short(dose.scheduledAt))
        }
        let until =
            state == .snoozed ? now.addingTimeInterval(TimeInterval(snoozeSeconds ?? config.snoozeSeconds)) : nil
        return settled(
            try store.medications.answerDose(
                id: id, state, confirmedAt: confirmedAt, now: now, snoozeUntil: until, source: source),
            state,
            now: now, until: until)
    }

    /// Taken or skipped ahead for a dose the schedule has beyond the stored rows (the agenda's id 0).
    public func answerPlannedDose(
        medicationID: Int64, scheduledAt: Date, _ state: Dose.State, at confirmedAt: Date,
        source: DoseAnswerSource = .desktop
    ) async throws -> DoseAnswer {
        guard state == .taken || state == .skipped else {
            throw ValidationError(
                field: "scheduledAt",
                template: "a dose this far ahead can be taken or skipped; snooze it by its id once it is due")
        }
        let now = clock()
        let answer = try store.medications.answerPlannedDose(
            medicationID: medicationID, scheduledAt: scheduledAt, state, confirmedAt: confirmedAt, now: now,
            source: source)
        return settled(answer, state, now: now, until: nil)
    }

    /// Both sides answered a dose and the phone was first (docs/PHONE_TASKS.md §8): the dose takes
    /// the phone's answer at the phone's time, stock given back or used up, as an answer would.
    public func reviseDose(id: Int64, to state: Dose.State, at confirmedAt: Date) async throws -> DoseAnswer {
        let now = clock()
        let answer = try store.medications.reviseDoseAnswer(id: id, to: state, confirmedAt: confirmedAt, now: now)
        return settled(answer, state, now: now, until: nil)
    }

    /// A dose taken outside the schedule, logged by hand.
    public func logDose(medicationID: Int64, at takenAt: Date) async throws -> DoseAnswer {
        let now = clock()
        return settled(
            try store.medications.logDose(medicationID: medicationID, takenAt: takenAt, now: now), .taken, now: now,
            until: nil)
    }

    /// After an answer is stored: its notification closed, the event published, a low stock logged.
    private func settled(_ answer: DoseAnswer, _ state: Dose.State, now: Date, until: Date?) -> DoseAnswer {
        guard answer.changed, let id = answer.dose.id else { return answer }
        let shown = answer.shownKey
        if let shown {
            // Not awaited: this runs for `beautyctl dose`, and a close queued behind a hung Notify on the
            // GLib thread could otherwise hold the request up for the D-Bus timeout (~25 s).
            Task { [notifier] in await notifier.close(key: shown) }
        }
        logger.info("dose \(state.rawValue)", metadata: ["item_id": "\(id)", "item_kind": "medication"])
        if let event = DaemonEvent.Kind(answer: state) {
            hub.publish(
                DaemonEvent(
                    event, at: now, key: shown, itemKind: .medication, itemID: id,
                    title: try? store.medications.find(id: answer.dose.medicationID).name,
                    detail: until.map { WireJSON.formatInstant($0) }))
        }
        if let low = answer.lowStock {
            logger.notice("stock of \(low.name) is down to \(Medication.formatUnits(low.stock ?? 0))")
        }
        wake(.edited)
        noticeDoses()
        return answer
    }
}
