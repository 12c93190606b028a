/// Works on JSON as the daemon wrote it, without decoding it: the CLI prints an answer's `result`
/// with `--json` as it came, laid out as `WireJSON.encoder()` with `.prettyPrinted` lays out the
/// same value (a full-range agenda is 25 MB: decoding and encoding it again took most of its time).
extension WireJSON {
    /// Compact JSON laid out as JSONEncoder's `.prettyPrinted` does: two spaces per level, `"key" : value`,
    /// an empty array or object as `[`, a blank line, and `]` at the level's indentation. Strings are copied as they are.
    public static func prettyPrinted(_ compact: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(compact.count * 2)
        var depth = 0
        func newline() {
            out.append(UInt8(ascii: "\n"))
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
        }
        var index = 0
        while index < compact.count {
            let byte = compact[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                let end = stringEnd(compact, from: index - 1) ?? compact.count
                out.append(contentsOf: compact[(index - 1)..<end])
                index = end
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                out.append(byte)
                let next = skipSpace(compact, from: index)
                if next < compact.count, compact[next] == byte + 2 {  // `}` and `]` follow `{` and `[` by two
                    out.append(UInt8(ascii: "\n"))
                    newline()
                    out.append(byte + 2)
                    index = next + 1
                } else {
                    depth += 1
                    newline()
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                newline()
                out.append(byte)
            case UInt8(ascii: ","):
                out.append(byte)
                newline()
            case UInt8(ascii: ":"):
                out.append(contentsOf: [UInt8(ascii: " "), byte, UInt8(ascii: " ")])
            case _ where isSpace(byte):
                continue
            default:
                out.append(byte)
            }
        }
        return out
    }

    /// Where the value of the top-level object's member `name` lies; nil when the text is not an
    /// object, has no such member, or is cut short.
    public static func member(_ name: String, in json: [UInt8]) -> Range<Int>? {
        let key = Array("\"\(name)\"".utf8)
        var index = skipSpace(json, from: 0)
        guard index < json.count, json[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        while true {
            index = skipSpace(json, from: index)
            guard index < json.count, json[index] == UInt8(ascii: "\""), let keyEnd = stringEnd(json, from: index) else { return nil }
            let isWanted = json[index..<keyEnd].elementsEqual(key)
            index = skipSpace(json, from: keyEnd)
            guard index < json.count, json[index] == UInt8(ascii: ":") else { return nil }
            let start = skipSpace(json, from: index + 1)
            guard let end = valueEnd(json, from: start) else { return nil }
            if isWanted { return start..<end }
            index = skipSpace(json, from: end)
            guard index < json.count, json[index] == UInt8(ascii: ",") else { return nil }
            index += 1
        }
    }

    /// Just past the string that starts (with its quote) at `start`.
    private static func stringEnd(_ json: [UInt8], from start: Int) -> Int? {
        var index = start + 1
        while index < json.count {
            switch json[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return nil
    }

    /// Just past the value (string, object, array, number, literal) that starts at `start`.
    private static func valueEnd(_ json: [UInt8], from start: Int) -> Int? {
        guard start < json.count else { return nil }
        switch json[start] {
        case UInt8(ascii: "\""):
            return stringEnd(json, from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < json.count {
                switch json[index] {
                case UInt8(ascii: "\""):
                    guard let end = stringEnd(json, from: index) else { return nil }
                    index = end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default:
                    break
                }
                index += 1
            }
            return nil
        default:
            var index = start
            while index < json.count, json[index] != UInt8(ascii: ","), json[index] != UInt8(ascii: "}"),
                  json[index] != UInt8(ascii: "]"), !isSpace(json[index]) {
                index += 1
            }
            return index > start ? index : nil
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }

    private static func skipSpace(_ json: [UInt8], from start: Int) -> Int {
        var index = start
        while index < json.count, isSpace(json[index]) { index += 1 }
        return index
    }
}
