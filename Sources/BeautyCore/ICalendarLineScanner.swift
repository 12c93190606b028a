import Foundation

/// The logical (unfolded) lines of an iCalendar text fed block by block, numbered as `ICalendar.unfold`
/// numbers them (CRLF, LF or CR end a line; blank lines count but belong to no logical line), each with
/// the byte range it spans in the file. Only the first `headLength` bytes of a line are kept: a file of any
/// size is scanned in a few KiB.
public struct ICalendarLineScanner: Sendable {
    public struct Line: Sendable {
        /// The first bytes of the unfolded line (its name, parameters and the start of its value).
        public var head: [UInt8]
        /// The numbers of its first and last physical lines (more than one when folded).
        public var firstLine: Int
        public var lastLine: Int
        /// Byte offsets of its first byte and of the byte after its last line break.
        public var start: Int
        public var end: Int
    }

    public static let headLength = 1024

    private var offset = 0
    private var physical = 0
    private var current: Line?
    private var atLineStart = true
    /// The physical line being read continues `current` (folded) rather than being blank.
    private var inCurrent = false
    private var afterCR = false
    private var headRoom = 0

    public init() {}

    /// Feeds the next block; `each` is given every logical line once the next one has begun.
    public mutating func add(_ block: Data, each: (Line) throws -> Void) throws {
        try block.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var index = 0
            while index < buffer.count {
                let byte = buffer[index]
                defer { index += 1; offset += 1 }
                if afterCR {
                    afterCR = false
                    if byte == 0x0A {
                        if inCurrent { current?.end = offset + 1 }
                        inCurrent = false
                        continue
                    }
                    inCurrent = false
                }
                if byte == 0x0A || byte == 0x0D {
                    if atLineStart { physical += 1 }  // a blank line
                    if inCurrent || !atLineStart { current?.end = offset + 1 }
                    atLineStart = true
                    afterCR = byte == 0x0D
                    if !afterCR { inCurrent = false }
                    continue
                }
                if atLineStart {
                    atLineStart = false
                    physical += 1
                    if byte == 0x20 || byte == 0x09 {
                        guard current != nil else {
                            throw ICalendarError(
                                line: physical,
                                template: "a continuation line (starting with a space) has no line before it")
                        }
                        current?.lastLine = physical
                        inCurrent = true
                        continue  // the fold's space is not part of the line
                    }
                    if let done = current { try each(finished(done)) }
                    current = Line(head: [], firstLine: physical, lastLine: physical, start: offset, end: offset + 1)
                    headRoom = Self.headLength
                    inCurrent = true
                }
                if headRoom > 0 {
                    current?.head.append(byte)
                    headRoom -= 1
                }
                current?.end = offset + 1
            }
        }
    }

    /// The last line, at the end of the text.
    public mutating func finish(each: (Line) throws -> Void) throws {
        if let done = current { try each(finished(done)) }
        current = nil
    }

    private func finished(_ line: Line) -> Line {
        var line = line
        if line.start == 0, line.head.starts(with: [0xEF, 0xBB, 0xBF]) { line.head.removeFirst(3) }
        return line
    }
}
