import BeautyLocalization
import Foundation

/// Summary and body of a desktop notification.
public struct NotificationText: Sendable, Equatable {
    public var summary: String
    public var body: String

    public init(summary: String, body: String) {
        self.summary = summary
        self.body = body
    }

    /// How much of an appointment's notes a reminder shows: a popup has room for a few short lines.
    public static let noteLines = 3
    public static let noteLineLength = 100

    /// The first `noteLines` non-empty lines of `notes`, each cut to `noteLineLength` characters, and
    /// "…" when something was left out; empty for no notes.
    public static func notesPreview(_ notes: String?) -> [String] {
        let lines = (notes ?? "").split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        var shown = lines.prefix(noteLines).map { $0.count > noteLineLength ? $0.prefix(noteLineLength - 1) + "…" : $0 }
        if lines.count > noteLines { shown[shown.count - 1] += " …" }
        return shown
    }

    /// Summary = title; body = local date and time, duration, address, contact and the first lines of the notes.
    /// The body is plain text: the notifier escapes it for servers that read markup.
    /// `occurrence`: the start of the occurrence announced, for a series (its first one otherwise).
    public static func appointment(
        _ appointment: Appointment, contact: Contact?, zone: TimeZone, occurrence: Date? = nil,
        localizer l: Localizer = .english
    ) -> NotificationText {
        let times = Timestamps(zone: zone, language: l.language)
        var appointment = appointment
        if let occurrence { appointment.start = occurrence }
        var lines: [String] = []
        if appointment.allDay {
            lines.append(l.tr("%s, all day", times.fullDay(appointment.start)))
        } else {
            lines.append(
                "\(times.long(appointment.start))–\(times.clock(appointment.end)) (\(DurationParser.format(appointment.durationSeconds, l)))"
            )
        }
        if let address = appointment.address { lines.append(address) }
        if let contact { lines.append("\(contact.displayName), \(contact.phone)") }
        lines += notesPreview(appointment.notes)
        return NotificationText(summary: appointment.title, body: lines.joined(separator: "\n"))
    }

    /// One notification for several reminders missed while the daemon was down or asleep. `answers`,
    /// parallel to `items`, gives the command that answers one (a dose's `beautyctl dose taken 12`):
    /// the group has no buttons, so each dose in it says how to answer it.
    public static func missedWhileAway(
        _ items: [(title: String, occurrence: Date)], answers: [String?] = [],
        zone: TimeZone, localizer l: Localizer = .english
    ) -> NotificationText {
        let times = Timestamps(zone: zone, language: l.language)
        let lines = items.enumerated().map { index, item in
            let answer = index < answers.count ? answers[index].map { ": \($0)" } ?? "" : ""
            return "• \(item.title) — \(times.long(item.occurrence))\(answer)"
        }
        return NotificationText(
            summary: l.trn("%s reminder missed while away", "%s reminders missed while away", items.count),
            body: lines.joined(separator: "\n"))
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
