import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation

/// appointment.import (one request) and the staged import (importBegin, importChunk, importCommit,
/// importAbort) for files larger than one request line: both check every appointment the same way
/// and write them in one transaction.
extension RequestHandler {
    func importAppointments(_ p: AppointmentImportParams) throws -> AppointmentImportResult {
        let checked = try checkedImports(p.appointments, contactNames: p.contactNames, firstIndex: 0)
        return try writeImport(checked, contactNames: p.contactNames)
    }

    func beginImport() throws -> AppointmentImportStage {
        let name = try importStages.begin(connection: connection)
        let limits = importStages.limits
        return AppointmentImportStage(stage: name, maxAppointments: limits.appointments, maxTextBytes: limits.textBytes)
    }

    /// Checks the chunk on arrival, so a bad event is reported before the rest is sent; a refused
    /// chunk discards the whole stage (the import is all or nothing).
    func stageImportChunk(_ p: AppointmentImportChunkParams) throws -> AppointmentImportChunkResult {
        let checked: [Appointment]
        do {
            checked = try checkedImports(p.appointments, contactNames: p.contactNames, firstIndex: p.firstIndex)
        } catch {
            _ = try? importStages.take(p.stage, connection: connection)
            throw error
        }
        let received = try importStages.append(checked, contactNames: p.contactNames, firstIndex: p.firstIndex,
                                               to: p.stage, connection: connection)
        return AppointmentImportChunkResult(received: received)
    }

    func commitImport(_ p: AppointmentImportStageParams) throws -> AppointmentImportResult {
        let stage = try importStages.take(p.stage, connection: connection)
        return try writeImport(stage.appointments, contactNames: stage.contactNames)
    }

    func abortImport(_ p: AppointmentImportStageParams) throws -> AppointmentImportAbortResult {
        AppointmentImportAbortResult(discarded: try importStages.take(p.stage, connection: connection).appointments.count)
    }

    /// The appointments as they will be stored (contacts still unlinked), or the first one refused,
    /// named by its index in the whole import (`appointments[7012].title`).
    private func checkedImports(_ appointments: [Appointment], contactNames: [String?], firstIndex: Int) throws -> [Appointment] {
        guard contactNames.isEmpty || contactNames.count == appointments.count else {
            throw ValidationError(field: "contactNames", "must have one entry per appointment")
        }
        let currency = settings.config.currency
        return try appointments.enumerated().map { offset, raw in
            let index = firstIndex + offset
            var a = raw
            a.id = nil
            a.seriesID = nil  // the store links a changed occurrence to its series by UID
            // A named contact is linked at the write; what the client put in contactID then does not count.
            if offset < contactNames.count, contactNames[offset] != nil { a.contactID = nil }
            guard a.uid != nil else { throw ValidationError(field: "appointments[\(index)].uid", "is required to import") }
            if let price = a.price, price.currency.isEmpty { a.price = Money(cents: price.cents, currency: currency) }
            do {
                return try Validation.appointment(a)
            } catch let error as ValidationError {
                // The title names the event; a control character in it (the likely error) must not reach a terminal.
                throw ValidationError(field: "appointments[\(index)].\(error.field)", "\(error.message) (\(Validation.quotable(a.title)))")
            }
        }
    }

    /// Links contact names to existing contacts of that name and writes everything in one transaction.
    private func writeImport(_ checked: [Appointment], contactNames: [String?]) throws -> AppointmentImportResult {
        var appointments = checked
        if contactNames.contains(where: { $0 != nil }) {
            let contacts = Dictionary(try store.contacts().map { ($0.name.lowercased(), $0.id!) }) { first, _ in first }
            for (index, name) in contactNames.enumerated() {
                if let name { appointments[index].contactID = contacts[name.lowercased()] }
            }
        }
        let counts = try store.importAppointments(appointments, now: clock(), zone: zone.current)
        logger.info("imported \(counts.inserted) new, \(counts.updated) updated, \(counts.unchanged) unchanged appointments")
        scheduler.wake(.edited)
        return AppointmentImportResult(inserted: counts.inserted, updated: counts.updated, unchanged: counts.unchanged)
    }
}
