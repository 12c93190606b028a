import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// One occurrence of a series (`occurrence` on appointment.edit, .done, .cancel, .rm) and
/// appointment.split ("this and following"); AppointmentController routes them here.
struct OccurrenceController: Sendable {
    let occurrences: OccurrenceStore
    let details: AppointmentDetails
    let scheduler: Scheduler
    let settings: SettingsBox
    let logger: Logger
    let clock: @Sendable () -> Date
    /// The user's zone: plans made at an edit, the occurrence's local time in messages.
    let zone: any ZoneSource

    /// Edits one occurrence: the answer is the occurrence's own appointment.
    func edit(_ p: AppointmentEditParams) throws -> AppointmentDetail {
        guard let occurrence = p.occurrence else { throw ValidationError(field: "occurrence", template: "is required") }
        if p.recurrence != nil || p.everySeconds != nil || p.repeatAfterDoneSeconds != nil || p.exdates != nil
            || p.clear?.contains(where: { $0 == .recurrence || $0 == .cycle }) == true
        {
            throw ValidationError(
                field: "occurrence",
                template:
                    "one occurrence does not repeat: to change the rule from this occurrence on, use appointment.split (beautyctl appointment split %s --occurrence ...)",
                p.id)
        }
        let zone = self.zone.current
        let currency = settings.config.currency
        let saved = try occurrences.change(seriesID: p.id, occurrence: occurrence, now: clock(), zone: zone) { a in
            a = try AppointmentDraft.editing(
                a, to: AppointmentEdit.edited(a, p, currency: currency), durationGiven: p.durationSeconds != nil,
                placesStart: p.start != nil || p.allDay != nil
            ).resolved(zone: zone)
        }
        logger.info(
            "occurrence \(Timestamps().short(occurrence)) of series \(p.id) changed",
            metadata: ["item_id": "\(saved.id ?? 0)"])
        scheduler.wake(.edited)
        return try details.detail(saved.id!, warningsIn: zone)
    }

    /// Removes one occurrence (an EXDATE of the series): the answer is the series as it is now.
    func remove(_ p: AppointmentOccurrenceParams) throws -> AppointmentDetail {
        let series = try occurrences.remove(id: p.id, occurrence: p.occurrence, now: clock(), zone: zone.current)
        scheduler.wake(.edited)
        return try details.detail(series.id!)
    }

    /// Marks one occurrence done or cancelled; the caller wakes the scheduler and answers.
    func setStatus(seriesID: Int64, occurrence: Date, _ status: Appointment.Status) throws -> StatusChange {
        try occurrences.setStatus(seriesID: seriesID, occurrence: occurrence, status, now: clock(), zone: zone.current)
    }

    func split(_ p: AppointmentEditParams) throws -> AppointmentDetail {
        guard let occurrence = p.occurrence else {
            throw ValidationError(
                field: "occurrence",
                template: "is required: the first occurrence of the new series (its start in the series)")
        }
        let zone = self.zone.current
        let currency = settings.config.currency
        let series = AppointmentDraft.Series(
            recurrence: p.recurrence, everySeconds: p.everySeconds,
            repeatAfterDoneSeconds: p.repeatAfterDoneSeconds, exdates: p.exdates ?? [])
        let saved = try occurrences.split(id: p.id, at: occurrence, now: clock(), zone: zone) { a in
            a = try AppointmentDraft.editing(
                a, to: AppointmentEdit.pinned(a, p, zone: zone, currency: currency),
                durationGiven: p.durationSeconds != nil, series: series,
                placesStart: p.start != nil || p.allDay != nil
            ).resolved(zone: zone)
        }
        logger.info(
            "series \(p.id) split at \(Timestamps().short(occurrence))", metadata: ["item_id": "\(saved.id ?? 0)"])
        scheduler.wake(.edited)
        return try details.detail(saved.id!, warningsIn: zone)
    }
}
