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
                // The flags read so far were this entry's; those before the next entry are its own.
                flags = []
            }
            current = nil
            field = nil
        }
        // Bytes, not Characters: every keyword, quote and escape is ASCII, and a beautyctl run reads
        // a whole catalog before its first line of output.
        let bytes = Array(text.utf8)
        var number = 0
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            number += 1
            var first = start, last = end
            while first < last, bytes[first] == 0x20 || bytes[first] == 0x09 || bytes[first] == 0x0D { first += 1 }
            while last > first, bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09 || bytes[last - 1] == 0x0D {
                last -= 1
            }
            let line = bytes[first..<last]
            start = end + 1
            guard let lead = line.first else { continue }
            if lead == UInt8(ascii: "#") {
                if line.count > 1, line[line.startIndex + 1] == UInt8(ascii: ",") {
                    if current?.forms.isEmpty == false { finish() }
                    flags.formUnion(
                        String(decoding: line.dropFirst(2), as: UTF8.self).split(separator: ",")
                            .map { $0.trimmingCharacters(in: .whitespaces) })
                }
                continue
            }
            if lead == UInt8(ascii: "\"") {
                guard field != nil, current != nil else {
                    throw CatalogError(line: number, "a string continues nothing")
                }
                append(try Self.unquote(line, line: number), to: field!, of: &current!)
                continue
            }
            let keywordEnd = line.firstIndex { $0 == 0x20 || $0 == 0x09 } ?? line.endIndex
            let keyword = String(decoding: line[line.startIndex..<keywordEnd], as: UTF8.self)
            var valueStart = keywordEnd
            while valueStart < line.endIndex, line[valueStart] == 0x20 || line[valueStart] == 0x09 { valueStart += 1 }
            let value = try Self.unquote(line[valueStart...], line: number)
            switch keyword {
            case "msgctxt":
                finish()
                current = Entry(context: value, id: "", plural: nil, forms: [], fuzzy: false)
            case "msgid":
                if current?.forms.isEmpty == false || current == nil { finish() }
                if current == nil { current = Entry(context: nil, id: "", plural: nil, forms: [], fuzzy: false) }
                current!.id = value
            case "msgid_plural":
                guard current != nil else { throw CatalogError(line: number, "msgid_plural without msgid") }
                current!.plural = value
            case let key where key == "msgstr" || key.hasPrefix("msgstr["):
                guard current != nil else { throw CatalogError(line: number, "\(key) without msgid") }
                current!.forms.append(value)
            default:
                throw CatalogError(line: number, "unknown keyword \(keyword)")
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
    static func unquote(_ quoted: ArraySlice<UInt8>, line: Int) throws -> String {
        guard quoted.count >= 2, quoted.first == UInt8(ascii: "\""), quoted.last == UInt8(ascii: "\"") else {
            throw CatalogError(line: line, "expected a quoted string, found \(String(decoding: quoted, as: UTF8.self))")
        }
        var out: [UInt8] = []
        out.reserveCapacity(quoted.count)
        var escaped = false
        for byte in quoted.dropFirst().dropLast() {
            if escaped {
                switch byte {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                default: out.append(byte)
                }
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
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
