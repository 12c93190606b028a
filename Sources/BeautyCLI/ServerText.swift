import BeautyCore

/// Makes a JSON line from the server safe to print: every control character and bidirectional
/// formatting character inside its strings becomes visible text (`\u001b`), so a server, even a
/// planted one, cannot move the cursor, retitle the terminal or reorder what the user reads.
/// Newlines (LF, or CR right before LF) and tabs stay: notes are multi-line, an exported .ics ends its
/// lines with CRLF. Works on the raw bytes, before decoding, so every string beautyctl prints from an
/// answer has passed through here.
enum ServerText {
    /// Code points shown as escapes: what the daemon's validation calls unsafe to show, but newline
    /// and tab (notes are multi-line).
    static func mustEscape(_ value: UInt32) -> Bool {
        guard value != 0x0A, value != 0x09, let scalar = Unicode.Scalar(value) else { return false }
        return Validation.isUnsafeToShow(scalar)
    }

    /// The scalar a UTF-8 sequence of `count` bytes starting at `index` encodes (its lead byte's
    /// length), or nil when the bytes are cut short.
    private static func scalar(in line: UnsafeBufferPointer<UInt8>, at index: Int, count: Int) -> UInt32? {
        guard count > 1, index + count <= line.count else { return nil }
        var value = UInt32(line[index]) & (0xFF >> (count + 1))
        for offset in 1..<count { value = value << 6 | UInt32(line[index + offset] & 0x3F) }
        return value
    }

    /// Control bytes but JSON's whitespace, and every non-ASCII byte (a C1 control or a bidi
    /// control is more than one byte, and no valid answer has any outside its strings).
    private static func isUnsafeOutsideStrings(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte >= 0x7F
    }

    /// Bytes a string's text may hold as they are: printable ASCII but its quote and backslash.
    private static func isPlainInString(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    static func sanitize(_ line: [UInt8]) -> [UInt8] {
        // Through a buffer pointer: an answer may be tens of megabytes, and an array's bounds checks cost more than the scan.
        line.withUnsafeBufferPointer(sanitize)
    }

    private static func sanitize(_ line: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(line.count)
        var inString = false
        var index = 0
        func emitEscaped(_ scalar: UInt32) {
            // `\\u001b` in JSON decodes to the six characters \u001b.
            out.append(UInt8(ascii: "\\"))
            out.append(contentsOf: Array(Validation.escapeSequence(scalar).utf8))
        }
        while index < line.count {
            let byte = line[index]
            if !inString {
                if byte == UInt8(ascii: "\"") { inString = true }
                // Outside strings only JSON's own bytes belong; anything unsafe there (a broken or
                // hostile answer) becomes `?`, as it may reach the user in the "unexpected answer" error.
                out.append(Self.isUnsafeOutsideStrings(byte) ? UInt8(ascii: "?") : byte)
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = false
                out.append(byte)
                index += 1
            case UInt8(ascii: "\\") where index + 1 < line.count:
                let next = line[index + 1]
                if next == UInt8(ascii: "r"), index + 3 < line.count, line[index + 2] == UInt8(ascii: "\\"),
                    line[index + 3] == UInt8(ascii: "n")
                {
                    // CRLF ends a line as LF does (an exported .ics has them): it moves nothing on a terminal.
                    out.append(contentsOf: line[index...(index + 3)])
                    index += 4
                } else if next == UInt8(ascii: "u"), index + 5 < line.count,
                    let value = UInt32(String(decoding: line[(index + 2)...(index + 5)], as: UTF8.self), radix: 16),
                    mustEscape(value)
                {
                    emitEscaped(value)
                    index += 6
                } else if next == UInt8(ascii: "b") || next == UInt8(ascii: "f") || next == UInt8(ascii: "r") {
                    emitEscaped(next == UInt8(ascii: "b") ? 0x08 : next == UInt8(ascii: "f") ? 0x0C : 0x0D)
                    index += 2
                } else {
                    out.append(byte)
                    out.append(next)
                    index += 2
                }
            case 0x00...0x1F, 0x7F:
                emitEscaped(UInt32(byte))
                index += 1
            case 0xC0...0xFF:
                let count = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                if let value = scalar(in: line, at: index, count: count), mustEscape(value) {
                    emitEscaped(value)
                } else {
                    out.append(contentsOf: line[index..<min(index + count, line.count)])
                }
                index += count
            default:
                // Printable ASCII, copied a run at a time (an answer may be tens of megabytes).
                var end = index + 1
                while end < line.count, Self.isPlainInString(line[end]) { end += 1 }
                out.append(contentsOf: line[index..<end])
                index = end
            }
        }
        return out
    }
}
