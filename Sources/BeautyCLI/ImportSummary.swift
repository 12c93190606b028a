import BeautyCore
import BeautyLocalization
import Foundation

/// A warning of an import, named by file and line as compilers do (`FILE:LINE: message`). `--json`
/// gives its `message` in English whatever the language, with its template (`text`, `args`) as the
/// daemon's errors carry theirs (`argTexts` for an argument that is a message of its own).
struct LocatedWarning: Encodable {
    var file: String
    var line: Int
    var message: String
    var text: String
    var args: [String]
    var argTexts: [TranslatableText?]?

    init(file: String, line: Int, _ translatable: TranslatableText) {
        self.file = file
        self.line = line
        message = translatable.english
        text = translatable.text
        args = translatable.args
        argTexts = translatable.argTexts
    }

    init(file: String, _ warning: ImportWarning) {
        self.init(file: file, line: warning.line, warning.text)
    }

    func shown(_ l: Localizer) -> String {
        "\(file):\(line): \(Validation.quotable(TranslatableText(text, args, argTexts: argTexts).rendered(l)))"
    }
}

/// An event of the file that was not imported, as a warning is reported, with its UID and SUMMARY.
struct LocatedSkippedEvent: Encodable {
    var uid: String?
    var summary: String?
    var located: LocatedWarning

    init(file: String, _ event: SkippedEvent) {
        uid = event.uid
        summary = event.summary
        located = LocatedWarning(file: file, line: event.line, event.text)
    }

    private enum CodingKeys: String, CodingKey { case uid, summary }

    func encode(to encoder: Encoder) throws {
        try located.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(uid, forKey: .uid)
        try container.encodeIfPresent(summary, forKey: .summary)
    }
}

/// What `beautyctl import` and `contact import` report: the daemon's counts, what was approximated,
/// and what was not imported. `--json` prints this object.
struct ImportSummary: Encodable {
    var inserted: Int
    var updated: Int
    var unchanged: Int
    var contactsCreated: Int?
    var warnings: [LocatedWarning]
    /// Components that are not appointments (VTODO, VJOURNAL...), by kind, with the line of the first.
    var notImported: [SkippedComponents.Kind]
    /// Events that cannot be placed in time (no DTSTART), in file order.
    var skippedEvents: [LocatedSkippedEvent]?

    init(
        inserted: Int, updated: Int, unchanged: Int, contactsCreated: Int? = nil,
        file: String, warnings: [ImportWarning], skipped: SkippedComponents = SkippedComponents(),
        skippedEvents: [SkippedEvent]? = nil
    ) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.contactsCreated = contactsCreated
        self.warnings = warnings.sorted { $0.line < $1.line }.map { LocatedWarning(file: file, $0) }
        self.notImported = skipped.kinds
        self.skippedEvents = skippedEvents?.map { LocatedSkippedEvent(file: file, $0) }
    }

    /// `counts` such as "Imported 3 new, 0 updated, 1 unchanged appointment(s) from a.ics.", then
    /// what was created, left out and approximated.
    func print(_ counts: String) {
        Output.line(counts)
        if let created = contactsCreated {
            Output.line(
                Output.l.trn(
                    "Created %s contact(s) named in the file, with their phone numbers.",
                    "Created %s contact(s) named in the file, with their phone numbers.", created))
        }
        if !notImported.isEmpty {
            let kinds = notImported.map { Output.l.tr("%s %s (first at line %s)", $0.count, $0.name, $0.firstLine) }
                .joined(separator: ", ")
            Output.line(Output.l.tr("Not imported: %s; beautyd keeps appointments only.", kinds))
        }
        if let skippedEvents, !skippedEvents.isEmpty {
            Output.line(Output.l.trn("%s event not imported:", "%s events not imported:", skippedEvents.count))
            for event in skippedEvents { Output.line("  \(event.located.shown(Output.l))") }
        }
        guard !warnings.isEmpty else { return }
        Output.line(
            Output.l.trn(
                "%s warning(s): imported with a change or left out:",
                "%s warning(s): imported with a change or left out:", warnings.count))
        for warning in warnings { Output.line("  \(warning.shown(Output.l))") }
    }

    /// A daemon refusal naming `prefix[N].field` as the file and line of item N (the line of its
    /// BEGIN), e.g. `a.ics:671: title: must not be empty`; other failures unchanged.
    static func located(_ failure: CLIFailure, prefix: String, file: String, lines: [Int?]) -> CLIFailure {
        let message = failure.message
        guard message.hasPrefix(prefix + "["), let close = message.firstIndex(of: "]"),
            let index = Int(message[message.index(message.startIndex, offsetBy: prefix.count + 1)..<close]),
            lines.indices.contains(index), let line = lines[index]
        else { return failure }
        var rest = message[message.index(after: close)...]
        if rest.hasPrefix(".") { rest = rest.dropFirst() }
        return nothingImported(failure.code, file: file, line: line, String(rest))
    }

    /// Why one item of a file cannot be sent: its request alone is longer than the daemon reads.
    static func tooLargeToSend(_ bytes: Int) -> String {
        Output.l.tr(
            "this item is too large to send to beautyd (%s bytes, at most %s in one request): shorten its text",
            bytes, StagedImport.daemonLineLimit)
    }

    /// `a.ics:12: problem (nothing was imported)`: an import refused whole for one line of its file.
    static func nothingImported(_ code: CLIFailure.Code = .usage, file: String, line: Int, _ problem: String)
        -> CLIFailure
    {
        CLIFailure(code, Output.l.tr("%s:%s: %s (nothing was imported)", file, line, problem))
    }
}
