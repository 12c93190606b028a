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

    /// Where the commands write while one runs: standard output and error, or what a test captures.
    @TaskLocal static var sink = OutputSink.standard

    /// Bytes for standard output.
    static func write(_ data: Data) { sink.output(data) }

    /// Bytes for standard error (warnings, questions, progress, failures).
    static func writeError(_ data: Data) { sink.error(data) }

    static func line(_ text: String = "") {
        write(Data((text + "\n").utf8))
    }

    static func warn(_ text: String) {
        writeError(Data((l.tr("warning: %s", text) + "\n").utf8))
    }

    /// Pretty, stable JSON (sorted keys, ISO 8601 instants).
    static func json<T: Encodable>(_ value: T) throws {
        let encoder = WireJSON.encoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        line(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// A result as the daemon wrote it, laid out as `json` lays out the same value.
    static func json(wire: [UInt8]) {
        var text = WireJSON.prettyPrinted(wire)
        text.append(UInt8(ascii: "\n"))
        write(Data(text))
    }

    /// A calendar day in a sentence: "2026-12-01" in English (as typed), "01.12.2026" in Polish and Slovak.
    static func day(_ day: LocalDate) -> String {
        l.language == .english ? day.description : String(format: "%02d.%02d.%04d", day.day, day.month, day.year)
    }

    /// "Tue 1 Dec 2026, 14:00–15:00 (1h)" or "Tue 1 Dec 2026, all day".
    static func when(_ a: Appointment) -> String {
        if a.allDay {
            let days = max(1, a.durationSeconds / 86_400)
            return days > 1
                ? Output.l.trn("%s, all day (%s day)", "%s, all day (%s days)", days, times.day(a.start), days)
                : Output.l.tr("%s, all day", times.day(a.start))
        }
        return "\(times.long(a.start))–\(times.clock(a.end)) (\(DurationParser.format(a.durationSeconds, l)))"
    }

    static func describe(_ detail: AppointmentDetail) {
        let a = detail.appointment
        Output.line(Output.l.tr("Appointment %s: %s", a.id ?? 0, a.title))
        Output.line(Output.l.tr("  when:      %s", when(a)))
        Output.line(Output.l.tr("  status:    %s", StatusName.appointment(a, Output.l)))
        if let address = a.address { Output.line(Output.l.tr("  address:   %s", address)) }
        if let contact = detail.contact {
            Output.line(
                Output.l.tr("  contact:   %s, %s (contact %s)", contact.displayName, contact.phone, contact.id ?? 0))
        }
        if let category = a.category {
            let title = l.language == .english ? category : CategoryTitle.title(name: category, stored: category, l)
            Output.line(Output.l.tr("  category:  %s", title == category ? category : "\(title) (\(category))"))
        }
        if let color = a.color {
            Output.line(Output.l.tr("  colour:    %s", TerminalColor(rawValue: color)?.title(l) ?? color))
        }
        if let price = a.price { Output.line(Output.l.tr("  price:     %s", price.formatted(Output.l.language))) }
        if let zone = a.timeZone { Output.line(Output.l.tr("  zone:      %s", zone)) }
        if let recurrence = a.recurrence {
            let words = (try? RecurrenceRule.parse(recurrence.rule))?.words(Output.l, start: a.start, times: times)
            Output.line(
                Output.l.tr("  repeats:   %s", words ?? recurrence.rule)
                    + (recurrence.exdates.isEmpty
                        ? "" : Output.l.tr(" except %s", recurrence.exdates.map(times.short).joined(separator: ", "))))
        }
        if let every = a.repeatAfterDoneSeconds {
            Output.line(Output.l.tr("  cycle:     every %s after it is done", DurationParser.format(every, Output.l)))
        }
        if let series = a.seriesID, let original = a.recurrenceID {
            Output.line(
                Output.l.tr(
                    "  series:    one occurrence of appointment %s, changed (in the series: %s)", series,
                    times.short(original)))
        }
        for next in detail.nextOccurrences ?? [] { Output.line(Output.l.tr("  next:      %s", times.long(next))) }
        for changed in detail.changedOccurrences ?? [] {
            let moved =
                changed.recurrenceID.map { SeriesOccurrence.same($0, changed.start) } == false
                ? " → \(when(changed))" : ""
            Output.line(
                Output.l.tr(
                    "  changed:   %s%s — %s (appointment %s)", changed.recurrenceID.map(times.short) ?? "?", moved,
                    StatusName.appointment(changed.status.rawValue, Output.l), changed.id ?? 0))
        }
        if let notes = a.notes {
            Output.line(Output.l.tr("  notes:     %s", notes.replacingOccurrences(of: "\n", with: "\n             ")))
        }
        if a.reminders.isEmpty { Output.line(Output.l.tr("  reminders: none")) }
        // A series' reminders are those of its next occurrence: the first one's are long gone.
        let occurrence = a.recurrence == nil ? a.start : detail.nextOccurrences?.first ?? a.start
        let allDay = AllDayReminders(time: detail.allDayReminderTime ?? AllDayReminders.defaultTime, zone: .current)
        func fireDate(_ reminder: Reminder) -> Date { allDay.fireDate(reminder, of: a, start: occurrence) }
        for reminder in a.reminders.sorted(by: { fireDate($0) < fireDate($1) }) {
            let fireAt = fireDate(reminder)
            let key = Trigger.key(kind: .appointment, itemID: a.id ?? 0, occurrence: occurrence, fireAt: fireAt)
            let unplanned =
                a.recurrence != nil && fireAt > Date()
                ? Output.l.tr("to be planned nearer the time") : Output.l.tr("not scheduled (time already passed)")
            let state =
                detail.deliveries.first { $0.trigger.key == key }.map { StatusName.reminder($0.state.rawValue, l) }
                ?? (a.status == .scheduled
                    ? unplanned : Output.l.tr("off (%s)", StatusName.appointment(a.status.rawValue, Output.l)))
            let label =
                reminder.beforeSeconds.map { Output.l.tr("%s before", DurationParser.format($0, Output.l)) }
                ?? Output.l.tr("at")
            Output.line(Output.l.tr("  reminder:  %s (%s) — %s", times.short(fireAt), label, state))
        }
        for snooze in detail.deliveries where snooze.trigger.key.contains("/snooze/") {
            Output.line(
                Output.l.tr(
                    "  snoozed:   %s — %s", times.short(snooze.trigger.fireAt),
                    StatusName.reminder(snooze.state.rawValue, l)))
        }
    }

    /// The daemon's warnings about what it just saved (nothing was refused); in another language
    /// than English, the same warnings worked out here from the saved appointment, in that language.
    static func warnings(_ detail: AppointmentDetail) {
        let texts =
            l.language == .english || detail.warnings?.isEmpty != false
            ? detail.warnings ?? []
            : AppointmentDraft.warnings(
                for: detail.appointment, deliveries: detail.deliveries, zone: .current, now: Date(),
                allDayTime: detail.allDayReminderTime ?? AllDayReminders.defaultTime, localizer: l)
        for text in texts { warn(text) }
    }

    /// Writes a file the user named (an SVG chart), replacing it whole; a missing directory or a refused
    /// write is a usage error naming the option.
    static func write(_ text: String, to path: String, option: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        if !directory.isEmpty,
            !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) || !isDirectory.boolValue
        {
            throw CLIFailure(.usage, Output.l.tr("%s: there is no directory %s", option, directory))
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CLIFailure(
                .usage, Output.l.tr("%s: cannot write %s: %s", option, path, SystemErrorText.text(of: error, Output.l)))
        }
    }

    /// The terminal's width: $COLUMNS (kept within 20...1000), else 80.
    static var columns: Int {
        ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init).map { min(max($0, 20), 1000) } ?? 80
    }

    /// RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. A field a
    /// spreadsheet would run as a formula (OWASP "CSV injection": it starts with = + - @, a tab or a
    /// CR) gets a leading `'`, which makes it text; a plain number ("-12.99") is left as it is.
    static func csvField(_ text: String) -> String {
        let inert = isFormulaLike(text) ? "'" + text : text
        return inert.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline })
            ? "\"" + inert.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : inert
    }

    static func isFormulaLike(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return false }
        return text.wholeMatch(of: /-?[0-9]+(\.[0-9]+)?/) == nil
    }

    static func csv(_ header: [String], _ rows: [[String]]) {
        line(header.joined(separator: ","))
        for row in rows { line(row.map(csvField).joined(separator: ",")) }
    }

    /// An instant as CSV and JSON write it ("" for none).
    static func iso(_ date: Date?) -> String { date.map(WireJSON.formatInstant) ?? "" }

    /// An instant in a text (not CSV or JSON) report: ISO 8601 in English, "25.11.2026 14:00" (local) in another language.
    static func instant(_ date: Date) -> String { l.language == .english ? iso(date) : times.short(date) }

    /// Left-aligned columns, padded by character count.
    static func table(_ header: [String], _ rows: [[String]]) {
        var widths = header.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        func render(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                // Spaces appended, never a cut: padding(toLength:) counts UTF-16 units and would cut a
                // CRLF (one Character) in half, leaving a lone CR that lets the rest overwrite the line.
                i == cells.count - 1 ? cell : cell + String(repeating: " ", count: max(0, widths[i] - cell.count))
            }.joined(separator: "  ")
        }
        line(render(header))
        rows.forEach { line(render($0)) }
    }
}

/// Where a command's output goes: the process's standard output and error by default.
struct OutputSink: Sendable {
    var output: @Sendable (Data) -> Void
    var error: @Sendable (Data) -> Void

    static let standard = OutputSink(
        output: { FileHandle.standardOutput.write($0) }, error: { FileHandle.standardError.write($0) })
}
