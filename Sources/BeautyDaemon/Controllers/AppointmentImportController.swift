import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// appointment.import (one request) and the staged import (importBegin, importChunk, importCommit,
/// importAbort) for files larger than one request line: both check every appointment the same way
/// and write them in one transaction. And appointment.export / exportICS, their way out.
struct AppointmentImportController: RequestController {
    let appointments: AppointmentStore
    let categories: CategoryStore
    /// The contacts an export names, which the contacts' area keeps.
    let database: AppDatabase
    let scheduler: Scheduler
    let settings: SettingsBox
    let logger: Logger
    let clock: @Sendable () -> Date
    /// The user's zone: plans made at an import, a floating appointment's zone in an export.
    let zone: any ZoneSource
    /// Imports staged in chunks, daemon-wide; each belongs to the connection that began it.
    let importStages: ImportStages

    func addRoutes(to router: inout RequestRouter) {
        router.register(AppointmentRPC.importCalendar, importCalendar)
        router.register(AppointmentRPC.importBegin) { (_: NoParams, context) in try begin(context) }
        router.register(AppointmentRPC.importChunk, chunk)
        router.register(AppointmentRPC.importCommit, commit)
        router.register(AppointmentRPC.importAbort, abort)
        router.register(AppointmentRPC.exportCalendar) { (_: NoParams) in try exportCalendar() }
        router.register(AppointmentRPC.exportICS, exportICS)
    }

    func connectionClosed(_ context: RequestContext) {
        importStages.discard(connection: context.connection)
    }

    func importCalendar(_ p: AppointmentImportParams) throws -> AppointmentImportResult {
        let checked = try checkedImports(
            p.appointments, contactNames: p.contactNames, contactPhones: p.contactPhones, firstIndex: 0)
        return try writeImport(checked.appointments, contacts: checked.contacts)
    }

    func begin(_ context: RequestContext) throws -> AppointmentImportStage {
        let name = try importStages.begin(connection: context.connection)
        let limits = importStages.limits
        return AppointmentImportStage(stage: name, maxAppointments: limits.appointments, maxTextBytes: limits.bytes)
    }

    /// Checks the chunk on arrival, so a bad event is reported before the rest is sent; a refused
    /// chunk discards the whole stage (the import is all or nothing).
    func chunk(_ p: AppointmentImportChunkParams, _ context: RequestContext) throws -> AppointmentImportChunkResult {
        let checked: (appointments: [Appointment], contacts: [Contact?])
        do {
            checked = try checkedImports(
                p.appointments, contactNames: p.contactNames, contactPhones: p.contactPhones,
                firstIndex: p.firstIndex)
        } catch {
            _ = try? importStages.take(p.stage, connection: context.connection)
            throw error
        }
        let received = try importStages.append(
            checked.appointments, contacts: checked.contacts, firstIndex: p.firstIndex,
            to: p.stage, connection: context.connection)
        return AppointmentImportChunkResult(received: received)
    }

    func commit(_ p: AppointmentImportStageParams, _ context: RequestContext) throws -> AppointmentImportResult {
        let stage = try importStages.take(p.stage, connection: context.connection)
        return try writeImport(stage.appointments, contacts: stage.contacts)
    }

    func abort(_ p: AppointmentImportStageParams, _ context: RequestContext) throws -> AppointmentImportAbortResult {
        AppointmentImportAbortResult(
            discarded: try importStages.take(p.stage, connection: context.connection).appointments.count)
    }

    func exportCalendar() throws -> AppointmentExportResult {
        try appointments.assignMissingUIDs()
        let all = try appointments.list()
        // One read of the contacts, not one per appointment (an export has a hundred thousand).
        let contacts = Dictionary(uniqueKeysWithValues: try database.contacts.all().map { ($0.id!, $0) })
        let linked = try all.map { a in try a.contactID.map { try contacts[$0] ?? database.contacts.contact(id: $0) } }
        return AppointmentExportResult(
            appointments: all, contactNames: linked.map { $0?.name }, contactPhones: linked.map { $0?.phone })
    }

    func exportICS(_ p: AppointmentExportICSParams) throws -> AppointmentExportICSResult {
        let defaultZone =
            try p.zone.map { name in
                guard let zone = TimeZone(identifier: name) else {
                    throw ValidationError(
                        field: "zone", template: "'%s' is not a time zone of the tz database (such as Europe/Warsaw)",
                        Validation.quotable(name))
                }
                return zone
            } ?? zone.current
        let exported = try exportCalendar()
        let events = CalendarEvent.exporting(
            exported.appointments, contactNames: exported.contactNames, contactPhones: exported.contactPhones)
        // DTSTAMP is when the file is written, in UTC (RFC 5545 §3.8.7.2).
        let text = ICalendar.serializedBytes(events, stamp: clock(), defaultZone: defaultZone)
        return AppointmentExportICSResult(ics: String(decoding: text, as: UTF8.self), count: events.count)
    }

    /// The appointments as they will be stored (contacts still unlinked) with the contacts they name, or
    /// the first one refused, named by its index in the whole import (`appointments[7012].title`).
    private func checkedImports(
        _ appointments: [Appointment], contactNames: [String?], contactPhones: [String?]?,
        firstIndex: Int
    ) throws -> (appointments: [Appointment], contacts: [Contact?]) {
        try AppointmentImportCheck.checked(
            appointments, contactNames: contactNames, contactPhones: contactPhones, firstIndex: firstIndex,
            tree: try categories.all().map { (name: $0.name, title: $0.title) },
            currency: settings.config.currency)
    }

    /// Writes everything in one transaction, linking (or creating) the contacts the appointments name.
    private func writeImport(_ appointments: [Appointment], contacts: [Contact?]) throws -> AppointmentImportResult {
        let counts = try self.appointments.importAll(appointments, contacts: contacts, now: clock(), zone: zone.current)
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
