import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation

/// dose.*: a dose answered taken, skipped or snoozed, or one taken outside the schedule logged.
struct DoseController: RequestController {
    let medications: MedicationStore
    let deliveries: DeliveryStore
    let scheduler: Scheduler
    let clock: @Sendable () -> Date
    /// The user's zone: the time a dose the schedule lacks is named at.
    let zone: any ZoneSource

    func addRoutes(to router: inout RequestRouter) {
        router.register(MedicationRPC.doseTaken) { (p: DoseParams) in try await answer(p, .taken) }
        router.register(MedicationRPC.doseSkip) { (p: DoseParams) in try await answer(p, .skipped) }
        router.register(MedicationRPC.doseSnooze) { (p: DoseParams) in try await answer(p, .snoozed) }
        router.register(MedicationRPC.doseLog, log)
    }

    func answer(_ p: DoseParams, _ state: Dose.State) async throws -> DoseResult {
        if let seconds = p.forSeconds, seconds <= 0 || seconds > 86_400 {
            throw ValidationError(field: "forSeconds", template: "must be between 1 second and 1 day")
        }
        let now = clock()
        if let at = p.at, at > now.addingTimeInterval(60) {
            throw ValidationError(field: "at", template: "must not be in the future")
        }
        try checkEarly(p, state)
        let answer: DoseAnswer
        switch (p.id, p.medicationID, p.scheduledAt) {
        case let (id?, nil, nil):
            answer = try await scheduler.answerDose(id: id, state, at: p.at ?? now, snoozeSeconds: p.forSeconds)
        case let (nil, medicationID?, scheduledAt?):
            try checkPlannedDose(medicationID: medicationID, at: scheduledAt)
            answer = try await scheduler.answerPlannedDose(
                medicationID: medicationID, scheduledAt: scheduledAt, state, at: p.at ?? now)
        default:
            throw ValidationError(
                field: "id", template: "give a dose id, or (for a dose with none yet) medicationID and scheduledAt")
        }
        let medication = try medications.find(id: answer.dose.medicationID)
        let until =
            state == .snoozed && answer.changed
            ? try deliveries.of(itemKind: .medication, itemID: answer.dose.id ?? 0).last { $0.state == .pending }?
                .trigger.fireAt : nil
        return DoseResult(dose: answer.dose, medication: medication, changed: answer.changed, snoozedUntil: until)
    }

    func log(_ p: DoseLogParams) async throws -> DoseResult {
        let now = clock()
        if let at = p.at, at > now.addingTimeInterval(60) {
            throw ValidationError(field: "at", template: "must not be in the future")
        }
        let answer = try await scheduler.logDose(medicationID: p.medicationID, at: p.at ?? now)
        return DoseResult(
            dose: answer.dose, medication: try medications.find(id: p.medicationID), changed: true, snoozedUntil: nil)
    }

    /// An answer timed long before its dose was due waits for `early` (see `DoseParams.early`); the
    /// error's arguments are the two instants (RFC 3339) for the client to word its question.
    private func checkEarly(_ p: DoseParams, _ state: Dose.State) throws {
        guard let at = p.at, p.early != true, state == .taken || state == .skipped,
            let due = try p.scheduledAt ?? p.id.map({ try medications.dose(id: $0).scheduledAt }),
            at < due.addingTimeInterval(-DoseParams.earlyLimit)
        else { return }
        throw ValidationError(
            field: "early",
            template: "answered at %s, more than 12 hours before the dose was due (%s): set early to confirm",
            RFC3339.format(at), RFC3339.format(due))
    }

    /// A dose answered by its medication and time must be one the schedule has.
    private func checkPlannedDose(medicationID: Int64, at scheduledAt: Date) throws {
        let medication = try medications.find(id: medicationID)
        let zone = medication.zone(default: self.zone.current)
        guard
            DosePlanner.doses(for: medication, from: scheduledAt, to: scheduledAt.addingTimeInterval(1), zone: zone)
                == [scheduledAt]
        else {
            throw ValidationError(
                field: "scheduledAt", template: "%s has no dose at %s", medication.name,
                Timestamps(zone: zone).short(scheduledAt))
        }
    }
}
