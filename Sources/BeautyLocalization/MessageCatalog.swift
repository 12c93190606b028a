import Foundation

/// One language's translations, read from its GNU gettext `.po` file: msgid (with its msgctxt)
/// -> the translated forms (one, or one per plural form). Untranslated and fuzzy entries are left
/// out, so they fall back to English as gettext does.
public struct MessageCatalog: Sendable {
    public struct Entry: Sendable, Equatable {
        public var context: String?
        public var id: String
        public var plural: String?
        public var forms: [String]
        public var fuzzy: Bool
    }

    public private(set) var entries: [Entry] = []
    private var translations: [String: [String]] = [:]

    public init() {}

    /// The lookup key gettext uses: the context, EOT, the msgid.
    public static func key(context: String?, id: String) -> String {
        context.map { "\($0)\u{4}\(id)" } ?? id
    }

    public func forms(context: String? = nil, id: String) -> [String]? {
        translations[Self.key(context: context, id: id)]
    }

    /// Reads `.po` text: `msgctxt`, `msgid`, `msgid_plural`, `msgstr`, `msgstr[n]` with their
    /// continuation strings, `#,` flags; other comments are ignored. The header (empty msgid) is kept
    /// as an entry but is not a translation.
    public init(po text: String) throws {
        var current: Entry?
        var field: String?
        var flags: Set<String> = []
        func finish() {
            if var entry = current {
                entry.fuzzy = flags.contains("fuzzy")
                entries.append(entry)
                if !entry.id.isEmpty, !entry.fuzzy, entry.forms.contains(where: { !$0.isEmpty }) {
                    translations[Self.key(context: entry.context, id: entry.id)] = entry.forms
                }
            }
            current = nil
            field = nil
            flags = []
        }
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("#,") {
                if current?.forms.isEmpty == false { finish() }
                flags.formUnion(line.dropFirst(2).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                continue
            }
            if line.hasPrefix("#") { continue }
            if line.hasPrefix("\"") {
                guard field != nil, current != nil else { throw CatalogError(line: number + 1, "a string continues nothing") }
                append(try Self.unquote(line, line: number + 1), to: field!, of: &current!)
                continue
            }
            let keyword = String(line.prefix { !$0.isWhitespace })
            let value = try Self.unquote(line.dropFirst(keyword.count).trimmingCharacters(in: .whitespaces), line: number + 1)
            switch keyword {
            case "msgctxt":
                finish()
                current = Entry(context: value, id: "", plural: nil, forms: [], fuzzy: false)
            case "msgid":
                if current?.forms.isEmpty == false || current == nil { finish() }
                if current == nil { current = Entry(context: nil, id: "", plural: nil, forms: [], fuzzy: false) }
                current!.id = value
            case "msgid_plural":
                guard current != nil else { throw CatalogError(line: number + 1, "msgid_plural without msgid") }
                current!.plural = value
            case let key where key == "msgstr" || key.hasPrefix("msgstr["):
                guard current != nil else { throw CatalogError(line: number + 1, "\(key) without msgid") }
                current!.forms.append(value)
            default:
                throw CatalogError(line: number + 1, "unknown keyword \(keyword)")
            }
            field = keyword
        }
        finish()
    }

    private func append(_ text: String, to field: String, of entry: inout Entry) {
        switch field {
        case "msgctxt": entry.context = (entry.context ?? "") + text
        case "msgid": entry.id += text
        case "msgid_plural": entry.plural = (entry.plural ?? "") + text
        default: entry.forms[entry.forms.count - 1] += text
        }
    }

    /// `"a\"b\n"` -> a"b and a newline: the C escapes gettext writes.
    static func unquote(_ quoted: String, line: Int) throws -> String {
        guard quoted.count >= 2, quoted.hasPrefix("\""), quoted.hasSuffix("\"") else {
            throw CatalogError(line: line, "expected a quoted string, found \(quoted)")
        }
        var out = ""
        var escaped = false
        for character in quoted.dropFirst().dropLast() {
            if escaped {
                switch character {
                case "n": out.append("\n")
                case "t": out.append("\t")
                default: out.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.append(character)
            }
        }
        return out
    }

    public struct CatalogError: Error, CustomStringConvertible {
        public var line: Int
        public var message: String
        init(line: Int, _ message: String) {
            self.line = line
            self.message = message
        }
        public var description: String { "line \(line): \(message)" }
    }
}
