import BeautyCore
import BeautyLocalization
import BeautyTestSupport
import Foundation
import Testing

/// Every message beautyd shows has a Polish and a Slovak translation: the msgids are found in the
/// sources by their marker calls (`tr("...")`, `trc("context", "...")`, `trn("...", "...", n)`,
/// `ValidationError(field: ..., template: "...")`, `ImportWarning(line: ..., template: "...")` (and `LineError`, `ICalendarError`), `TranslatableText("...")`),
/// the tips by `Tips.all`, and each must have a non-empty, non-fuzzy entry in each catalog.
@Suite struct CatalogCoverageTests {
    struct MessageID: Hashable, CustomStringConvertible {
        var context: String?
        var id: String
        var plural: String?

        /// The entry to paste into a catalog, its translation left empty.
        var description: String {
            var lines: [String] = []
            if id.contains("%") { lines.append("#, c-format") }
            if let context { lines.append("msgctxt \(Self.quoted(context))") }
            lines.append("msgid \(Self.quoted(id))")
            if let plural {
                lines.append("msgid_plural \(Self.quoted(plural))")
                lines += ["msgstr[0] \"\"", "msgstr[1] \"\"", "msgstr[2] \"\""]
            } else {
                lines.append("msgstr \"\"")
            }
            return lines.joined(separator: "\n")
        }

        static func quoted(_ text: String) -> String {
            "\""
                + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n") + "\""
        }
    }

