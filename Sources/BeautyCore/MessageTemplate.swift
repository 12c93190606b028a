import BeautyLocalization
import Foundation

/// The three SMS templates (book, confirm, cancel a visit), filled with the visit's date,
/// time and salon, and an RFC 5724 `sms:` URI for the contact's phone. In Polish and Slovak the
/// date reads as people write it in a message: the weekday in the accusative after its preposition
/// ("w środę", "we wtorek"; "v stredu", "vo štvrtok") and the month in the genitive ("25 listopada
/// 2026", "25. novembra 2026"), then "o godz. 14:00" / "o 14:00".
public enum MessageTemplate: String, CaseIterable, Codable, Sendable {
    case book, confirm, cancel

    public func text(for appointment: Appointment, contact: Contact?, zone: TimeZone, localizer l: Localizer = .english)
        -> String
    {
        let when = Self.when(appointment, zone: zone, l)
        // Slovak greets a business without its name ("Dobrý deň, Salón Jana," reads as a vocative of a person).
        let greeting =
            contact.map { l.language == .slovak ? l.tr("Hello,") : l.tr("Hello %s,", $0.name) } ?? l.tr("Hello,")
        switch self {
        case .book:
            return l.tr(
                "%s I would like to book a visit (%s) %s. Could you let me know, please?", greeting, appointment.title,
                when)
        case .confirm:
            return l.tr("%s I want to confirm my visit (%s) %s.", greeting, appointment.title, when)
        case .cancel:
            return l.tr("%s I want to cancel my visit (%s) %s.", greeting, appointment.title, when)
        }
    }

    /// "on Tue 1 Dec 2026 at 14:00", "w piątek, 4 grudnia 2026 o godz. 14:00", "v piatok 4. decembra 2026 o 14:00".
    static func when(_ appointment: Appointment, zone: TimeZone, _ l: Localizer) -> String {
        let times = Timestamps(zone: zone, language: l.language)
        guard l.language != .english else {
            let day = times.day(appointment.start)
            return "on " + (appointment.allDay ? day : "\(day) at \(times.clock(appointment.start))")
        }
        let date = times.dayMonthYear(appointment.start)
        let onDay: String =
            switch LocalTime.calendar(zone).component(.weekday, from: appointment.start) {
            case 1: l.tr("on Sunday, %s", date)
            case 2: l.tr("on Monday, %s", date)
            case 3: l.tr("on Tuesday, %s", date)
            case 4: l.tr("on Wednesday, %s", date)
            case 5: l.tr("on Thursday, %s", date)
            case 6: l.tr("on Friday, %s", date)
            default: l.tr("on Saturday, %s", date)
            }
        return appointment.allDay ? onDay : l.tr("%s at %s", onDay, times.clock(appointment.start))
    }

    /// `sms:+48600100200?body=...` with the body percent-encoded (RFC 5724).
    public static func smsURI(phone: String, body: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let encoded = body.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        return "sms:\(Validation.dialable(phone))?body=\(encoded)"
    }
}
