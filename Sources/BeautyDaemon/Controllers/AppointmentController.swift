import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// appointment.*: add, edit, show, list, rm, done/cancel (status changes), split; one occurrence's
/// edit, rm, done and cancel go through OccurrenceController.
struct AppointmentController: RequestController {
    let appointments: AppointmentStore
    let occurrences: OccurrenceController
    let details: AppointmentDetails
    /// The contact and category a request names as the user typed them.
    let references: AppointmentReferences
    let scheduler: Scheduler
    let settings: SettingsBox
    let logger: Logger
    let clock: @Sendable () -> Date
    /// The user's zone: plans made at an add or an edit, local-time texts.
    let zone: any ZoneSource

    func addRoutes(to router: inout RequestRouter) {
        router.register(AppointmentRPC.add) { try add(references.resolved($0)) }
        router.register(AppointmentRPC.list, list)
        router.register(AppointmentRPC.show) { try details.detail($0.id) }
        router.register(AppointmentRPC.edit) { typed in
            let p = try references.resolved(typed)
            return try p.occurrence == nil ? edit(p) : occurrences.edit(p)
        }
        router.register(AppointmentRPC.remove, remove)
        router.register(AppointmentRPC.done) { try setStatus($0, .done) }
        router.register(AppointmentRPC.cancel) { try setStatus($0, .cancelled) }
        router.register(AppointmentRPC.split) { try occurrences.split(references.resolved($0)) }
    }

    func list(_ p: AppointmentListParams) throws -> [Appointment] {
        try ListSort.sorted(
            try appointments.list(from: p.from, to: p.to, statuses: p.status.map(Set.init)),
            sort: p.sort, reverse: p.reverse, supported: ListSortKey.allCases
        ) { a, key in
            SortValue(key, title: a.title, time: a.start, category: a.category, price: a.price)
        }
    }

    func remove(_ p: AppointmentOccurrenceParams) throws -> AppointmentDetail {
        if p.occurrence != nil { return try occurrences.remove(p) }
        let gone = try details.detail(p.id)
        try appointments.delete(id: p.id, now: clock(), zone: zone.current)
        scheduler.wake(.edited)
        return gone
    }

    func add(_ p: AppointmentAddParams) throws -> AppointmentDetail {
        let config = settings.config
        let zone = self.zone.current
        let reminders = p.reminders ?? config.defaultReminderSeconds.map(Reminder.before)
        let asked = Appointment(
            title: p.title, start: p.start, allDay: p.allDay ?? false, address: p.address, notes: p.notes,
            contactID: p.contactID, category: p.category, color: p.color,
            price: p.price.map { Money(cents: $0.cents, currency: $0.currency ?? config.currency) },
            reminders: reminders, timeZone: p.timeZone, recurrence: p.recurrence,
            repeatAfterDoneSeconds: p.repeatAfterDoneSeconds)
        let appointment = try AppointmentDraft.adding(
            asked, durationSeconds: p.durationSeconds, defaultDurationSeconds: config.defaultDurationSeconds,
            series: .init(
                recurrence: p.recurrence, everySeconds: p.everySeconds,
                repeatAfterDoneSeconds: p.repeatAfterDoneSeconds,
                exdates: p.exdates ?? [], startWall: p.startWall)
        ).resolved(zone: zone)
        let saved = try appointments.add(appointment, now: clock(), zone: zone)
        logger.info("appointment added: \(saved.title)", metadata: ["item_id": "\(saved.id ?? 0)"])
        scheduler.wake(.edited)
        return try details.detail(saved.id!, warningsIn: zone)
    }

    func edit(_ p: AppointmentEditParams) throws -> AppointmentDetail {
        let zone = self.zone.current
        let currency = settings.config.currency
        let series = AppointmentDraft.Series(
            recurrence: p.recurrence, everySeconds: p.everySeconds,
            repeatAfterDoneSeconds: p.repeatAfterDoneSeconds, exdates: p.exdates ?? [],
            startWall: p.startWall)
        let saved = try appointments.update(id: p.id, now: clock(), zone: zone) { a in
            a = try AppointmentDraft.editing(
                a, to: AppointmentEdit.pinned(a, p, zone: zone, currency: currency),
                durationGiven: p.durationSeconds != nil, series: series,
                placesStart: p.start != nil || p.allDay != nil
            ).resolved(zone: zone)
        }
        scheduler.wake(.edited)
        return try details.detail(saved.id!, warningsIn: zone)
    }

    func setStatus(_ p: AppointmentOccurrenceParams, _ status: Appointment.Status) throws -> AppointmentDetail {
        let change =
            try p.occurrence.map { try occurrences.setStatus(seriesID: p.id, occurrence: $0, status) }
            ?? appointments.setStatus(id: p.id, status, now: clock(), zone: zone.current)
        let id = change.appointment.id ?? p.id
        if let followUp = change.followUp {
            logger.info(
                "next visit of the cycle scheduled for \(Timestamps().short(followUp.start))",
                metadata: ["item_id": "\(followUp.id ?? 0)"])
        }
        if let row = change.expense {
            logger.info(
                "expense recorded for a done appointment: \(Money(cents: row.amountCents, currency: row.currency).formatted)",
                metadata: ["item_id": "\(id)", "budget_entry": "\(row.id ?? 0)"])
        }
        scheduler.wake(.edited)
        var result = try details.detail(id)
        result.followUp = change.followUp
        return result
    }
}
