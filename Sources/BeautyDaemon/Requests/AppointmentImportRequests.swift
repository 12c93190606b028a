import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation

/// appointment.import (one request) and the staged import (importBegin, importChunk, importCommit,
/// importAbort) for files larger than one request line: both check every appointment the same way
/// and write them in one transaction.
extension UnsplitRequests {
    func importAppointments(_ p: AppointmentImportParams) throws -> AppointmentImportResult {
        let checked = try checkedImports(
            p.appointments, contactNames: p.contactNames, contactPhones: p.contactPhones, firstIndex: 0)
        return try writeImport(checked.appointments, contacts: checked.contacts)
    }

    func beginImport() throws -> AppointmentImportStage {
        let name = try importStages.begin(connection: connection)
        let limits = importStages.limits
        return AppointmentImportStage(stage: name, maxAppointments: limits.appointments, maxTextBytes: limits.bytes)
    }

    /// Checks the chunk on arrival, so a bad event is reported before the rest is sent; a refused
    /// chunk discards the whole stage (the import is all or nothing).
    func stageImportChunk(_ p: AppointmentImportChunkParams) throws -> AppointmentImportChunkResult {
        let checked: (appointments: [Appointment], contacts: [Contact?])
        do {
            checked = try checkedImports(
                p.appointments, contactNames: p.contactNames, contactPhones: p.contactPhones,
                firstIndex: p.firstIndex)
        } catch {
            _ = try? importStages.take(p.stage, connection: connection)
            throw error
        }
        let received = try importStages.append(
            checked.appointments, contacts: checked.contacts, firstIndex: p.firstIndex,
            to: p.stage, connection: connection)
        return AppointmentImportChunkResult(received: received)
    }

    func commitImport(_ p: AppointmentImportStageParams) throws -> AppointmentImportResult {
        let stage = try importStages.take(p.stage, connection: connection)
        return try writeImport(stage.appointments, contacts: stage.contacts)
    }

    func abortImport(_ p: AppointmentImportStageParams) throws -> AppointmentImportAbortResult {
        AppointmentImportAbortResult(
            discarded: try importStages.take(p.stage, connection: connection).appointments.count)
    }

    /// The appointments as they will be stored (contacts still unlinked) with the contacts they name, or
    /// the first one refused, named by its index in the whole import (`appointments[7012].title`).
    private func checkedImports(
        _ appointments: [Appointment], contactNames: [String?], contactPhones: [String?]?,
        firstIndex: Int
    ) throws -> (appointments: [Appointment], contacts: [Contact?]) {
        try Self.checkedImports(
            appointments, contactNames: contactNames, contactPhones: contactPhones, firstIndex: firstIndex,
            tree: try store.categories.all().map { (name: $0.name, title: $0.title) },
            currency: settings.config.currency)
    }

    /// `checkedImports` with the category tree and the default currency given (sync checks what a server sends the same way).
    static func checkedImports(
        _ appointments: [Appointment], contactNames: [String?], contactPhones: [String?]?, firstIndex: Int,
        tree: [(name: String, title: String)], currency: String
    ) throws -> (appointments: [Appointment], contacts: [Contact?]) {
        guard contactNames.isEmpty || contactNames.count == appointments.count else {
            throw ValidationError(field: "contactNames", template: "must have one entry per appointment")
        }
        let phones = contactPhones ?? []
        guard phones.isEmpty || phones.count == contactNames.count else {
            throw ValidationError(field: "contactPhones", template: "must have one entry per contact name")
        }
        var contacts: [Contact?] = []
        contacts.reserveCapacity(appointments.count)
        let checked = try appointments.enumerated().map { offset, raw in
            let index = firstIndex + offset
            var a = raw
            a.id = nil
            a.seriesID = nil  // the store links a changed occurrence to its series by UID
            // A named contact is linked at the write; what the client put in contactID then does not count.
            if offset < contactNames.count, contactNames[offset] != nil { a.contactID = nil }
            guard a.uid != nil else {
                throw ValidationError(field: "appointments[\(index)].uid", template: "is required to import")
            }
            if let price = a.price, price.currency.isEmpty { a.price = Money(cents: price.cents, currency: currency) }
            // Calendar categories: the one naming a node of the tree is the category, the rest stay tags.
            (a.category, a.tags) = CategoryAssignment.assign((a.category.map { [$0] } ?? []) + a.tags, tree: tree)
            do {
                let name = offset < contactNames.count ? contactNames[offset] : nil
                let phone = offset < phones.count ? phones[offset] : nil
                contacts.append(
                    try name.map { name in
                        Contact(
                            name: try Validation.name(name, field: "contact"),
                            phone: try phone.map { try Validation.phone($0, field: "contactPhone") } ?? "")
                    })
                return try Validation.appointment(a)
            } catch let error as ValidationError {
                // The title names the event; a control character in it (the likely error) must not reach a terminal.
                throw error.within("appointments[\(index)]", naming: Validation.quotable(a.title))
            }
        }
        return (checked, contacts)
    }

    /// Writes everything in one transaction, linking (or creating) the contacts the appointments name.
    private func writeImport(_ appointments: [Appointment], contacts: [Contact?]) throws -> AppointmentImportResult {
        let counts = try store.importAppointments(appointments, contacts: contacts, now: clock(), zone: zone.current)
        for frequent in appointments where ReminderPlanner.remindsLessOftenThanItOccurs(frequent) {
            logger.notice(
                "import: '\(frequent.title)' repeats more often than once a minute; its reminders come at most once a minute"
            )
        }
        logger.info(
            "imported \(counts.inserted) new, \(counts.updated) updated, \(counts.unchanged) unchanged appointments, \(counts.contactsCreated) new contacts"
        )
        scheduler.wake(.edited)
        return AppointmentImportResult(
            inserted: counts.inserted, updated: counts.updated, unchanged: counts.unchanged,
            contactsCreated: counts.contactsCreated == 0 ? nil : counts.contactsCreated,
            unlinkedContacts: counts.unlinked.isEmpty ? nil : counts.unlinked)
    }
}
