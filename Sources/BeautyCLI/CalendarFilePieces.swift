import BeautyCore
import Foundation

/// An .ics file larger than one piece, read a piece at a time: beautyctl holds one piece, its events and
/// what was sent of it, never the whole file (parsing holds about ten times the text it parses).
///
/// The file is read twice before it is parsed, 1 MiB at a time: the first read counts its events, checks
/// its BEGIN/END and notes its VTIMEZONEs and UIDs; the second cuts it into pieces. A VTIMEZONE after the
/// events that use it is known before the first piece is parsed, and the events of one UID are kept in one
/// piece (see `ICalendarPiecePlanner`).
struct CalendarFilePieces {
    /// Pieces aim at this many bytes; BEAUTYCTL_IMPORT_PIECE_BYTES sets another size (tests use small pieces).
    static var pieceBytes: Int {
        ProcessInfo.processInfo.environment["BEAUTYCTL_IMPORT_PIECE_BYTES"].flatMap { Int($0) }.map { max(1, $0) } ?? 4
            << 20
    }
    private static let blockBytes = 1 << 20

    let path: String
    private let plan: ICalendarPiecePlanner

    /// Reads `path` through `census` and plans its pieces; nil (with `census` not fed) when the file is no
    /// larger than one piece, or does not begin with BEGIN:VCALENDAR (bare VEVENTs, or not iCalendar at
    /// all): it is read whole, by `ICalendar.read`'s rules for such files.
    static func plan(_ path: String, census: inout ICalendarEventCensus, refuse: (ICalendarEventCensus) throws -> Void)
        throws -> CalendarFilePieces?
    {
        let pieceBytes = Self.pieceBytes
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > pieceBytes,
            beginsWithACalendar(path)
        else { return nil }
        var scanned = ICalendarPiecePlanner()
        try scan(path) { block, scanner in
            census.add(block)
            try scanner.add(block) { try scanned.add($0) }
        } finish: { scanner in
            try scanner.finish { try scanned.add($0) }
        }
        census.finish()
        try refuse(census)
        try scanned.finish()
        var cut = ICalendarPiecePlanner(cutting: scanned, pieceBytes: pieceBytes)
        try scan(path) { block, scanner in
            try scanner.add(block) { try cut.add($0) }
        } finish: { scanner in
            try scanner.finish { try cut.add($0) }
        }
        return CalendarFilePieces(path: path, plan: cut)
    }

    /// Whether the file's first line is BEGIN:VCALENDAR (any case, after a byte order mark).
    private static func beginsWithACalendar(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        var head = (try? handle.read(upToCount: 64)) ?? Data()
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head.removeFirst(3) }
        return String(decoding: head.prefix(15), as: UTF8.self).uppercased() == "BEGIN:VCALENDAR"
    }

    /// Each piece parsed, in file order, with the file's lines.
    func forEach(defaultZone: TimeZone, _ body: (ICalendar.Import) throws -> Void) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CalendarFile.cannotRead(path) }
        defer { try? handle.close() }
        var zones: (calendar: Int, data: [Data]) = (-1, [])
        for region in plan.regions {
            let calendar = plan.calendars[region.calendar]
            if zones.calendar != region.calendar {
                zones = (region.calendar, try calendar.zones.map { try bytes(handle, $0.start, $0.end) })
            }
            let piece: ICalendarPiece
            do {
                piece = try ICalendarPiece(
                    calendar: calendar, zones: zones.data, region: try bytes(handle, region.start, region.end),
                    at: region)
            } catch is ICalendarPiece.NotUTF8 {
                throw CalendarFile.notICalendarText(path)
            }
            try body(try piece.read(defaultZone: defaultZone))
        }
    }

    private func bytes(_ handle: FileHandle, _ start: Int, _ end: Int) throws -> Data {
        do {
            try handle.seek(toOffset: UInt64(start))
            let data = try handle.read(upToCount: end - start) ?? Data()
            guard data.count == end - start else { throw CalendarFile.cannotRead(path) }
            return data
        } catch let failure as CLIFailure {
            throw failure
        } catch {
            throw CalendarFile.cannotRead(path)
        }
    }

    private static func scan(
        _ path: String, _ each: (Data, inout ICalendarLineScanner) throws -> Void,
        finish: (inout ICalendarLineScanner) throws -> Void
    ) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CalendarFile.cannotRead(path) }
        defer { try? handle.close() }
        var scanner = ICalendarLineScanner()
        while true {
            let block: Data?
            do { block = try handle.read(upToCount: blockBytes) } catch { throw CalendarFile.cannotRead(path) }
            guard let block, !block.isEmpty else { break }
            try each(block, &scanner)
        }
        try finish(&scanner)
    }
}
