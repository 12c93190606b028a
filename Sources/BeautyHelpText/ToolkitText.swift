import ArgumentParser
import BeautyLocalization
import Foundation

/// The texts swift-argument-parser writes itself into a command's output, in the user's language: the
/// help screen's headings, its `--help` and `--version` lines, the `(default: …)` notes, the footer,
/// and the usage errors with their `Error:`, `Help:` and `Usage:` lines. ArgumentParser has no hook
/// for its own words, so its finished message is rewritten by the exact phrases its generators write
/// (`HelpGenerator`, `MessageInfo`, `ErrorMessageGenerator` of swift-argument-parser 1.x); a phrase it
/// words differently one day stays English rather than coming out garbled. English, completion
/// scripts, `--version` and `--experimental-dump-help` are ArgumentParser's output as it is.
public struct ToolkitText {
    let l: Localizer

    public init(_ l: Localizer) { self.l = l }

    /// What `command` (the root command) prints for a parse outcome (`code` is ArgumentParser's exit code for it).
    public func fullMessage(for error: Error, code: ExitCode, of command: any ParsableCommand.Type) -> String {
        guard l.language != .english else { return command.fullMessage(for: error) }
        if code != .success { return usageError(command.fullMessage(for: error)) }
        // Only a help screen depends on the width: the other clean exits (version, completion script,
        // help dump) are the same bytes at any. The screen is laid out after translating, as
        // ArgumentParser lays out its own (translated words are longer or shorter).
        let unwrapped = command.fullMessage(for: error, columns: HelpLayout.unwrapped)
        guard unwrapped.hasPrefix("OVERVIEW: ") || unwrapped.hasPrefix("USAGE: ") else { return unwrapped }
        return helpScreen(unwrapped, width: HelpLayout.terminalWidth)
    }

