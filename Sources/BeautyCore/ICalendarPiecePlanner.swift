import Foundation

/// Cuts an iCalendar file too large to parse whole into pieces that can be parsed one at a time, from
/// two scans of its lines (`ICalendarLineScanner`), neither holding more than a few bytes per event:
///
/// 1. `scan` checks BEGIN/END the way `ICalendar.read` does (the same errors at the same lines), notes
///    where each VTIMEZONE is and the last component that uses each UID.
/// 2. `cut` (given the first scan's result) ends a piece after the top-level component that makes it
///    at least `pieceBytes` long, unless a later component has the UID of one in the piece: the events
///    of one UID (a series, its changed occurrences, several SEQUENCEs of it) are read together.
///
/// Each piece is then parsed as its own VCALENDAR with all of its calendar's VTIMEZONEs before it
/// (`ICalendarPiece`), so an event can use a zone defined anywhere in the file, even after it.
public struct ICalendarPiecePlanner: Sendable {
    /// The lines of a VCALENDAR's VTIMEZONE, and where they are in the file.
    public struct Zone: Sendable, Equatable {
        public var start: Int
        public var end: Int
        public var firstLine: Int
        public var lastLine: Int
    }

    public struct Calendar: Sendable, Equatable {
        public var beginLine: Int
        public var endLine = 0
        public var zones: [Zone] = []
    }

    /// Lines of one calendar between its BEGIN:VCALENDAR and END:VCALENDAR, to be parsed together.
    public struct Region: Sendable, Equatable {
        public var calendar: Int
        public var start: Int
        public var end: Int
        public var firstLine: Int
        public var lastLine: Int
    }

    /// Zones a file may define in all, in bytes: each piece is parsed with all of them, and real ones
    /// take a few KiB.
    public static let maximumZoneBytes = 1 << 20

    private static let topLevel: Set<String> = ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE"]

    public private(set) var calendars: [Calendar] = []
    public private(set) var regions: [Region] = []
    /// For each UID (as a hash: a collision only keeps two events together), its last component.
    public private(set) var lastComponentOfUID: [UInt64: Int] = [:]

    private let pieceBytes: Int
    private let cutting: Bool
    private var stack: [(name: String, line: Int)] = []
    private var ended = false
    private var lastLine = 0
    private var component = -1
    private var componentUID: UInt64?
    private var componentStart: (offset: Int, line: Int) = (0, 0)
    private var zoneBytes = 0
    private var regionStart: (offset: Int, line: Int) = (0, 0)
    /// The last component the piece being cut must reach so that each of its UIDs is whole.
    private var regionReach = -1

    /// The first scan.
    public init() {
        pieceBytes = 0
        cutting = false
    }

    /// The most a piece may hold when the events cannot be cut sooner.
    private var maximumRegionBytes: Int { Swift.max(4 * pieceBytes, 16 << 20) }

    /// The second scan, with the first one's result.
    public init(cutting scanned: ICalendarPiecePlanner, pieceBytes: Int) {
        self.pieceBytes = pieceBytes
        cutting = true
        lastComponentOfUID = scanned.lastComponentOfUID
    }

    public mutating func add(_ line: ICalendarLineScanner.Line) throws {
        lastLine = line.lastLine
        let name = Self.name(line.head)
        switch name {
        case "BEGIN": try begin(Self.value(line.head).trimmingWhitespace().uppercased(), line)
        case "END": try end(Self.value(line.head).trimmingWhitespace().uppercased(), line)
        default:
            guard !stack.isEmpty else {
                throw ended
                    ? ICalendarError(
                        line: line.firstLine, template: "%s after END:VCALENDAR (expected BEGIN:VCALENDAR)", name)
                    : ICalendarError(line: line.firstLine, template: "expected BEGIN:VCALENDAR, found %s", name)
            }
            if stack.count == 2, stack[1].name == "VEVENT", name == "UID" {
                componentUID = Self.hash(Array(Self.value(line.head).utf8).trimmingASCIISpaces())
            }
        }
    }

    /// Checks that the file ended with every component closed.
    public mutating func finish() throws {
        guard lastLine > 0 else {
            throw ICalendarError(line: 1, template: "the file is empty (expected BEGIN:VCALENDAR)")
        }
        if let open = stack.last {
            throw ICalendarError(
                line: lastLine, template: "the file ends inside %s begun at line %s (missing END:%s)", open.name,
                open.line, open.name)
        }
    }

