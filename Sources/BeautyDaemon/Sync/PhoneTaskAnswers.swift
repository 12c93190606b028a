import BeautyCore
import BeautyStore
import Foundation

/// Where the dose engine records what the phone answered: the Scheduler's answer path, so the
/// popup closes, stock, history, adherence and the daemon event are as for a click on the desktop.
protocol PhoneTaskAnswers: Sendable {
    /// The phone ticked (taken) or cancelled (skipped) the dose of `medicationID` due at `due`.
    func record(medicationID: Int64, due: Date, _ state: Dose.State, at: Date) async throws
    /// Both sides answered and the phone was first: the dose takes the phone's answer (§8).
    func revise(medicationID: Int64, due: Date, _ state: Dose.State, at: Date) async throws
}

extension Scheduler: PhoneTaskAnswers {
    func record(medicationID: Int64, due: Date, _ state: Dose.State, at: Date) async throws {
        // Made and answered in one write when the dose is not a row yet (further ahead than planned).
        _ = try await answerPlannedDose(medicationID: medicationID, scheduledAt: due, state, at: at, source: .phone)
    }

    func revise(medicationID: Int64, due: Date, _ state: Dose.State, at: Date) async throws {
        guard
            let dose = try store.medications.doses(
                from: due, to: due.addingTimeInterval(1), medicationID: medicationID
            ).first, let id = dose.id
        else { return }
        _ = try await reviseDose(id: id, to: state, at: at)
    }
}
