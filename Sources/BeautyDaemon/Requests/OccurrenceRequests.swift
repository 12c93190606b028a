import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation

/// One occurrence of a series (`occurrence` on appointment.edit, .done, .cancel, .rm) and
/// appointment.split ("this and following").
extension UnsplitRequests {
    static func occurrenceRoutes(_ router: inout UnsplitRoutes) {
        router.register(AppointmentRPC.split) { try $0.splitSeries($1) }
    }

    /// Edits one occurrence: the answer is the occurrence's own appointment.
    func editOccurrence(_ p: AppointmentEditParams) throws -> AppointmentDetail {
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
        let saved = try store.changeOccurrence(seriesID: p.id, occurrence: occurrence, now: clock(), zone: zone) { a in
            a = try AppointmentDraft.editing(
                a, to: edited(a, p), durationGiven: p.durationSeconds != nil,
                placesStart: p.start != nil || p.allDay != nil
            ).resolved(zone: zone)
        }
        logger.info(
            "occurrence \(Timestamps().short(occurrence)) of series \(p.id) changed",
            metadata: ["item_id": "\(saved.id ?? 0)"])
        scheduler.wake(.edited)
        return try detail(saved.id!, warningsIn: zone)
    }

    /// Removes one occurrence (an EXDATE of the series): the answer is the series as it is now.
    func removeOccurrence(_ p: AppointmentOccurrenceParams) throws -> AppointmentDetail {
        let series = try store.removeOccurrence(id: p.id, occurrence: p.occurrence, now: clock(), zone: zone.current)
        scheduler.wake(.edited)
        return try detail(series.id!)
    }

    private func splitSeries(_ p: AppointmentEditParams) throws -> AppointmentDetail {
        guard let occurrence = p.occurrence else {
            throw ValidationError(
                field: "occurrence",
                template: "is required: the first occurrence of the new series (its start in the series)")
        }
        let zone = self.zone.current
        let series = AppointmentDraft.Series(
            recurrence: p.recurrence, everySeconds: p.everySeconds,
            repeatAfterDoneSeconds: p.repeatAfterDoneSeconds, exdates: p.exdates ?? [])
        let saved = try store.splitSeries(id: p.id, at: occurrence, now: clock(), zone: zone) { a in
            a = try AppointmentDraft.editing(
                a, to: pinnedEdit(a, p, zone: zone), durationGiven: p.durationSeconds != nil, series: series,
                placesStart: p.start != nil || p.allDay != nil
            ).resolved(zone: zone)
        }
        logger.info(
            "series \(p.id) split at \(Timestamps().short(occurrence))", metadata: ["item_id": "\(saved.id ?? 0)"])
        scheduler.wake(.edited)
        return try detail(saved.id!, warningsIn: zone)
    }
}
