@testable import BeautyCore
import BeautyTestSupport
import Foundation
import Testing

/// A file read in pieces (ICalendarPiecePlanner, ICalendarPiece), as beautyctl reads one larger than a piece.
@Suite("iCalendar files read in pieces")
struct ICalendarPieceTests {
    /// Both scans of `text` fed in blocks of `blockBytes`, then every piece read: what `ICalendar.read` of the
    /// whole text gives when the file is valid, and the pieces' texts.
    static func readInPieces(_ text: String, pieceBytes: Int, blockBytes: Int = 7) throws -> (
        read: ICalendar.Import, pieces: Int
    ) {
        let data = Data(text.utf8)
        func scan(_ add: (ICalendarLineScanner.Line) throws -> Void) throws {
            var scanner = ICalendarLineScanner()
            var start = 0
            while start < data.count {
                try scanner.add(data.subdata(in: start..<min(data.count, start + blockBytes)), each: add)
                start += blockBytes
            }
            try scanner.finish(each: add)
        }
        var scanned = ICalendarPiecePlanner()
        try scan { try scanned.add($0) }
        try scanned.finish()
        var cut = ICalendarPiecePlanner(cutting: scanned, pieceBytes: pieceBytes)
        try scan { try cut.add($0) }
        var events: [CalendarEvent] = []
        var warnings: [ImportWarning] = []
        var skipped = SkippedComponents()
        for region in cut.regions {
            let calendar = cut.calendars[region.calendar]
            let piece = try ICalendarPiece(
                calendar: calendar, zones: calendar.zones.map { data.subdata(in: $0.start..<$0.end) },
                region: data.subdata(in: region.start..<region.end), at: region)
            let read = try piece.read(defaultZone: warsaw)
            events += read.events
            warnings += read.warnings
            skipped.add(read.skipped)
        }
        return (
            ICalendar.Import(events: events, warnings: warnings.sorted { $0.line < $1.line }, skipped: skipped),
            cut.regions.count
        )
    }

    static let zoneLast = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//beautyd tests//EN", "",
        "BEGIN:VEVENT", "UID:series@example.org", "DTSTAMP:20300101T000000Z", "DTSTART;TZID=Salon Time:20310105T090000",
        "DURATION:PT1H", "RRULE:FREQ=WEEKLY;COUNT=10", "SUMMARY:Weekly", " facial", "END:VEVENT",
        "BEGIN:VTODO", "UID:todo@example.org", "SUMMARY:Buy shampoo", "END:VTODO",
        "BEGIN:VEVENT", "UID:one@example.org", "DTSTAMP:20300101T000000Z", "DTSTART;TZID=Salon Time:20310107T100000",
        "DURATION:PT30M", "SUMMARY:Manicure", "END:VEVENT",
        "", "",
        "BEGIN:VEVENT", "UID:two@example.org", "DTSTAMP:20300101T000000Z", "DTSTART:20310108T100000Z",
        "DURATION:PT30M", "SUMMARY:Old title", "SEQUENCE:1", "END:VEVENT",
        "BEGIN:VEVENT", "UID:series@example.org", "DTSTAMP:20300101T000000Z",
        "RECURRENCE-ID;TZID=Salon Time:20310112T090000",
        "DTSTART;TZID=Salon Time:20310112T110000", "DURATION:PT1H", "SUMMARY:Moved facial", "END:VEVENT",
        "BEGIN:VEVENT", "UID:two@example.org", "DTSTAMP:20300101T000000Z", "DTSTART:20310108T100000Z",
        "DURATION:PT30M", "SUMMARY:New title", "SEQUENCE:2", "END:VEVENT",
        "BEGIN:VTIMEZONE", "TZID:Salon Time", "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:+0300",
        "TZOFFSETTO:+0300", "END:STANDARD", "END:VTIMEZONE",
        "END:VCALENDAR",
    ]

    @Test(
        "pieces of any size read as the whole file: zones defined after their events, one UID's events together, the file's lines",
        arguments: [1, 200, 400, 1 << 20])
    func piecesReadAsTheWhole(pieceBytes: Int) throws {
        for ending in ["\r\n", "\n", "\r"] {
            let text = Self.zoneLast.joined(separator: ending) + ending
            let whole = try ICalendar.read(text, defaultZone: warsaw)
            let (pieced, count) = try Self.readInPieces(text, pieceBytes: pieceBytes)
            #expect(
                pieced.events == whole.events, "pieces of \(pieceBytes) bytes, lines ending \(ending.debugDescription)")
            #expect(pieced.events.map(\.line) == whole.events.map(\.line))
            #expect(pieced.warnings.map(\.line) == whole.warnings.map(\.line))
            #expect(pieced.skipped == whole.skipped)
            if pieceBytes == 1 {
                // A piece ends after each component but where one of its UIDs has a later event: the series
                // and its moved occurrence, 'two' twice (with 'one' and the to-do between) are one piece; the zone another.
                #expect(count == 2, "\(count) pieces")
            }
        }
        let events = try ICalendar.read(Self.zoneLast.joined(separator: "\r\n"), defaultZone: warsaw).events
        #expect(events.first?.start == utc("2031-01-05T06:00:00Z"), "the zone at the end of the file is used")
        #expect(events.first { $0.uid == "two@example.org" }?.summary == "New title")
    }

    @Test(
        "events that cannot be cut (the first and the last share a UID) are refused once they pass the bound, not read as one piece"
    )
    func uncuttableEventsAreRefused() throws {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//beautyd tests//pieces//EN"]
        let count = 160_000
        for index in 0..<count {
            lines += [
                "BEGIN:VEVENT", "UID:\(index == 0 || index == count - 1 ? "same" : "event-\(index)")@pieces",
                "DTSTAMP:20261120T101500Z", "DTSTART:20270101T100000Z", "SUMMARY:Event \(index)",
                "DESCRIPTION:" + String(repeating: "x", count: 40), "END:VEVENT",
            ]
        }
        lines.append("END:VCALENDAR")
        let text = lines.joined(separator: "\n")
        #expect(text.utf8.count > 16 << 20)
        do {
            _ = try Self.readInPieces(text, pieceBytes: 4096, blockBytes: 1 << 20)
            Issue.record("a file whose events cannot be cut was read as one piece")
        } catch let error as ICalendarError {
            #expect(
                error.line == 2
                    && error.message(.english).contains("cannot be cut into parts smaller than 16777216 bytes"),
                "\(error)")
        }
    }

    @Test("an error in a late piece names the line of the file; BEGIN/END are checked before any piece is read")
    func errorsNameFileLines() throws {
        var late = Self.zoneLast
        late[try #require(late.firstIndex(of: "SUMMARY:New title")) - 2] = "DTSTART:20310108T25"
        var unclosed = Self.zoneLast
        unclosed.remove(at: try #require(unclosed.lastIndex(of: "END:VEVENT")))
        var stray = Self.zoneLast
        stray.insert("END:VTODO", at: 20)
        for lines in [late, unclosed, stray] {
            let text = lines.joined(separator: "\n")
            do {
                _ = try ICalendar.read(text, defaultZone: warsaw)
                Issue.record("the whole file is refused")
            } catch let expected as ICalendarError {
                #expect(throws: expected) { _ = try Self.readInPieces(text, pieceBytes: 1) }
            }
        }
    }
}