    /// ArgumentParser's error message (`Error: …`, `Help:  …`, `Usage: …`, `  See '…' for more information.`).
    func usageError(_ english: String) -> String {
        english.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let indent = line.prefix { $0 == " " }
            return indent + placeholders(translated(String(line.dropFirst(indent.count)), by: Self.errorPhrases))
        }.joined(separator: "\n")
    }

    /// A help screen rendered without wrapping (`HelpLayout.unwrapped` columns), translated and wrapped to `width`.
    func helpScreen(_ unwrapped: String, width: Int) -> String {
        HelpLayout(width: width).laidOut(unwrapped) { part, text in
            switch part {
            case .line: match(text, Self.linePhrases).map(placeholders)
            case .label: changed(placeholders(match(text, Self.labelPhrases) ?? text), from: text)
            case .abstract: translatedAbstract(text)
            }
        }
    }

    /// An option's help: ArgumentParser's own (`Show help information.`) or one ending in its note `(default: 5)`.
    private func translatedAbstract(_ text: String) -> String? {
        if let whole = match(text, Self.abstractPhrases) { return whole }
        var from = text.startIndex
        while let space = text[from...].firstIndex(of: " ") {
            from = text.index(after: space)
            if text[from...].hasPrefix("("), let note = match(String(text[from...]), Self.notePhrases) {
                return text[..<from] + note
            }
        }
        return nil
    }

    /// `text` with each placeholder of a value (`<time>`, `[<options>]`, `<name|url>`) in the user's
    /// language; one beautyctl does not name stays as it is (`<n>`, `<url>`, `<HH:MM>`).
    func placeholders(_ text: String) -> String {
        guard text.contains("<") else { return text }
        let whole = text as NSString
        var out = ""
        var last = 0
        for found in Self.placeholder.matches(in: text, range: NSRange(location: 0, length: whole.length)) {
            out += whole.substring(with: NSRange(location: last, length: found.range.location - last))
            let names = whole.substring(with: found.range(at: 1)).split(
                separator: "|", omittingEmptySubsequences: false)
            out += "<" + names.map { placeholder(String($0)) }.joined(separator: "|") + ">"
            last = found.range.location + found.range.length
        }
        return out + whole.substring(from: last)
    }

    private static let placeholder = try! NSRegularExpression(pattern: "<([A-Za-z|-]+)>")

    private func changed(_ text: String, from original: String) -> String? { text == original ? nil : text }

    /// A value's placeholder word (an option's `valueName`, an argument's name, ArgumentParser's own).
    private func placeholder(_ name: String) -> String {
        switch name {
        case "options": l.tr("<options>").trimmingCharacters(in: Self.angles)
        case "subcommand": l.tr("<subcommand>").trimmingCharacters(in: Self.angles)
        case "time": l.tr("<time>").trimmingCharacters(in: Self.angles)
        case "text": l.tr("<text>").trimmingCharacters(in: Self.angles)
        case "name": l.tr("<name>").trimmingCharacters(in: Self.angles)
        case "title": l.tr("<title>").trimmingCharacters(in: Self.angles)
        case "file": l.tr("<file>").trimmingCharacters(in: Self.angles)
        case "path": l.tr("<path>").trimmingCharacters(in: Self.angles)
        case "duration": l.tr("<duration>").trimmingCharacters(in: Self.angles)
        case "date": l.tr("<date>").trimmingCharacters(in: Self.angles)
        case "amount": l.tr("<amount>").trimmingCharacters(in: Self.angles)
        case "field": l.tr("<field>").trimmingCharacters(in: Self.angles)
        case "count": l.tr("<count>").trimmingCharacters(in: Self.angles)
        case "number": l.tr("<number>").trimmingCharacters(in: Self.angles)
        case "zone": l.tr("<zone>").trimmingCharacters(in: Self.angles)
        case "status": l.tr("<status>").trimmingCharacters(in: Self.angles)
        case "state": l.tr("<state>").trimmingCharacters(in: Self.angles)
        case "month": l.tr("<month>").trimmingCharacters(in: Self.angles)
        case "code": l.tr("<code>").trimmingCharacters(in: Self.angles)
        case "address": l.tr("<address>").trimmingCharacters(in: Self.angles)
        case "user": l.tr("<user>").trimmingCharacters(in: Self.angles)
        case "unit": l.tr("<unit>").trimmingCharacters(in: Self.angles)
        case "level": l.tr("<level>").trimmingCharacters(in: Self.angles)
        case "kind": l.tr("<kind>").trimmingCharacters(in: Self.angles)
        case "key": l.tr("<key>").trimmingCharacters(in: Self.angles)
        case "days": l.tr("<days>").trimmingCharacters(in: Self.angles)
        case "contact": l.tr("<contact>").trimmingCharacters(in: Self.angles)
        case "category": l.tr("<category>").trimmingCharacters(in: Self.angles)
        case "color": l.tr("<color>").trimmingCharacters(in: Self.angles)
        case "med": l.tr("<med>").trimmingCharacters(in: Self.angles)
        case "position": l.tr("<position>").trimmingCharacters(in: Self.angles)
        case "template": l.tr("<template>").trimmingCharacters(in: Self.angles)
        case "shell": l.tr("<shell>").trimmingCharacters(in: Self.angles)
        case "id": l.tr("<id>").trimmingCharacters(in: Self.angles)
        case "language": l.tr("<language>").trimmingCharacters(in: Self.angles)
        default: name
        }
    }

    private static let angles = CharacterSet(charactersIn: "<>")

    private func translated(_ text: String, by phrases: [Phrase]) -> String {
        match(text, phrases) ?? text
    }

    /// `text` translated when one phrase matches all of it. The messages inside `Error: ` and `or: `
    /// are phrases too; other arguments are what the user typed or beautyctl named, kept as they are.
    private func match(_ text: String, _ phrases: [Phrase]) -> String? {
        // NSString ranges: a capture may begin on a combining mark, which no String.Index reaches.
        let whole = text as NSString
        for phrase in phrases where text.utf8.starts(with: phrase.opening.utf8) {
            guard let found = phrase.english.firstMatch(in: text, range: NSRange(location: 0, length: whole.length))
            else { continue }
            let arguments = (1..<found.numberOfRanges).map { index in
                let argument = whole.substring(with: found.range(at: index))
                return phrase.nests ? translated(argument, by: phrases) : argument
            }
            return phrase.say(l, arguments)
        }
        return nil
    }

    /// One text of ArgumentParser, written once as a marker call; its English pattern is what the call says
    /// in English with placeholders for its arguments.
    struct Phrase: Sendable {
        let say: @Sendable (Localizer, [String]) -> String
        let english: NSRegularExpression
        /// The English up to its first argument: a cheap test before the pattern.
        let opening: String
        /// Its first argument is another of the phrases (`Error: %s`, `or: %s in '%s'`).
        let nests: Bool

        init(nests: Bool = false, _ say: @escaping @Sendable (Localizer, [String]) -> String) {
            self.say = say
            self.nests = nests
            let placeholders = (0..<4).map { "\u{E000}\($0)\u{E001}" }
            let text = say(.english, placeholders)
            var pattern = NSRegularExpression.escapedPattern(for: text)
            for placeholder in placeholders { pattern = pattern.replacingOccurrences(of: placeholder, with: "(.*?)") }
            english = try! NSRegularExpression(pattern: "^" + pattern + "$")
            opening = String(text.prefix { $0 != "\u{E000}" })
        }
    }

    /// Every phrase rewritten, for a test to check that none of ArgumentParser's English survives.
    static var allPhrases: [Phrase] { linePhrases + labelPhrases + abstractPhrases + notePhrases + errorPhrases }

    /// Whole lines of a help screen (HelpGenerator.rendered, Section.rendered).
    static let linePhrases = [
        Phrase { l, a in l.tr("OVERVIEW: %s", a[0]) },
        Phrase { l, a in l.tr("USAGE: %s", a[0]) },
        Phrase { l, _ in l.tr("ARGUMENTS:") },
        Phrase { l, _ in l.tr("OPTIONS:") },
        Phrase { l, _ in l.tr("SUBCOMMANDS:") },
        Phrase { l, a in l.tr("See '%s <subcommand>' for detailed help.", a[0]) },
    ]

    /// A subcommand's name in the list (HelpGenerator.generateSections).
    static let labelPhrases = [Phrase { l, a in l.tr("%s (default)", a[0]) }]

    /// The help of the flags ArgumentParser adds (helpArgumentDefinition, versionArgumentDefinition).
    static let abstractPhrases = [
        Phrase { l, _ in l.tr("Show help information.") },
        Phrase { l, _ in l.tr("Show the version.") },
    ]

    /// The note after an option's help (HelpGenerator.generateSections).
    static let notePhrases = [
        Phrase { l, a in l.tr("(values: %s; default as flag: %s)", a[0], a[1]) },
        Phrase { l, a in l.tr("(values: %s; default: %s)", a[0], a[1]) },
        Phrase { l, a in l.tr("(values: %s)", a[0]) },
        Phrase { l, a in l.tr("(default as flag: %s)", a[0]) },
        Phrase { l, a in l.tr("(default: %s)", a[0]) },
    ]

    /// The lines of a usage error (MessageInfo.fullText) and the messages of ErrorMessageGenerator a user
    /// can meet. Left English: its internal errors ("Internal error. …", "No value set for non-argument
    /// var …", "Command '…' is not a parent …"), which only a mistake in the program's code can cause.
    static let errorPhrases = [
        Phrase(nests: true) { l, a in l.tr("Error: %s", a[0]) },
        Phrase { l, a in l.tr("Help:  %s", a[0]) },
        Phrase { l, a in l.tr("Usage: %s", a[0]) },
        Phrase { l, a in l.tr("See '%s' for more information.", a[0]) },
        Phrase { l, a in l.tr("Unknown option '%s'. Did you mean '%s'?", a[0], a[1]) },
        Phrase { l, a in l.tr("Unknown option '%s'", a[0]) },
        Phrase { l, a in l.tr("Missing value for '%s'", a[0]) },
        Phrase(nests: true) { l, a in l.tr("or: %s in '%s'", a[0], a[1]) },
        Phrase { l, a in l.tr("The option '%s' does not take any value, but '%s' was specified.", a[0], a[1]) },
        Phrase { l, a in l.tr("Unexpected argument '%s'", a[0]) },
        Phrase { l, a in
            l.trn("%s unexpected argument: '%s'", "%s unexpected arguments: '%s'", Int(a[0]) ?? 2, a[0], a[1])
        },
        Phrase { l, a in l.tr("Value to be set with flag '%s' had already been set with flag '%s'", a[0], a[1]) },
        Phrase { l, a in l.tr("Missing expected argument '%s'", a[0]) },
        Phrase { l, a in l.tr("Missing one of: '%s'", a[0]) },
        Phrase { l, a in
            l.tr("The value '%s' is invalid for '%s'. Please provide one of '%s' or '%s'.", a[0], a[1], a[2], a[3])
        },
        Phrase { l, a in
            l.tr("The value '%s' is invalid for '%s'. Please provide one of '%s' and '%s'.", a[0], a[1], a[2], a[3])
        },
        Phrase { l, a in l.tr("The value '%s' is invalid for '%s'. Please provide one of the following:", a[0], a[1]) },
        Phrase { l, a in l.tr("The value '%s' is invalid for '%s': %s", a[0], a[1], a[2]) },
        Phrase { l, a in l.tr("The value '%s' is invalid for '%s'", a[0], a[1]) },
        Phrase { l, a in l.tr("Invalid option: %s", a[0]) },
        Phrase { l, _ in l.tr("Missing required subcommand.") },
        Phrase { l, a in l.tr("Can't generate completion scripts for '%s'.", a[0]) },
        Phrase { l, _ in l.tr("Can't autodetect a supported shell.") },
        Phrase { l, _ in l.tr("Please use --generate-completion-script=<shell> with one of:") },
    ]
}
