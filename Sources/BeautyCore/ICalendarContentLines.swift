import Foundation

// iCalendar content lines and components (RFC 5545 §3.1): unfolding, parameters, TEXT escapes.

/// One unfolded content line: `NAME;PARAM=V1,V2;...:VALUE`.
struct ICalProperty {
    var name: String  // upper-cased
    var params: [(name: String, values: [String])]
    var value: String  // raw: TEXT is not yet unescaped
    var line: Int
    /// The whole unfolded line as it came, for properties kept without being interpreted.
    var raw = ""

    func param(_ key: String) -> String? { params.first { $0.name == key }?.values.first }
}

struct ICalComponent {
    var name: String
    var line: Int
    var properties: [ICalProperty] = []
    var children: [ICalComponent] = []
    /// A VCALENDAR the file does not write: bare VEVENTs (and other components) at the top level.
    var implied = false

    func first(_ name: String) -> ICalProperty? { properties.first { $0.name == name } }
    func all(_ name: String) -> [ICalProperty] { properties.filter { $0.name == name } }

    /// The component as unfolded content lines, its own properties as they came.
    var rawLines: [String] {
        ["BEGIN:\(name)"] + properties.map(\.raw) + children.flatMap(\.rawLines) + ["END:\(name)"]
    }
}

extension ICalendar {
    /// Components that live directly in a VCALENDAR and may not nest in each other.
    private static let topLevel: Set<String> = ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE"]

    /// Real calendars nest four deep (VCALENDAR, VTIMEZONE, STANDARD, ...); a file much deeper is
    /// hostile, and releasing such a tree recurses once per level (a stack overflow at some tens of
    /// thousands), so a BEGIN beyond this depth is refused.
    static let maximumDepth = 64

    /// Splits the text into physical lines (CRLF, LF or CR) and joins folded ones; each logical
    /// line keeps the number of its first physical line. Also returns the last line's number.
    static func unfold(_ text: String) throws -> (lines: [(bytes: [UInt8], line: Int)], last: Int) {
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var result: [(bytes: [UInt8], line: Int)] = []
        var number = 0
        var lastNonEmpty = 0
        var index = 0
        while index < bytes.count {
            var end = index
            while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            number += 1
            let physical = bytes[index..<end]
            index = end + (end + 1 < bytes.count && bytes[end] == 0x0D && bytes[end + 1] == 0x0A ? 2 : 1)
            guard let first = physical.first else { continue }  // blank lines are skipped
            lastNonEmpty = number
            if first == 0x20 || first == 0x09 {
                guard !result.isEmpty else {
                    throw ICalendarError(
                        line: number, template: "a continuation line (starting with a space) has no line before it")
                }
                result[result.count - 1].bytes += physical.dropFirst()
            } else {
                result.append((Array(physical), number))
            }
        }
        return (result, max(lastNonEmpty, 1))
    }

