import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation

/// What appointment.show answers, and every appointment request after its change: the appointment
/// with its contact, deliveries, next occurrences, warnings and changed occurrences.
struct AppointmentDetails: Sendable {
    let appointments: AppointmentStore
    let occurrences: OccurrenceStore
    /// The contact and the deliveries, which other areas keep, and the all-day reminder time.
    let database: AppDatabase
    let clock: @Sendable () -> Date
    let zone: any ZoneSource

    /// `warningsIn`: after an add or an edit, the reminders' warnings written in this zone.
    func detail(_ id: Int64, warningsIn zone: TimeZone? = nil) throws -> AppointmentDetail {
        let a = try appointments.get(id: id)
        let contact = a.contactID.flatMap { try? database.contacts.contact(id: $0) }
        let next =
            a.recurrence == nil
            ? nil
            : AppointmentOccurrences.starts(of: a, from: clock(), to: .distantFuture, zone: self.zone.current, limit: 5)
        let deliveries = try database.deliveries.of(itemKind: .appointment, itemID: id, now: clock())
        let allDayTime = database.allDayReminderTime
        let warnings =
            zone.map {
                AppointmentDraft.warnings(
                    for: a, deliveries: deliveries, zone: $0, now: clock(), allDayTime: allDayTime)
            } ?? []
        let changed = a.recurrence == nil ? [] : try occurrences.changed(ofSeries: id)
        var result = AppointmentDetail(
            appointment: a, contact: contact, deliveries: deliveries, nextOccurrences: next,
            warnings: warnings.isEmpty ? nil : warnings, changedOccurrences: changed.isEmpty ? nil : changed)
        if a.allDay { result.allDayReminderTime = allDayTime }
        return result
    }
}
