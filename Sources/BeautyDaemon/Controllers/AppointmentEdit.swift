import BeautyCore
import BeautyProtocol
import Foundation

/// An appointment.edit's changes applied to the stored appointment (a whole one, or one occurrence).
enum AppointmentEdit {
    /// The stored appointment with the request's changes, pinned to `zone` when the change places a floating one's start.
    static func pinned(_ stored: Appointment, _ p: AppointmentEditParams, zone: TimeZone, currency: String)
        -> Appointment
    {
        AppointmentZonePin.pinned(
            edited(stored, p, currency: currency), placesStart: p.start != nil || p.allDay != nil,
            clearsZone: p.clear?.contains(.timeZone) == true, zone: zone)
    }

    /// `currency`: a price's when the request gives none.
    static func edited(_ stored: Appointment, _ p: AppointmentEditParams, currency: String) -> Appointment {
        var a = stored
        for field in p.clear ?? [] {
            switch field {
            case .address: a.address = nil
            case .notes: a.notes = nil
            case .contact: a.contactID = nil
            case .category: a.category = nil
            case .color: a.color = nil
            case .price: a.price = nil
            case .reminders: a.reminders = []
            case .timeZone: a.timeZone = nil
            case .recurrence: a.recurrence = nil
            case .cycle: a.repeatAfterDoneSeconds = nil
            }
        }
        if let v = p.title { a.title = v }
        if let v = p.start { a.start = v }
        if let v = p.durationSeconds { a.durationSeconds = v }
        if let v = p.allDay { a.allDay = v }
        if let v = p.address { a.address = v }
        if let v = p.notes { a.notes = v }
        if let v = p.contactID { a.contactID = v }
        if let v = p.category { a.category = v }
        if let v = p.color { a.color = v }
        if let v = p.price { a.price = Money(cents: v.cents, currency: v.currency ?? currency) }
        if let v = p.reminders { a.reminders = v }
        if let v = p.timeZone { a.timeZone = v }
        if let v = p.recurrence { a.recurrence = v }
        if let v = p.repeatAfterDoneSeconds { a.repeatAfterDoneSeconds = v }
        return a
    }
}