    /// Parses `NAME;P=V;Q="a,b":VALUE`. Parameter values may be quoted; RFC 6868 ^n ^^ ^' are decoded.
    static func property(_ bytes: [UInt8], line: Int) throws -> ICalProperty {
        let colon = UInt8(ascii: ":"), semicolon = UInt8(ascii: ";"), comma = UInt8(ascii: ","),
            quote = UInt8(ascii: "\"")
        let text = { (range: Range<Int>) in String(decoding: bytes[range], as: UTF8.self) }
        let preview = { () -> String in
            let whole = String(decoding: bytes, as: UTF8.self)
            return whole.count > 40 ? "\(whole.prefix(40))..." : whole
        }
        var i = 0
        while i < bytes.count, isNameByte(bytes[i]) { i += 1 }
        guard bytes.contains(colon) else {
            throw ICalendarError(line: line, template: "'%s' is not a content line NAME:VALUE (no ':')", preview())
        }
        guard i > 0, i < bytes.count, bytes[i] == colon || bytes[i] == semicolon else {
            throw ICalendarError(line: line, template: "'%s' does not start with a property name", preview())
        }
        let name = text(0..<i).uppercased()
        var params: [(name: String, values: [String])] = []
        while bytes[i] == semicolon {
            i += 1
            let nameStart = i
            while i < bytes.count, isNameByte(bytes[i]) { i += 1 }
            guard i > nameStart, i < bytes.count, bytes[i] == UInt8(ascii: "=") else {
                throw ICalendarError(line: line, template: "%s has a parameter without NAME=VALUE", name)
            }
            let paramName = text(nameStart..<i).uppercased()
            i += 1
            var values: [String] = []
            while true {
                if i < bytes.count, bytes[i] == quote {
                    guard let close = bytes[(i + 1)...].firstIndex(of: quote) else {
                        throw ICalendarError(
                            line: line, template: "%s has an unterminated quoted %s value", name, paramName)
                    }
                    values.append(decodeCarets(text((i + 1)..<close)))
                    i = close + 1
                } else {
                    let start = i
                    while i < bytes.count, ![colon, semicolon, comma, quote].contains(bytes[i]) { i += 1 }
                    values.append(decodeCarets(text(start..<i)))
                }
                guard i < bytes.count, bytes[i] == comma else { break }
                i += 1
            }
            guard i < bytes.count, bytes[i] == colon || bytes[i] == semicolon else {
                throw ICalendarError(
                    line: line, template: "%s: malformed %s parameter (no ':' before the value)", name, paramName)
            }
            params.append((paramName, values))
        }
        return ICalProperty(
            name: name, params: params, value: text((i + 1)..<bytes.count), line: line,
            raw: String(decoding: bytes, as: UTF8.self))
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    /// RFC 6868 parameter escapes: ^n (newline), ^' (double quote), ^^.
    private static func decodeCarets(_ value: String) -> String {
        decodeEscapes(value, marker: "^") {
            switch $0 {
            case "n", "N": "\n"
            case "'": "\""
            case "^": "^"
            default: nil
            }
        }
    }

    /// Replaces `marker` + a known character by its meaning; an unknown pair is kept as written.
    private static func decodeEscapes(_ raw: String, marker: Unicode.Scalar, _ meaning: (Unicode.Scalar) -> String?)
        -> String
    {
        guard raw.unicodeScalars.contains(marker) else { return raw }
        var out = ""
        var escaped = false
        for scalar in raw.unicodeScalars {
            if escaped {
                escaped = false
                if let text = meaning(scalar) {
                    out += text
                } else {
                    out.unicodeScalars.append(marker)
                    out.unicodeScalars.append(scalar)
                }
            } else if scalar == marker {
                escaped = true
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        if escaped { out.unicodeScalars.append(marker) }
        return out
    }

    /// The VCALENDAR objects of a file, with BEGIN/END balance checked. Components written at the
    /// top level, with no VCALENDAR around them, are read as one `implied` calendar.
    static func components(_ text: String) throws -> [ICalComponent] {
        let (lines, last) = try unfold(text)
        guard let first = lines.first else {
            throw ICalendarError(line: 1, template: "the file is empty (expected BEGIN:VCALENDAR)")
        }
        // Every calendar, and every file of bare events, begins with a component: text that does not
        // is some other kind of file (a CSV, a letter), said so rather than by the rule it breaks.
        if (try? property(first.bytes, line: first.line))?.name != "BEGIN" {
            let start = String(decoding: first.bytes, as: UTF8.self)
            throw ICalendarError(
                line: first.line, template: "not an iCalendar file: it begins with '%s', not BEGIN:VCALENDAR",
                start.count > 40 ? "\(start.prefix(40))..." : start)
        }
        var stack: [ICalComponent] = []
        var calendars: [ICalComponent] = []
        for (bytes, number) in lines {
            let property = try property(bytes, line: number)
            let kind = property.value.trimmingWhitespace().uppercased()
            switch property.name {
            case "BEGIN":
                guard !kind.isEmpty else {
                    throw ICalendarError(line: number, template: "BEGIN without a component name")
                }
                if kind == "VCALENDAR", stack.count == 1, stack[0].implied {
                    calendars.append(stack.removeLast())
                }
                if let open = stack.last {
                    if kind == "VCALENDAR" || (topLevel.contains(kind) && open.name != "VCALENDAR") {
                        throw ICalendarError(
                            line: number, template: "BEGIN:%s inside %s begun at line %s (missing END:%s)", kind,
                            open.name, open.line, open.name)
                    }
                } else if topLevel.contains(kind) {
                    stack.append(ICalComponent(name: "VCALENDAR", line: number, implied: true))
                } else if kind != "VCALENDAR" {
                    throw ICalendarError(line: number, template: "expected BEGIN:VCALENDAR, found BEGIN:%s", kind)
                }
                guard stack.count < maximumDepth else {
                    throw ICalendarError(
                        line: number, template: "BEGIN:%s nests components more than %s deep", kind, maximumDepth)
                }
                stack.append(ICalComponent(name: kind, line: number))
            case "END":
                guard let open = stack.last else {
                    throw ICalendarError(line: number, template: "END:%s without a matching BEGIN:%s", kind, kind)
                }
                guard open.name == kind else {
                    throw unmatchedEnd(
                        kind, line: number, open: (open.name, open.line), stillOpen: stack.contains { $0.name == kind })
                }
                let done = stack.removeLast()
                if stack.isEmpty { calendars.append(done) } else { stack[stack.count - 1].children.append(done) }
            default:
                guard !stack.isEmpty else {
                    throw calendars.isEmpty
                        ? ICalendarError(line: number, template: "expected BEGIN:VCALENDAR, found %s", property.name)
                        : ICalendarError(
                            line: number, template: "%s after END:VCALENDAR (expected BEGIN:VCALENDAR)", property.name)
                }
                stack[stack.count - 1].properties.append(property)
            }
        }
        if stack.count == 1, stack[0].implied { calendars.append(stack.removeLast()) }
        if let open = stack.last {
            throw ICalendarError(
                line: last, template: "the file ends inside %s begun at line %s (missing END:%s)", open.name, open.line,
                open.name)
        }
        return calendars
    }

    /// The error for an END that does not close the innermost open component (`open`); `stillOpen`
    /// when a component it names is open further out.
    static func unmatchedEnd(_ kind: String, line: Int, open: (name: String, line: Int), stillOpen: Bool)
        -> ICalendarError
    {
        stillOpen
            ? ICalendarError(
                line: line, template: "END:%s but %s begun at line %s is still open (missing END:%s)", kind, open.name,
                open.line, open.name)
            : ICalendarError(
                line: line, template: "END:%s does not match BEGIN:%s at line %s", kind, open.name, open.line)
    }

    /// Undoes TEXT escaping: \n \N \, \; \\ (an unknown escape is kept as written).
    static func unescapeText(_ raw: String) -> String {
        decodeEscapes(raw, marker: "\\") {
            switch $0 {
            case "n", "N": "\n"
            case ",", ";", "\\": String($0)
            default: nil
            }
        }
    }

    /// Splits a list of TEXT values at commas that are not escaped.
    static func splitTextList(_ raw: String) -> [String] { splitUnescaped(raw, at: ",") }

    /// Splits at `separator` where it is not escaped by a backslash; the parts keep their escapes
    /// (TEXT lists at ',', vCard's structured values at ';').
    static func splitUnescaped(_ raw: String, at separator: Unicode.Scalar) -> [String] {
        var items: [String] = []
        var current = ""
        var escaped = false
        for scalar in raw.unicodeScalars {
            if escaped {
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == separator {
                items.append(current)
                current = ""
                continue
            }
            current.unicodeScalars.append(scalar)
        }
        items.append(current)
        return items
    }
}