    /// A one-line string literal (not the opening of a `"""` one).
    static let literal = #""(?!"")((?:[^"\\\n]|\\.)*)""#
    nonisolated(unsafe) static let markers: [(NSRegularExpression, (NSTextCheckingResult, String) -> MessageID)] = [
        (
            try! NSRegularExpression(pattern: #"\btr\(\s*"# + literal),
            { m, s in MessageID(context: nil, id: group(m, 1, s)) }
        ),
        (
            try! NSRegularExpression(pattern: #"\btr\(\s*"""\n((?:.|\n)*?)\n([ \t]*)""""#),
            { m, s in MessageID(context: nil, id: multiline(m, s)) }
        ),
        (
            try! NSRegularExpression(
                pattern:
                    #"\b(?:ValidationError\(\s*field|(?:ImportWarning|LineError|ICalendarError)\(\s*line): [^,]+,\s*template:\s*"#
                    + literal),
            { m, s in MessageID(context: nil, id: group(m, 1, s)) }
        ),
        (
            try! NSRegularExpression(pattern: #"\bTranslatableText\(\s*"# + literal),
            { m, s in MessageID(context: nil, id: group(m, 1, s)) }
        ),
        (
            try! NSRegularExpression(pattern: #"\btrc\(\s*"# + literal + #"\s*,\s*"# + literal),
            { m, s in MessageID(context: group(m, 1, s), id: group(m, 2, s)) }
        ),
        (
            try! NSRegularExpression(pattern: #"\btrn\(\s*"# + literal + #"\s*,\s*"# + literal),
            { m, s in MessageID(context: nil, id: group(m, 1, s), plural: group(m, 2, s)) }
        ),
    ]

    static func group(_ match: NSTextCheckingResult, _ index: Int, _ text: String) -> String {
        unescape(String(text[Range(match.range(at: index), in: text)!]))
    }

    /// A `"""` literal's text as Swift makes it: the closing delimiter's indentation taken off each
    /// line, a line ending in a backslash joined to the next, escapes resolved.
    static func multiline(_ match: NSTextCheckingResult, _ text: String) -> String {
        let indentation = String(text[Range(match.range(at: 2), in: text)!])
        let lines = text[Range(match.range(at: 1), in: text)!].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(indentation) ? String($0.dropFirst(indentation.count)) : String($0) }
        var body = ""
        for (index, line) in lines.enumerated() {
            let continued = line.hasSuffix("\\") && !line.hasSuffix("\\\\")
            body += continued ? String(line.dropLast()) : line
            if !continued && index < lines.count - 1 { body += "\n" }
        }
        return unescape(body)
    }

    /// A Swift literal's escapes as the string holds them.
    static func unescape(_ literal: String) -> String {
        literal.replacingOccurrences(of: "\\n", with: "\n").replacingOccurrences(of: "\\\"", with: "\"")
            .replacingOccurrences(of: "\\\\", with: "\\")
    }

    /// The msgids of the marker calls in Sources, outside comments.
    static func sourceMessages() throws -> [MessageID] {
        let root = Locations.file("Sources")
        let files = FileManager.default.enumerator(atPath: root)!.compactMap { $0 as? String }.filter {
            $0.hasSuffix(".swift")
        }
        var found: [MessageID] = []
        for file in files.sorted() {
            found += messages(in: try String(contentsOfFile: "\(root)/\(file)", encoding: .utf8))
        }
        return found
    }

    static func messages(in source: String) -> [MessageID] {
        let text = source.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
        return markers.flatMap { regex, make in
            regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { make($0, text) }
        }
    }

    static func tipMessages() -> [MessageID] {
        Tips.all.flatMap { [MessageID(id: $0.title), MessageID(id: $0.text)] }
    }

    static func catalog(_ language: Language) throws -> MessageCatalog {
        try MessageCatalog(po: try String(contentsOfFile: Self.path(language), encoding: .utf8))
    }

    static func path(_ language: Language) -> String {
        Locations.file("Sources/BeautyLocalization/po/\(language.rawValue).po")
    }

    @Test func markersAreFoundInTheSources() throws {
        let ids = try Self.sourceMessages()
        #expect(ids.count > 20)
        #expect(ids.contains(MessageID(context: "button", id: "Taken")))
        #expect(ids.contains(MessageID(id: "%s reminder missed while away", plural: "%s reminders missed while away")))
    }

    @Test func aMultiLineLiteralIsReadAsSwiftReadsIt() {
        let source = #"""
                discussion: l.tr("""
                    First line, \
                    same line.

                      Indented "quoted" \\ text.
                    """),
            """#
        #expect(
            Self.messages(in: source) == [MessageID(id: "First line, same line.\n\n  Indented \"quoted\" \\ text.")])
    }

    @Test func msgidsAreLiteralText() throws {
        let interpolated = try Self.sourceMessages().filter {
            $0.id.contains("\\(") || ($0.plural ?? "").contains("\\(")
        }
        #expect(
            interpolated.isEmpty,
            "a message must be a plain literal with %s for its arguments: \(interpolated.map(\.id))")
    }

    @Test(arguments: Language.translated)
    func everyMessageIsTranslated(language: Language) throws {
        let catalog = try Self.catalog(language)
        var seen = Set<MessageID>()
        let missing = (try Self.sourceMessages() + Self.tipMessages()).filter { message in
            guard seen.insert(message).inserted else { return false }
            guard let forms = catalog.forms(context: message.context, id: message.id) else { return true }
            return forms.contains(where: \.isEmpty) || (message.plural != nil && forms.count < 3)
        }
        #expect(
            missing.isEmpty,
            """
            \(missing.count) message(s) have no \(language) translation. Add these entries to \
            Sources/BeautyLocalization/po/\(language.rawValue).po with the translation filled in \
            (docs/TRANSLATING.md says how; plural entries need all three forms):

            \(missing.map(\.description).joined(separator: "\n\n"))
            """)
    }

    @Test(arguments: Language.translated)
    func noEntryIsLeftOver(language: Language) throws {
        let used = Set(
            (try Self.sourceMessages() + Self.tipMessages()).map { MessageCatalog.key(context: $0.context, id: $0.id) })
        let unused = try Self.catalog(language).entries.filter {
            !$0.id.isEmpty && !used.contains(MessageCatalog.key(context: $0.context, id: $0.id))
        }
        #expect(
            unused.isEmpty,
            """
            entries of Sources/BeautyLocalization/po/\(language.rawValue).po that no source uses any more \
            (remove them, or the text changed and its entry needs the new msgid): \(unused.map(\.id))
            """)
    }

    @Test(arguments: Language.translated)
    func translationsKeepTheirArguments(language: Language) throws {
        let catalog = try Self.catalog(language)
        func placeholders(_ text: String) -> Int {
            text.components(separatedBy: "%").dropFirst().filter { $0.hasPrefix("s") || $0.first?.isNumber == true }
                .count
        }
        let wrong = catalog.entries.filter { entry in
            !entry.id.isEmpty && entry.forms.contains { !$0.isEmpty && placeholders($0) != placeholders(entry.id) }
        }
        #expect(wrong.isEmpty, "translations with a different number of %s than their msgid: \(wrong.map(\.id))")
    }
}