    private mutating func begin(_ kind: String, _ line: ICalendarLineScanner.Line) throws {
        let number = line.firstLine
        guard !kind.isEmpty else { throw ICalendarError(line: number, template: "BEGIN without a component name") }
        if let open = stack.last {
            if kind == "VCALENDAR" || (Self.topLevel.contains(kind) && open.name != "VCALENDAR") {
                throw ICalendarError(
                    line: number, template: "BEGIN:%s inside %s begun at line %s (missing END:%s)", kind, open.name,
                    open.line, open.name)
            }
        } else if kind != "VCALENDAR" {
            throw ICalendarError(line: number, template: "expected BEGIN:VCALENDAR, found BEGIN:%s", kind)
        }
        guard stack.count < ICalendar.maximumDepth else {
            throw ICalendarError(
                line: number, template: "BEGIN:%s nests components more than %s deep", kind, ICalendar.maximumDepth)
        }
        switch stack.count {
        case 0:
            calendars.append(Calendar(beginLine: number))
            regionStart = (line.end, line.lastLine + 1)
            regionReach = -1
        case 1:
            component += 1
            componentUID = nil
            componentStart = (line.start, number)
        default: break
        }
        stack.append((kind, number))
    }

    private mutating func end(_ kind: String, _ line: ICalendarLineScanner.Line) throws {
        let number = line.firstLine
        guard let open = stack.last else {
            throw ICalendarError(line: number, template: "END:%s without a matching BEGIN:%s", kind, kind)
        }
        guard open.name == kind else {
            throw ICalendar.unmatchedEnd(kind, line: number, open: open, stillOpen: stack.contains { $0.name == kind })
        }
        stack.removeLast()
        switch stack.count {
        case 0:
            ended = true
            calendars[calendars.count - 1].endLine = number
            if line.start > regionStart.offset { addRegion(to: (line.start, number - 1)) }
        case 1:
            try noteComponent(kind, line)
            if let uid = componentUID { regionReach = max(regionReach, lastComponentOfUID[uid] ?? component) }
            if cutting, line.end - regionStart.offset >= pieceBytes, component >= regionReach {
                addRegion(to: (line.end, line.lastLine))
            }
            // A piece is parsed whole: events that share one UID across the file, or one huge event,
            // must not make one piece of all of it.
            if cutting, line.end - regionStart.offset > maximumRegionBytes {
                throw ICalendarError(
                    line: regionStart.line,
                    template:
                        "the events from line %s on cannot be cut into parts smaller than %s bytes (events that share one UID, or one event, are larger): split the file there",
                    regionStart.line, maximumRegionBytes)
            }
        default: break
        }
    }

    private mutating func noteComponent(_ kind: String, _ line: ICalendarLineScanner.Line) throws {
        if !cutting, let uid = componentUID { lastComponentOfUID[uid] = component }
        guard kind == "VTIMEZONE" else { return }
        zoneBytes += line.end - componentStart.offset
        guard zoneBytes <= Self.maximumZoneBytes else {
            throw ICalendarError(
                line: componentStart.line,
                template: "the file's VTIMEZONE components are larger than %s bytes in all (too large to read)",
                Self.maximumZoneBytes)
        }
        calendars[calendars.count - 1].zones.append(
            Zone(
                start: componentStart.offset, end: line.end,
                firstLine: componentStart.line, lastLine: line.lastLine))
    }

    private mutating func addRegion(to last: (offset: Int, line: Int)) {
        if cutting {
            regions.append(
                Region(
                    calendar: calendars.count - 1, start: regionStart.offset, end: last.offset,
                    firstLine: regionStart.line, lastLine: last.line))
        }
        regionStart = (last.offset, last.line + 1)
        regionReach = -1
    }

    /// The property name: up to the first ':' or ';', in capitals.
    private static func name(_ head: [UInt8]) -> String {
        let end = head.firstIndex { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ";") } ?? head.endIndex
        return String(decoding: head[..<end], as: UTF8.self).uppercased()
    }

    /// The value: after the first ':' outside a quoted parameter.
    private static func value(_ head: [UInt8]) -> String {
        var quoted = false
        for (index, byte) in head.enumerated() {
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if byte == UInt8(ascii: ":"), !quoted { return String(decoding: head[(index + 1)...], as: UTF8.self) }
        }
        return ""
    }

    /// FNV-1a.
    private static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }
}

private extension Array where Element == UInt8 {
    func trimmingASCIISpaces() -> ArraySlice<UInt8> {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return []
        }
        return self[first...last]
    }
}
