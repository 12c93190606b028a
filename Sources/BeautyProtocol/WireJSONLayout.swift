/// Works on JSON as the daemon wrote it, without decoding it: the CLI prints an answer's `result`
/// with `--json` as it came, laid out as `WireJSON.encoder()` with `.prettyPrinted` lays out the
/// same value (a full-range agenda is 25 MB: decoding and encoding it again took most of its time).
extension WireJSON {
    /// Compact JSON laid out as JSONEncoder's `.prettyPrinted` does: two spaces per level, `"key" : value`,
    /// an empty array or object as `[`, a blank line, and `]` at the level's indentation. Strings are copied as they are.
    public static func prettyPrinted(_ compact: [UInt8]) -> [UInt8] {
        compact.withUnsafeBufferPointer { prettyPrinted(text: $0) }
    }

    // The scans below read through buffer pointers: answers are tens of megabytes, and an array's
    // bounds checks and a slice's retains cost more than the scan itself.
    private static func prettyPrinted(text compact: Bytes) -> [UInt8] {
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
        json.withUnsafeBufferPointer { member(name, inText: $0) }
    }

    private static func member(_ name: String, inText json: Bytes) -> Range<Int>? {
        let key = Array("\"\(name)\"".utf8)
        var index = skipSpace(json, from: 0)
        guard index < json.count, json[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        while true {
            index = skipSpace(json, from: index)
            guard index < json.count, json[index] == UInt8(ascii: "\""), let keyEnd = stringEnd(json, from: index)
            else { return nil }
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

    /// The UTF-8 bytes of the JSON string literal `literal` (quotes included) stands for, as
    /// JSONDecoder decodes it; nil when it is not one. For a member as large as an exported calendar.
    public static func stringValue(_ literal: ArraySlice<UInt8>) -> [UInt8]? {
        literal.withUnsafeBufferPointer { stringValue(literal: $0) }
    }

    private static func stringValue(literal: Bytes) -> [UInt8]? {
        guard literal.count >= 2, literal.first == UInt8(ascii: "\""), literal.last == UInt8(ascii: "\"") else {
            return nil
        }
        var out: [UInt8] = []
        out.reserveCapacity(literal.count)
        var index = literal.startIndex + 1
        let end = literal.endIndex - 1
        var run = index
        while index < end {
            let byte = literal[index]
            if byte == UInt8(ascii: "\"") || byte < 0x20 { return nil }
            guard byte == UInt8(ascii: "\\") else { index += 1; continue }
            out.append(contentsOf: literal[run..<index])
            guard index + 1 < end else { return nil }
            let letter = literal[index + 1]
            index += 2
            switch letter {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(letter)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = hexQuad(literal, at: index, end: end) else { return nil }
                index += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    // A surrogate pair: the low half follows as another \u escape.
                    guard index + 6 <= end, literal[index] == UInt8(ascii: "\\"),
                        literal[index + 1] == UInt8(ascii: "u"),
                        let low = hexQuad(literal, at: index + 2, end: end), (0xDC00..<0xE000).contains(low)
                    else { return nil }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                }
                guard let value = Unicode.Scalar(scalar) else { return nil }
                out.append(contentsOf: UTF8.encode(value)!)
            default:
                return nil
            }
            run = index
        }
        out.append(contentsOf: literal[run..<end])
        return out
    }

    private static func hexQuad(_ json: Bytes, at index: Int, end: Int) -> UInt32? {
        index + 4 <= end ? hexQuad(json[index..<(index + 4)]) : nil
    }

    /// Just past the string that starts (with its quote) at `start`.
    private static func stringEnd(_ json: Bytes, from start: Int) -> Int? {
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
    private static func valueEnd(_ json: Bytes, from start: Int) -> Int? {
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
                json[index] != UInt8(ascii: "]"), !isSpace(json[index])
            {
                index += 1
            }
            return index > start ? index : nil
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
            || byte == UInt8(ascii: "\t")
    }

    private static func skipSpace(_ json: Bytes, from start: Int) -> Int {
        var index = start
        while index < json.count, isSpace(json[index]) { index += 1 }
        return index
    }
}

private typealias Bytes = UnsafeBufferPointer<UInt8>
