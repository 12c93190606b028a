import Foundation

/// Summary and body of a desktop notification.
public struct NotificationText: Sendable, Equatable {
    public var summary: String
    public var body: String

    public init(summary: String, body: String) {
        self.summary = summary
        self.body = body
    }

    /// Summary = title; body = local date and time, duration, address and contact.
    public static func appointment(_ appointment: Appointment, contact: Contact?, zone: TimeZone) -> NotificationText {
        let times = Timestamps(zone: zone)
        var lines: [String] = []
        if appointment.allDay {
            lines.append("\(times.day(appointment.start)), all day")
        } else {
            lines.append("\(times.long(appointment.start))–\(times.clock(appointment.end)) (\(DurationParser.format(appointment.durationSeconds)))")
        }
        if let address = appointment.address { lines.append(address) }
        if let contact { lines.append("\(contact.displayName), \(contact.phone)") }
        return NotificationText(summary: appointment.title, body: lines.joined(separator: "\n"))
    }

    /// One notification for several reminders missed while the daemon was down or asleep. `answers`,
    /// parallel to `items`, gives the command that answers one (a dose's `beautyctl dose taken 12`):
    /// the group has no buttons, so each dose in it says how to answer it.
    public static func missedWhileAway(_ items: [(title: String, occurrence: Date)], answers: [String?] = [],
                                       zone: TimeZone) -> NotificationText {
        let times = Timestamps(zone: zone)
        let lines = items.enumerated().map { index, item in
            let answer = index < answers.count ? answers[index].map { ": \($0)" } ?? "" : ""
            return "• \(item.title) — \(times.long(item.occurrence))\(answer)"
        }
        return NotificationText(summary: "\(items.count) reminders missed while away", body: lines.joined(separator: "\n"))
    }

    /// What answers a dose from a terminal; every dose notification's body ends with it.
    public static func doseCommand(_ doseID: Int64) -> String { "beautyctl dose taken \(doseID)" }

    /// The body text without markup a server might interpret: libnotify bodies may carry a subset of HTML.
    public var escapedBody: String { Self.escapeMarkup(body) }

    /// `&`, `<` and `>` as entities, so a server with `body-markup` shows the text as typed.
    public static func escapeMarkup(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
