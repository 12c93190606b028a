import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation

/// Doses as the agenda and `now` show them: stored rows where they exist, the plan beyond them.
struct DoseAgenda {
    let medications: MedicationStore
    /// The user's zone: the plan of a medication not pinned to its own.
    let zone: any ZoneSource

    /// Doses still to come today, and those that should have been taken: every dose of yesterday and
    /// today whose time passed and that is not taken (missed and skipped too, so one answered late
    /// stays in view until the end of the day after its own).
    func today(now: Date, dayStart: Date, dayEnd: Date, yesterday: Date) throws -> (
        later: [AgendaEntry], overdue: [AgendaEntry]
    ) {
        let medications = Dictionary(uniqueKeysWithValues: try self.medications.all().map { ($0.id!, $0) })
        var later: [AgendaEntry] = [], overdue: [AgendaEntry] = []
        for dose in try self.medications.doses(from: yesterday, to: dayEnd) where dose.state != .taken {
            guard let medication = medications[dose.medicationID] else { continue }
            let entry = AgendaEntry(dose: dose, medication: medication)
            if dose.scheduledAt > now {
                if dose.state.isOpen, dose.scheduledAt >= dayStart { later.append(entry) }
            } else {
                overdue.append(entry)
            }
        }
        return (later, overdue)
    }

    /// Doses in an agenda range: stored rows where they exist, the plan beyond them.
    /// `searches` as `ListFilter.needles` gives them: a medication matching any of them.
    func entries(from: Date, to: Date, searches: [String]) throws -> [AgendaEntry] {
        var entries: [AgendaEntry] = []
        let stored = try medications.doses(from: from, to: to)
        let byKey = Dictionary(stored.map { ("\($0.medicationID)/\($0.scheduledAt.timeIntervalSince1970)", $0) }) {
            a, _ in a
        }
        for medication in try medications.all() {
            guard
                ListFilter.text(
                    [medication.name, medication.notes ?? "", medication.dose ?? ""], containsAnyOf: searches)
            else { continue }
            for instant in DosePlanner.doses(
                for: medication, from: from, to: to, zone: medication.zone(default: zone.current))
            {
                let dose =
                    byKey["\(medication.id!)/\(instant.timeIntervalSince1970)"]
                    ?? Dose(id: 0, medicationID: medication.id!, scheduledAt: instant)
                entries.append(AgendaEntry(dose: dose, medication: medication))
            }
        }
        return entries
    }
}
