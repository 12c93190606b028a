import Foundation

/// Counts the events of an iCalendar text fed to it block by block, holding only the first bytes of the
/// line being read: how large a file is can be known before it is parsed whole. Folded lines begin with
/// a space, so only real component and property lines are counted.
public struct ICalendarEventCensus: Sendable {
    /// BEGIN:VEVENT lines.
    public private(set) var events = 0
    /// RECURRENCE-ID lines: events that change an occurrence and may be merged into their series.
    public private(set) var changedOccurrences = 0
    private var lineStart: [UInt8] = []
    private static let prefixLength = 16

    public init() {}

    /// The appointments the file makes at least: every event that is not a changed occurrence.
    public var appointmentsAtLeast: Int { max(0, events - changedOccurrences) }

    public mutating func add(_ block: Data) {
        block.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard let base = buffer.baseAddress else { return }
            var position = 0
            while position < buffer.count {
                let rest = buffer.count - position
                let newline = memchr(base + position, Int32(UInt8(ascii: "\n")), rest)
                let end = newline.map { base.distance(to: UnsafeRawPointer($0)) } ?? buffer.count
                let wanted = min(Self.prefixLength - lineStart.count, end - position)
                if wanted > 0 { lineStart += UnsafeRawBufferPointer(rebasing: buffer[position..<(position + wanted)]) }
                guard newline != nil else { return }
                finishLine()
                position = end + 1
            }
        }
    }

    /// Counts the last line when it has no line break.
    public mutating func finish() { finishLine() }

    private mutating func finishLine() {
        defer { lineStart.removeAll(keepingCapacity: true) }
        // Most lines start with neither name: skip them cheaply.
        guard let first = lineStart.first,
            [UInt8(ascii: "B"), UInt8(ascii: "b"), UInt8(ascii: "R"), UInt8(ascii: "r")].contains(first)
        else { return }
        let upper = lineStart.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
        if Self.line(upper, is: "BEGIN:VEVENT", followedBy: [0x0D, 0x20, 0x09]) { events += 1 }
        if Self.line(upper, is: "RECURRENCE-ID", followedBy: [UInt8(ascii: ":"), UInt8(ascii: ";")]) {
            changedOccurrences += 1
        }
    }

    private static func line(_ line: [UInt8], is name: String, followedBy ends: [UInt8]) -> Bool {
        let name = Array(name.utf8)
        guard line.starts(with: name) else { return false }
        return line.count == name.count || ends.contains(line[name.count])
    }
}
