import BeautyCore
import BeautyLocalization
import Foundation

/// A warning of an import, named by file and line as compilers do (`FILE:LINE: message`). `--json`
/// gives its `message` in English whatever the language, with its template (`text`, `args`) as the
/// daemon's errors carry theirs.
struct LocatedWarning: Encodable {
    var file: String
    var line: Int
    var message: String
    var text: String
    var args: [String]

    init(file: String, _ warning: ImportWarning) {
        self.file = file
        line = warning.line
        message = warning.message
        text = warning.text.text
        args = warning.text.args
    }

    func shown(_ l: Localizer) -> String {
        "\(file):\(line): \(Validation.quotable(TranslatableText(text, args).rendered(l)))"
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

    init(inserted: Int, updated: Int, unchanged: Int, contactsCreated: Int? = nil,
         file: String, warnings: [ImportWarning], skipped: SkippedComponents = SkippedComponents()) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.contactsCreated = contactsCreated
        self.warnings = warnings.sorted { $0.line < $1.line }.map { LocatedWarning(file: file, $0) }
        self.notImported = skipped.kinds
    }

    /// `counts` such as "Imported 3 new, 0 updated, 1 unchanged appointment(s) from a.ics.", then
    /// what was created, left out and approximated.
    func print(_ counts: String) {
        Output.line(counts)
        if let created = contactsCreated { Output.line(Output.l.trn("Created %s contact(s) named in the file, with their phone numbers.", "Created %s contact(s) named in the file, with their phone numbers.", created)) }
        if !notImported.isEmpty {
            let kinds = notImported.map { Output.l.tr("%s %s (first at line %s)", $0.count, $0.name, $0.firstLine) }.joined(separator: ", ")
            Output.line(Output.l.tr("Not imported: %s; beautyd keeps appointments only.", kinds))
        }
        guard !warnings.isEmpty else { return }
        Output.line(Output.l.trn("%s warning(s): imported with a change or left out:", "%s warning(s): imported with a change or left out:", warnings.count))
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
        Output.l.tr("this item is too large to send to beautyd (%s bytes, at most %s in one request): shorten its text",
                    bytes, StagedImport.daemonLineLimit)
    }

    /// `a.ics:12: problem (nothing was imported)`: an import refused whole for one line of its file.
    static func nothingImported(_ code: CLIFailure.Code = .usage, file: String, line: Int, _ problem: String) -> CLIFailure {
        CLIFailure(code, Output.l.tr("%s:%s: %s (nothing was imported)", file, line, problem))
    }
}
