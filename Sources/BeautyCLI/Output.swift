import BeautyCore
import BeautyLocalization
import BeautyProtocol
import Foundation

/// Text and JSON output of the commands.
enum Output {
    /// The user's language, from beautyctl's environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG).
    static let l = Localizer.current
    static let times = Timestamps(zone: .current, language: l.language)
    static let numbers = LocaleFormat(l.language)

    static func line(_ text: String = "") {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func warn(_ text: String) {
        FileHandle.standardError.write(Data((l.tr("warning: %s", text) + "\n").utf8))
    }

    /// Pretty, stable JSON (sorted keys, ISO 8601 instants).
    static func json<T: Encodable>(_ value: T) throws {
        let encoder = WireJSON.encoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        line(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// "Tue 1 Dec 2026, 14:00–15:00 (1h)" or "Tue 1 Dec 2026, all day".
    static func when(_ a: Appointment) -> String {
        if a.allDay {
            let days = max(1, a.durationSeconds / 86_400)
            return times.day(a.start) + (days > 1 ? ", all day (\(days) days)" : ", all day")
        }
        return "\(times.long(a.start))–\(times.clock(a.end)) (\(DurationParser.format(a.durationSeconds)))"
    }

    static func describe(_ detail: AppointmentDetail) {
        let a = detail.appointment
        line("Appointment \(a.id ?? 0): \(a.title)")
        line("  when:      \(when(a))")
        line("  status:    \(a.status.rawValue)")
        if let address = a.address { line("  address:   \(address)") }
        if let contact = detail.contact { line("  contact:   \(contact.displayName), \(contact.phone) (contact \(contact.id ?? 0))") }
        if let category = a.category { line("  category:  \(category)") }
        if let color = a.color { line("  colour:    \(color)") }
        if let price = a.price { line("  price:     \(price.formatted)") }
        if let zone = a.timeZone { line("  zone:      \(zone)") }
        if let recurrence = a.recurrence {
            line("  repeats:   \(recurrence.rule)" + (recurrence.exdates.isEmpty ? "" : " except \(recurrence.exdates.map(times.short).joined(separator: ", "))"))
        }
        if let every = a.repeatAfterDoneSeconds { line("  cycle:     every \(DurationParser.format(every)) after it is done") }
        if let series = a.seriesID, let original = a.recurrenceID {
            line("  series:    one occurrence of appointment \(series), changed (in the series: \(times.short(original)))")
        }
        for next in detail.nextOccurrences ?? [] { line("  next:      \(times.long(next))") }
        for changed in detail.changedOccurrences ?? [] {
            let moved = changed.recurrenceID.map { SeriesOccurrence.same($0, changed.start) } == false ? " → \(when(changed))" : ""
            line("  changed:   \(changed.recurrenceID.map(times.short) ?? "?")\(moved) — \(changed.status.rawValue) (appointment \(changed.id ?? 0))")
        }
        if let notes = a.notes {
            line("  notes:     " + notes.replacingOccurrences(of: "\n", with: "\n             "))
        }
        if a.reminders.isEmpty { line("  reminders: none") }
        for reminder in a.reminders.sorted(by: { $0.fireDate(forStart: a.start) < $1.fireDate(forStart: a.start) }) {
            let fireAt = reminder.fireDate(forStart: a.start)
            let key = Trigger.key(kind: .appointment, itemID: a.id ?? 0, occurrence: a.start, fireAt: fireAt)
            let unplanned = a.recurrence != nil && fireAt > Date() ? "to be planned nearer the time" : "not scheduled (time already passed)"
            let state = detail.deliveries.first { $0.trigger.key == key }?.state.rawValue
                ?? (a.status == .scheduled ? unplanned : "off (\(a.status.rawValue))")
            let label = reminder.beforeSeconds.map { "\(DurationParser.format($0)) before" } ?? "at"
            line("  reminder:  \(times.short(fireAt)) (\(label)) — \(state)")
        }
        for snooze in detail.deliveries where snooze.trigger.key.contains("/snooze/") {
            line("  snoozed:   \(times.short(snooze.trigger.fireAt)) — \(snooze.state.rawValue)")
        }
    }

    /// The daemon's warnings about what it just saved (nothing was refused).
    static func warnings(_ warnings: [String]?) {
        for text in warnings ?? [] { warn(text) }
    }

    /// Writes a file the user named (an SVG chart), replacing it whole; a missing directory or a refused
    /// write is a usage error naming the option.
    static func write(_ text: String, to path: String, option: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) || !isDirectory.boolValue {
            throw CLIFailure(.usage, "\(option): there is no directory \(directory)")
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CLIFailure(.usage, "\(option): cannot write \(path): \((error as NSError).localizedDescription)")
        }
    }

    /// The terminal's width: $COLUMNS (kept within 20...1000), else 80.
    static var columns: Int {
        ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init).map { min(max($0, 20), 1000) } ?? 80
    }

    /// RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled.
    static func csvField(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    static func csv(_ header: [String], _ rows: [[String]]) {
        line(header.joined(separator: ","))
        for row in rows { line(row.map(csvField).joined(separator: ",")) }
    }

    /// An instant as CSV and JSON write it ("" for none).
    static func iso(_ date: Date?) -> String { date.map(WireJSON.formatInstant) ?? "" }

    /// Left-aligned columns, padded by character count.
    static func table(_ header: [String], _ rows: [[String]]) {
        var widths = header.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        func render(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                i == cells.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        line(render(header))
        rows.forEach { line(render($0)) }
    }
}
