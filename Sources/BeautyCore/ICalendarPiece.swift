import Foundation

/// One region of a large iCalendar file (`ICalendarPiecePlanner`) made a calendar of its own: BEGIN:VCALENDAR,
/// its calendar's VTIMEZONEs, the region's lines as they are in the file, END:VCALENDAR. What `read`
/// returns names lines of the file, not of the piece.
public struct ICalendarPiece {
    public let text: String
    /// (first line in the piece, the file line it is): the parts in order.
    private let parts: [(pieceLine: Int, fileLine: Int)]

    /// `zones` and `region` are the bytes of the file at the planner's ranges.
    public init(
        calendar: ICalendarPiecePlanner.Calendar, zones: [Data], region: Data, at range: ICalendarPiecePlanner.Region
    ) throws {
        var bytes = Data("BEGIN:VCALENDAR\r\n".utf8)
        var parts = [(pieceLine: 1, fileLine: calendar.beginLine)]
        var next = 2
        func append(_ part: Data, firstLine: Int, lastLine: Int) {
            parts.append((next, firstLine))
            bytes.append(part)
            // A line break ends the part's last line; it adds no line.
            if let last = part.last, last != 0x0A, last != 0x0D { bytes.append(contentsOf: [0x0D, 0x0A]) }
            next += lastLine - firstLine + 1
        }
        for (zone, data) in zip(calendar.zones, zones) {
            append(data, firstLine: zone.firstLine, lastLine: zone.lastLine)
        }
        append(region, firstLine: range.firstLine, lastLine: range.lastLine)
        parts.append((next, calendar.endLine))
        bytes.append(contentsOf: Array("END:VCALENDAR\r\n".utf8))
        guard let text = String(data: bytes, encoding: .utf8) else { throw NotUTF8() }
        self.text = text
        self.parts = parts
    }

    /// The bytes of the file are not UTF-8 text.
    public struct NotUTF8: Error {}

    /// The file's line for a line of `text`.
    public func fileLine(_ line: Int) -> Int {
        guard let part = parts.last(where: { $0.pieceLine <= line }) else { return line }
        return part.fileLine + (line - part.pieceLine)
    }

    /// `ICalendar.read` of the piece, with the file's lines.
    public func read(defaultZone: TimeZone) throws -> ICalendar.Import {
        var read: ICalendar.Import
        do {
            read = try ICalendar.read(text, defaultZone: defaultZone)
        } catch var error as ICalendarError {
            error.line = fileLine(error.line)
            throw error
        }
        for index in read.events.indices { read.events[index].line = read.events[index].line.map(fileLine) }
        for index in read.warnings.indices { read.warnings[index].line = fileLine(read.warnings[index].line) }
        read.skipped = read.skipped.mappingLines(fileLine)
        for index in read.skippedEvents.indices {
            read.skippedEvents[index].line = fileLine(read.skippedEvents[index].line)
        }
        return read
    }
}
