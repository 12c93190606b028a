import Foundation

/// Strict JSON syntax (RFC 8259), checked on the bytes without building anything: the daemon checks
/// every request line before JSONDecoder reads it (JSONDecoder reads lazily and lets through a
/// malformed value it never reads). JSONSerialization did this by building the whole tree, a tenth of
/// the daemon's time in a large import. Tests compare the verdicts with JSONSerialization's.
extension WireJSON {
    /// Nesting deeper than this is refused, as JSONSerialization refuses it.
    static let maximumDepth = 512

    /// Whether `line` is one JSON value (any kind), with only whitespace around it, in valid UTF-8.
    public static func isWellFormed(_ line: Data) -> Bool {
        line.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard String(validating: bytes, as: UTF8.self) != nil else { return false }
            var scanner = SyntaxScanner(bytes: bytes)
            // JSONSerialization takes a UTF-8 byte order mark before the value.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.index = 3 }
            return scanner.value(depth: 0) && scanner.atEndAfterSpace()
        }
    }
}

private struct SyntaxScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func atEndAfterSpace() -> Bool {
        skipSpace()
        return index == bytes.count
    }

    private mutating func skipSpace() {
        while let byte = next, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private var next: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func value(depth: Int) -> Bool {
        skipSpace()
        switch next {
        case UInt8(ascii: "{"):
            return items(closedBy: UInt8(ascii: "}"), depth: depth) { scanner in
                guard scanner.next == UInt8(ascii: "\""), scanner.string() else { return false }
                scanner.skipSpace()
                guard scanner.next == UInt8(ascii: ":") else { return false }
                scanner.index += 1
                return scanner.value(depth: depth + 1)
            }
        case UInt8(ascii: "["):
            return items(closedBy: UInt8(ascii: "]"), depth: depth) { $0.value(depth: depth + 1) }
        case UInt8(ascii: "\""):
            return string()
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        case let byte? where byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte):
            return number()
        default:
            return false
        }
    }

    /// An object's members or an array's elements, from its opening bracket to `close`; JSONSerialization
    /// takes a comma after the last one.
    private mutating func items(closedBy close: UInt8, depth: Int, _ item: (inout SyntaxScanner) -> Bool) -> Bool {
        guard depth < WireJSON.maximumDepth else { return false }
        index += 1
        skipSpace()
        while next != close {
            guard item(&self) else { return false }
            skipSpace()
            guard next == UInt8(ascii: ",") else { break }
            index += 1
            skipSpace()
        }
        guard next == close else { return false }
        index += 1
        return true
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    private mutating func digits() -> Bool {
        let start = index
        while let byte = next, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
        return index > start
    }

    private mutating func number() -> Bool {
        let start = index
        guard numberSyntax() else { return false }
        // JSONSerialization refuses a number beyond Double's range (1e400), which needs an exponent or 309 digits.
        let text = bytes[start..<index]
        guard text.count > 300 || text.contains(UInt8(ascii: "e")) || text.contains(UInt8(ascii: "E")) else {
            return true
        }
        return Double(String(decoding: text, as: UTF8.self))?.isFinite ?? false
    }

    private mutating func numberSyntax() -> Bool {
        if next == UInt8(ascii: "-") { index += 1 }
        if next == UInt8(ascii: "0") {
            index += 1
        } else {
            guard let first = next, first >= UInt8(ascii: "1"), first <= UInt8(ascii: "9") else { return false }
            _ = digits()
        }
        if next == UInt8(ascii: ".") {
            index += 1
            guard digits() else { return false }
        }
        if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            index += 1
            if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { index += 1 }
            guard digits() else { return false }
        }
        return true
    }

    /// A string starting at its quote: no raw control characters, known escapes, \u surrogates in pairs.
    private mutating func string() -> Bool {
        index += 1
        while let byte = next {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return true
            case 0x00..<0x20:
                return false
            case UInt8(ascii: "\\"):
                guard let letter = next else { return false }
                index += 1
                switch letter {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    continue
                case UInt8(ascii: "u"):
                    guard let unit = hexQuad() else { return false }
                    if (0xDC00..<0xE000).contains(unit) { return false }
                    if (0xD800..<0xDC00).contains(unit) {
                        guard next == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                        else { return false }
                        index += 2
                        guard let low = hexQuad(), (0xDC00..<0xE000).contains(low) else { return false }
                    }
                default:
                    return false
                }
            default:
                continue
            }
        }
        return false
    }

    private mutating func hexQuad() -> UInt32? {
        guard index + 4 <= bytes.count, let value = WireJSON.hexQuad(bytes[index..<(index + 4)]) else { return nil }
        index += 4
        return value
    }
}

extension WireJSON {
    /// Four hex digits (a `\u` escape's), or nil.
    static func hexQuad<Digits: Collection<UInt8>>(_ digits: Digits) -> UInt32? {
        guard digits.count == 4 else { return nil }
        var value: UInt32 = 0
        for byte in digits {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = value << 4 | UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }
        return value
    }
}
