import Foundation

/// The three SMS templates (book, confirm, cancel a visit), filled with the visit's date,
/// time and salon, and an RFC 5724 `sms:` URI for the contact's phone.
public enum MessageTemplate: String, CaseIterable, Codable, Sendable {
    case book, confirm, cancel

    public func text(for appointment: Appointment, contact: Contact?, zone: TimeZone) -> String {
        let times = Timestamps(zone: zone)
        let when = appointment.allDay ? times.day(appointment.start) : "\(times.day(appointment.start)) at \(times.clock(appointment.start))"
        let greeting = contact.map { "Hello \($0.name)," } ?? "Hello,"
        switch self {
        case .book:
            return "\(greeting) I would like to book a visit (\(appointment.title)) on \(when). Could you let me know, please?"
        case .confirm:
            return "\(greeting) I want to confirm my visit (\(appointment.title)) on \(when)."
        case .cancel:
            return "\(greeting) I want to cancel my visit (\(appointment.title)) on \(when)."
        }
    }

    /// `sms:+48600100200?body=...` with the body percent-encoded (RFC 5724).
    public static func smsURI(phone: String, body: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let encoded = body.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        return "sms:\(Validation.dialable(phone))?body=\(encoded)"
    }
}
