import Foundation

/// iCalendar (RFC 5545) reading and writing for `beautyctl import` / `export --ics`.
/// Pure: text in, events out (and back); no files, no clock.
public enum ICalendar {
    /// Parses every VEVENT of one or more VCALENDAR objects.
    ///
    /// - Lines end in CRLF, LF or CR; lines starting with a space or tab continue the one before.
    /// - DTSTART/DTEND/EXDATE/RDATE/RECURRENCE-ID: UTC ("Z"), `TZID=` (IANA names, prefixed
    ///   forms such as `/mozilla.org/20070129_1/Europe/Warsaw`, common Windows names such as
    ///   Outlook's "Central European Standard Time", an `X-LIC-LOCATION` in the VTIMEZONE, or
    ///   a VTIMEZONE that is one fixed offset), floating (in `defaultZone`; for properties
    ///   other than DTSTART, in the event's zone) and DATE values (all-day, midnight in
    ///   `defaultZone`). Wall times are resolved with `LocalTime.instant`: a time skipped by
    ///   DST is the first instant after the gap, a repeated time is its first occurrence.
    /// - Unknown properties and components (VTODO, VJOURNAL, X-...) are skipped.
    /// - A modified occurrence (a VEVENT with RECURRENCE-ID) becomes its own event with the
    ///   UID `<uid>#<recurrence-id in UTC, or the date>`, and its original instant is added
    ///   to the series' EXDATEs, so UIDs stay unique and importing twice changes nothing.
    /// - Several VEVENTs with one UID and no RECURRENCE-ID: the highest SEQUENCE wins (the
    ///   later one on a tie), in the place of the first.
    ///
    /// Throws `ICalendarError` with the 1-based line of the file as given (folded) and
    /// returns nothing when any part of the file is malformed.
    public static func parse(_ text: String, defaultZone: TimeZone) throws -> [CalendarEvent] {
        var collected = EventCollector()
        for calendar in try components(text) {
            var zones = ZoneResolver(calendar: calendar)
            for child in calendar.children where child.name == "VEVENT" {
                collected.add(try event(from: child, zones: &zones, defaultZone: defaultZone))
            }
        }
        return collected.finish()
    }
}

// MARK: - Content lines and components

/// One unfolded content line: `NAME;PARAM=V1,V2;...:VALUE`.
struct ICalProperty {
    var name: String  // upper-cased
    var params: [(name: String, values: [String])]
    var value: String  // raw: TEXT is not yet unescaped
    var line: Int

    func param(_ key: String) -> String? { params.first { $0.name == key }?.values.first }
}

struct ICalComponent {
    var name: String
    var line: Int
    var properties: [ICalProperty] = []
    var children: [ICalComponent] = []

    func first(_ name: String) -> ICalProperty? { properties.first { $0.name == name } }
    func all(_ name: String) -> [ICalProperty] { properties.filter { $0.name == name } }
}

extension ICalendar {
    /// Components that live directly in a VCALENDAR and may not nest in each other.
    private static let topLevel: Set<String> = ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE"]

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
                    throw ICalendarError(line: number, "a continuation line (starting with a space) has no line before it")
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
        let colon = UInt8(ascii: ":"), semicolon = UInt8(ascii: ";"), comma = UInt8(ascii: ","), quote = UInt8(ascii: "\"")
        let text = { (range: Range<Int>) in String(decoding: bytes[range], as: UTF8.self) }
        let preview = { () -> String in
            let whole = String(decoding: bytes, as: UTF8.self)
            return whole.count > 40 ? "\(whole.prefix(40))..." : whole
        }
        var i = 0
        while i < bytes.count, isNameByte(bytes[i]) { i += 1 }
        guard bytes.contains(colon) else {
            throw ICalendarError(line: line, "'\(preview())' is not a content line NAME:VALUE (no ':')")
        }
        guard i > 0, i < bytes.count, bytes[i] == colon || bytes[i] == semicolon else {
            throw ICalendarError(line: line, "'\(preview())' does not start with a property name")
        }
        let name = text(0..<i).uppercased()
        var params: [(name: String, values: [String])] = []
        while bytes[i] == semicolon {
            i += 1
            let nameStart = i
            while i < bytes.count, isNameByte(bytes[i]) { i += 1 }
            guard i > nameStart, i < bytes.count, bytes[i] == UInt8(ascii: "=") else {
                throw ICalendarError(line: line, "\(name) has a parameter without NAME=VALUE")
            }
            let paramName = text(nameStart..<i).uppercased()
            i += 1
            var values: [String] = []
            while true {
                if i < bytes.count, bytes[i] == quote {
                    guard let close = bytes[(i + 1)...].firstIndex(of: quote) else {
                        throw ICalendarError(line: line, "\(name) has an unterminated quoted \(paramName) value")
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
                throw ICalendarError(line: line, "\(name): malformed \(paramName) parameter (no ':' before the value)")
            }
            params.append((paramName, values))
        }
        return ICalProperty(name: name, params: params, value: text((i + 1)..<bytes.count), line: line)
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
    private static func decodeEscapes(_ raw: String, marker: Unicode.Scalar, _ meaning: (Unicode.Scalar) -> String?) -> String {
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

    /// The VCALENDAR objects of a file, with BEGIN/END balance checked.
    static func components(_ text: String) throws -> [ICalComponent] {
        let (lines, last) = try unfold(text)
        guard !lines.isEmpty else { throw ICalendarError(line: 1, "the file is empty (expected BEGIN:VCALENDAR)") }
        var stack: [ICalComponent] = []
        var calendars: [ICalComponent] = []
        for (bytes, number) in lines {
            let property = try property(bytes, line: number)
            let kind = property.value.trimmingCharacters(in: .whitespaces).uppercased()
            switch property.name {
            case "BEGIN":
                guard !kind.isEmpty else { throw ICalendarError(line: number, "BEGIN without a component name") }
                if let open = stack.last {
                    if kind == "VCALENDAR" || (topLevel.contains(kind) && open.name != "VCALENDAR") {
                        throw ICalendarError(line: number, "BEGIN:\(kind) inside \(open.name) begun at line \(open.line) (missing END:\(open.name))")
                    }
                } else if kind != "VCALENDAR" {
                    throw ICalendarError(line: number, "expected BEGIN:VCALENDAR, found BEGIN:\(kind)")
                }
                stack.append(ICalComponent(name: kind, line: number))
            case "END":
                guard let open = stack.last else {
                    throw ICalendarError(line: number, "END:\(kind) without a matching BEGIN:\(kind)")
                }
                guard open.name == kind else {
                    if stack.contains(where: { $0.name == kind }) {
                        throw ICalendarError(line: number, "END:\(kind) but \(open.name) begun at line \(open.line) is still open (missing END:\(open.name))")
                    }
                    throw ICalendarError(line: number, "END:\(kind) does not match BEGIN:\(open.name) at line \(open.line)")
                }
                let done = stack.removeLast()
                if stack.isEmpty { calendars.append(done) } else { stack[stack.count - 1].children.append(done) }
            default:
                guard !stack.isEmpty else {
                    throw ICalendarError(line: number, calendars.isEmpty
                        ? "expected BEGIN:VCALENDAR, found \(property.name)"
                        : "\(property.name) after END:VCALENDAR (expected BEGIN:VCALENDAR)")
                }
                stack[stack.count - 1].properties.append(property)
            }
        }
        if let open = stack.last {
            throw ICalendarError(line: last, "the file ends inside \(open.name) begun at line \(open.line) (missing END:\(open.name))")
        }
        return calendars
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
    static func splitTextList(_ raw: String) -> [String] {
        var items: [String] = []
        var current = ""
        var escaped = false
        for scalar in raw.unicodeScalars {
            if escaped {
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == "," {
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

// MARK: - Values

extension ICalendar {
    enum DateValue {
        case date(Wall)  // hour, minute and second are 0
        case dateTime(Wall, utc: Bool)

        var wall: Wall {
            switch self {
            case .date(let w), .dateTime(let w, _): return w
            }
        }
    }

    /// YYYYMMDD or YYYYMMDDTHHMMSS[Z], with the day checked against the calendar.
    static func dateValue(_ raw: String) -> DateValue? {
        let b = Array(raw.trimmingCharacters(in: .whitespaces).utf8)
        func number(_ from: Int, _ to: Int) -> Int? {
            guard b[from..<to].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return Int(String(decoding: b[from..<to], as: UTF8.self))
        }
        guard b.count == 8 || b.count == 15 || b.count == 16,
              let year = number(0, 4), let month = number(4, 6), let day = number(6, 8),
              LocalTime.isValidDay(year: year, month: month, day: day)
        else { return nil }
        if b.count == 8 { return .date(Wall(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)) }
        guard b[8] == UInt8(ascii: "T") || b[8] == UInt8(ascii: "t"),
              let hour = number(9, 11), let minute = number(11, 13), let second = number(13, 15),
              hour < 24, minute < 60, second <= 60
        else { return nil }
        let utc = b.count == 16
        if utc, b[15] != UInt8(ascii: "Z"), b[15] != UInt8(ascii: "z") { return nil }
        // A leap second (60) is kept as the second before it.
        return .dateTime(Wall(year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59)), utc: utc)
    }

    struct Duration {
        var negative: Bool
        var days: Int  // nominal days, weeks included
        var seconds: Int  // exact seconds

        var exactSeconds: Int { (negative ? -1 : 1) * (days * 86_400 + seconds) }
    }

    /// RFC 5545 DURATION: [+-]P[nW][nD][T[nH][nM][nS]], e.g. -PT15M, P1D, -P0DT0H30M0S.
    /// (Weeks and days together, which RFC 2445 did not allow, are accepted.)
    static func duration(_ raw: String) -> Duration? {
        var rest = Substring(raw.trimmingCharacters(in: .whitespaces).uppercased())
        var negative = false
        if let sign = rest.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            rest = rest.dropFirst()
        }
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        var days = 0, seconds = 0, rank = -1
        var inTime = false, sawPart = false, sawTimePart = false
        while let next = rest.first {
            if next == "T" {
                guard !inTime else { return nil }
                inTime = true
                rest = rest.dropFirst()
                continue
            }
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 9, let value = Int(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            guard let unit = rest.first else { return nil }
            rest = rest.dropFirst()
            let unitRank: Int
            switch (unit, inTime) {
            case ("W", false): unitRank = 0; days += value * 7
            case ("D", false): unitRank = 1; days += value
            case ("H", true): unitRank = 2; seconds += value * 3600
            case ("M", true): unitRank = 3; seconds += value * 60
            case ("S", true): unitRank = 4; seconds += value
            default: return nil
            }
            guard unitRank > rank else { return nil }
            rank = unitRank
            sawPart = true
            sawTimePart = sawTimePart || inTime
        }
        // Nothing in beautyd lasts or reminds more than a century ahead.
        guard sawPart, !inTime || sawTimePart, days * 86_400 + seconds <= 36_525 * 86_400 else { return nil }
        return Duration(negative: negative, days: days, seconds: seconds)
    }

    /// ±HHMM or ±HHMMSS, as in TZOFFSETTO.
    static func utcOffset(_ raw: String) -> Int? {
        let text = raw.trimmingCharacters(in: .whitespaces)
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let digits = text.dropFirst()
        guard digits.count == 4 || digits.count == 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let values = stride(from: 0, to: digits.count, by: 2).map {
            Int(digits.dropFirst($0).prefix(2))!
        }
        guard values[0] < 24, values[1] < 60, values.count < 3 || values[2] < 60 else { return nil }
        let seconds = values[0] * 3600 + values[1] * 60 + (values.count > 2 ? values[2] : 0)
        return sign == "-" ? -seconds : seconds
    }

    /// The wall time shifted by whole days in the zone (keeping the clock time, the way RFC
    /// 5545 adds nominal days), then by exact seconds.
    static func adding(days: Int, seconds: Int, to date: Date, in zone: TimeZone) -> Date {
        guard days != 0 else { return date.addingTimeInterval(TimeInterval(seconds)) }
        let w = wall(date, zone)
        let utc = TimeZone(identifier: "UTC")!
        let noon = LocalTime.instant(year: w.year, month: w.month, day: w.day, hour: 12, in: utc)!
        let day = wall(noon.addingTimeInterval(TimeInterval(days) * 86_400), utc)
        let shifted = LocalTime.instant(year: day.year, month: day.month, day: day.day, hour: w.hour,
                                        minute: w.minute, second: w.second, in: zone)
            ?? date.addingTimeInterval(TimeInterval(days) * 86_400)
        return shifted.addingTimeInterval(TimeInterval(seconds))
    }
}

// MARK: - Events

extension ICalendar {
    struct ParsedEvent {
        var event: CalendarEvent
        var recurrenceID: (key: String, instant: Date)?
        var sequence: Int
    }

    static func event(from c: ICalComponent, zones: inout ZoneResolver, defaultZone: TimeZone) throws -> ParsedEvent {
        guard let dtstart = c.first("DTSTART") else {
            throw ICalendarError(line: c.line, "VEVENT has no DTSTART")
        }
        let startValue = try dateValue(of: dtstart)
        // `zone`: where the event's floating and DATE values are (its TZID, else defaultZone);
        // `dayZone`: where DURATION adds nominal days (UTC for a UTC start).
        var zone = defaultZone
        var zoneName: String?
        var dayZone = defaultZone
        var allDay = false
        switch startValue {
        case .date: allDay = true
        case .dateTime(_, utc: true): dayZone = TimeZone(identifier: "UTC")!
        case .dateTime(_, utc: false):
            if let tzid = dtstart.param("TZID") { (zone, zoneName) = try zones.zone(tzid, line: dtstart.line) }
            dayZone = zone
        }
        let start = try instant(startValue, of: dtstart, floating: zone, zones: &zones)

        var durationSeconds = 0
        if let dtend = c.first("DTEND") {
            let end = try instant(try dateValue(of: dtend), of: dtend, floating: zone, zones: &zones)
            guard end >= start else { throw ICalendarError(line: dtend.line, "DTEND is before DTSTART") }
            durationSeconds = Int(end.timeIntervalSince(start).rounded())
        } else if let property = c.first("DURATION") {
            guard let value = duration(property.value) else {
                throw ICalendarError(line: property.line, "DURATION '\(property.value)' is not a duration such as PT1H30M or P1D")
            }
            guard !value.negative else { throw ICalendarError(line: property.line, "DURATION '\(property.value)' is negative") }
            let end = adding(days: value.days, seconds: value.seconds, to: start, in: dayZone)
            durationSeconds = Int(end.timeIntervalSince(start).rounded())
        } else if allDay {
            durationSeconds = Int(adding(days: 1, seconds: 0, to: start, in: dayZone).timeIntervalSince(start).rounded())
        }

        var event = CalendarEvent(uid: "", summary: text(c.first("SUMMARY")) ?? "", start: start, allDay: allDay,
                                  durationSeconds: durationSeconds, timeZone: allDay ? nil : zoneName)
        event.uid = text(c.first("UID"))?.trimmingCharacters(in: .whitespaces) ?? ""
        if event.uid.isEmpty {
            // RFC 5545 requires a UID and Google, Apple, Thunderbird and Outlook always write one.
            // For files that do not, the UID is a hash of the event's own lines, so importing
            // the same file twice still finds the same event.
            event.uid = synthesizedUID(c)
        }
        event.location = text(c.first("LOCATION"))
        event.notes = text(c.first("DESCRIPTION"))
        event.categories = c.all("CATEGORIES").flatMap { splitTextList($0.value).map(unescapeText) }.filter { !$0.isEmpty }
        event.status = c.first("STATUS").map { $0.value.trimmingCharacters(in: .whitespaces).uppercased() }.flatMap { $0.isEmpty ? nil : $0 }
        event.rrule = c.first("RRULE").map { $0.value.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        event.exdates = try dateList(c.all("EXDATE"), floating: zone, zones: &zones)
        event.rdates = try dateList(c.all("RDATE"), floating: zone, zones: &zones)
        event.color = text(c.first("X-BEAUTYD-COLOR")) ?? text(c.first("COLOR"))
        event.contactName = text(c.first("X-BEAUTYD-CONTACT"))
        if let price = c.first("X-BEAUTYD-PRICE") {
            let raw = unescapeText(price.value).trimmingCharacters(in: .whitespaces)
            guard let money = try? MoneyParser.parse(raw, defaultCurrency: "EUR", allowNegative: true) else {
                throw ICalendarError(line: price.line, "X-BEAUTYD-PRICE '\(raw)' is not an amount such as 45.50 EUR")
            }
            event.priceCents = money.cents
            event.currency = raw.contains(" ") ? money.currency : nil
        }
        for alarm in c.children where alarm.name == "VALARM" {
            // Apple writes ACTION:NONE placeholders for "no alarm"; a VALARM without TRIGGER is skipped.
            guard alarm.first("ACTION")?.value.trimmingCharacters(in: .whitespaces).uppercased() != "NONE",
                  let trigger = alarm.first("TRIGGER"),
                  let reminder = try reminder(trigger, durationSeconds: durationSeconds, floating: zone, zones: &zones),
                  !event.alarms.contains(reminder)
            else { continue }
            event.alarms.append(reminder)
        }

        var recurrenceID: (key: String, instant: Date)?
        if let rid = c.first("RECURRENCE-ID") {
            let value = try dateValue(of: rid)
            let at = try instant(value, of: rid, floating: zone, zones: &zones)
            if case .date(let w) = value {
                recurrenceID = (dateText(w), at)
            } else {
                recurrenceID = (utcText(at), at)
            }
        }
        let sequence = c.first("SEQUENCE").flatMap { Int($0.value.trimmingCharacters(in: .whitespaces)) } ?? 0
        return ParsedEvent(event: event, recurrenceID: recurrenceID, sequence: sequence)
    }

    /// An unescaped TEXT value; nil when absent or empty.
    private static func text(_ property: ICalProperty?) -> String? {
        guard let property else { return nil }
        let value = unescapeText(property.value)
        return value.isEmpty ? nil : value
    }

    private static func dateValue(of property: ICalProperty) throws -> DateValue {
        guard let value = dateValue(property.value) else {
            throw ICalendarError(line: property.line,
                                 "\(property.name) '\(property.value)' is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS, Z for UTC)")
        }
        return value
    }

    /// The instant of a date or date-time value: UTC, in the property's TZID, or else in `floating`.
    static func instant(_ value: DateValue, of property: ICalProperty, floating: TimeZone, zones: inout ZoneResolver) throws -> Date {
        var zone = floating
        switch value {
        case .dateTime(_, utc: true): zone = TimeZone(identifier: "UTC")!
        case .dateTime(_, utc: false): if let tzid = property.param("TZID") { zone = try zones.zone(tzid, line: property.line).zone }
        case .date: break
        }
        let w = value.wall
        guard let date = LocalTime.instant(year: w.year, month: w.month, day: w.day, hour: w.hour,
                                           minute: w.minute, second: w.second, in: zone)
        else { throw ICalendarError(line: property.line, "\(property.name) '\(property.value)' is not a time in \(zone.identifier)") }
        return date
    }

    /// EXDATE / RDATE: comma-separated values over one or more properties (a PERIOD counts
    /// by its start); duplicates are dropped.
    private static func dateList(_ properties: [ICalProperty], floating: TimeZone, zones: inout ZoneResolver) throws -> [Date] {
        var dates: [Date] = []
        for property in properties {
            for item in property.value.split(separator: ",") {
                let text = String(item.split(separator: "/", maxSplits: 1).first ?? item).trimmingCharacters(in: .whitespaces)
                guard !text.isEmpty else { continue }
                guard let value = dateValue(text) else {
                    throw ICalendarError(line: property.line, "\(property.name) '\(text)' is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS, Z for UTC)")
                }
                let date = try instant(value, of: property, floating: floating, zones: &zones)
                if !dates.contains(date) { dates.append(date) }
            }
        }
        return dates
    }

    /// A VALARM TRIGGER as a reminder: relative to the start (or, with RELATED=END, to the end),
    /// or absolute. Triggers after the start give nil.
    private static func reminder(
        _ trigger: ICalProperty, durationSeconds: Int, floating: TimeZone, zones: inout ZoneResolver
    ) throws -> Reminder? {
        let type = trigger.param("VALUE")?.uppercased()
        if type != "DATE-TIME", let offset = duration(trigger.value) {
            let relatedToEnd = trigger.param("RELATED")?.uppercased() == "END"
            let before = -(offset.exactSeconds + (relatedToEnd ? durationSeconds : 0))
            return before >= 0 ? .before(before) : nil
        }
        if type != "DURATION", let value = dateValue(trigger.value) {
            return .at(try instant(value, of: trigger, floating: floating, zones: &zones))
        }
        throw ICalendarError(line: trigger.line,
                             "TRIGGER '\(trigger.value)' is not a duration such as -PT15M or a date-time such as 20261201T090000Z")
    }

    /// "synthesized-<FNV-1a 64 of the event's lines>@beautyd", leaving out the lines that
    /// change whenever a program re-exports the same event.
    static func synthesizedUID(_ c: ICalComponent) -> String {
        let volatile: Set<String> = ["DTSTAMP", "LAST-MODIFIED", "CREATED", "SEQUENCE", "X-MOZ-GENERATION", "X-MOZ-LASTACK"]
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func feed(_ text: String) {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        func walk(_ component: ICalComponent) {
            feed("BEGIN:\(component.name)\n")
            for p in component.properties where !volatile.contains(p.name) {
                feed(p.name)
                for param in p.params { feed(";\(param.name)=\(param.values.joined(separator: ","))") }
                feed(":\(p.value)\n")
            }
            component.children.forEach(walk)
            feed("END:\(component.name)\n")
        }
        walk(c)
        let hex = String(hash, radix: 16)
        return "synthesized-\(String(repeating: "0", count: 16 - hex.count))\(hex)@beautyd"
    }

    /// Keeps UIDs unique: modified occurrences get their own UID and leave an EXDATE in their
    /// series; repeated UIDs keep the highest SEQUENCE.
    struct EventCollector {
        private var events: [CalendarEvent] = []
        private var slots: [String: (index: Int, sequence: Int)] = [:]
        private var moved: [(uid: String, instant: Date)] = []

        mutating func add(_ parsed: ParsedEvent) {
            var event = parsed.event
            if let rid = parsed.recurrenceID {
                moved.append((event.uid, rid.instant))
                event.uid = "\(event.uid)#\(rid.key)"
            }
            if let slot = slots[event.uid] {
                guard parsed.sequence >= slot.sequence else { return }
                events[slot.index] = event
                slots[event.uid] = (slot.index, parsed.sequence)
            } else {
                slots[event.uid] = (events.count, parsed.sequence)
                events.append(event)
            }
        }

        func finish() -> [CalendarEvent] {
            var result = events
            for (uid, instant) in moved {
                if let index = slots[uid]?.index, !result[index].exdates.contains(instant) {
                    result[index].exdates.append(instant)
                }
            }
            return result
        }
    }
}

// MARK: - Time zones

/// Turns TZID values into zones, once per name per calendar.
struct ZoneResolver {
    private var definitions: [String: ICalComponent] = [:]
    private var cache: [String: (zone: TimeZone, name: String?)] = [:]

    init(calendar: ICalComponent) {
        for child in calendar.children where child.name == "VTIMEZONE" {
            if let tzid = child.first("TZID")?.value.trimmingCharacters(in: .whitespaces), definitions[tzid] == nil {
                definitions[tzid] = child
            }
        }
    }

    /// The zone for a TZID and the IANA name to keep for it (nil for a bare fixed offset that
    /// has no Etc/GMT name). `line` is the line of the property that uses the TZID.
    mutating func zone(_ rawTZID: String, line: Int) throws -> (zone: TimeZone, name: String?) {
        let tzid = rawTZID.trimmingCharacters(in: .whitespaces)
        if let known = cache[tzid] { return known }
        let resolved = try resolve(tzid, line: line)
        cache[tzid] = resolved
        return resolved
    }

    private func resolve(_ tzid: String, line: Int) throws -> (zone: TimeZone, name: String?) {
        if let iana = Self.iana(tzid) { return (iana.zone, iana.name) }
        if let name = Self.windowsZones[tzid], let zone = TimeZone(identifier: name) { return (zone, name) }
        guard let definition = definitions[tzid] else {
            throw ICalendarError(line: line, "unknown time zone '\(tzid)': not an IANA name such as Europe/Warsaw, and the file has no VTIMEZONE for it")
        }
        // libical (Thunderbird, Evolution) names the IANA zone of its VTIMEZONEs.
        if let location = definition.first("X-LIC-LOCATION"), let iana = Self.iana(location.value) {
            return (iana.zone, iana.name)
        }
        let standard = definition.children.filter { $0.name == "STANDARD" }
        if !standard.isEmpty, !definition.children.contains(where: { $0.name == "DAYLIGHT" }) {
            var offsets = Set<Int>()
            for part in standard {
                guard let to = part.first("TZOFFSETTO") else {
                    throw ICalendarError(line: part.line, "STANDARD of time zone '\(tzid)' has no TZOFFSETTO")
                }
                guard let offset = ICalendar.utcOffset(to.value) else {
                    throw ICalendarError(line: to.line, "TZOFFSETTO '\(to.value)' is not an offset such as +0100")
                }
                offsets.insert(offset)
            }
            if offsets.count == 1, let offset = offsets.first {
                return Self.fixed(offset)
            }
        }
        throw ICalendarError(line: line, "time zone '\(tzid)' is not an IANA or known Windows name, and its VTIMEZONE (line \(definition.line)) has rules beautyd cannot follow; use an IANA name such as Europe/Warsaw")
    }

    /// An IANA name as such, or at the end of a prefixed TZID such as
    /// `/mozilla.org/20070129_1/Europe/Warsaw` or `/freeassociation.sourceforge.net/Tzfile/Europe/Warsaw`.
    private static func iana(_ raw: String) -> (zone: TimeZone, name: String)? {
        let tzid = raw.trimmingCharacters(in: .whitespaces)
        guard !tzid.isEmpty else { return nil }
        if let zone = TimeZone(identifier: tzid) { return (zone, tzid) }
        let parts = tzid.split(separator: "/")
        for count in [3, 2, 1] where parts.count >= count {
            let name = parts.suffix(count).joined(separator: "/")
            guard name != tzid, count > 1 || name == "UTC" else { continue }
            if let zone = TimeZone(identifier: name) { return (zone, name) }
        }
        return nil
    }

    /// A fixed offset: Etc/GMT∓H for whole hours (IANA's inverted sign), else a nameless zone.
    private static func fixed(_ offset: Int) -> (zone: TimeZone, name: String?) {
        let hours = offset / 3600
        if offset % 3600 == 0, (-12...14).contains(hours) {
            let name = hours == 0 ? "Etc/GMT" : "Etc/GMT\(hours > 0 ? "-" : "+")\(abs(hours))"
            if let zone = TimeZone(identifier: name) { return (zone, name) }
        }
        return (TimeZone(secondsFromGMT: offset) ?? TimeZone(identifier: "UTC")!, nil)
    }

    /// Common Windows zone names (Outlook, Exchange) to IANA, after CLDR's windowsZones.xml
    /// ("001" territory). Not every Windows zone: the rest need an IANA TZID or a VTIMEZONE
    /// with one fixed offset.
    static let windowsZones: [String: String] = [
        "Dateline Standard Time": "Etc/GMT+12",
        "UTC-11": "Etc/GMT+11",
        "Hawaiian Standard Time": "Pacific/Honolulu",
        "Alaskan Standard Time": "America/Anchorage",
        "Pacific Standard Time": "America/Los_Angeles",
        "US Mountain Standard Time": "America/Phoenix",
        "Mountain Standard Time": "America/Denver",
        "Central America Standard Time": "America/Guatemala",
        "Central Standard Time": "America/Chicago",
        "Central Standard Time (Mexico)": "America/Mexico_City",
        "Canada Central Standard Time": "America/Regina",
        "SA Pacific Standard Time": "America/Bogota",
        "Eastern Standard Time": "America/New_York",
        "Atlantic Standard Time": "America/Halifax",
        "Newfoundland Standard Time": "America/St_Johns",
        "Pacific SA Standard Time": "America/Santiago",
        "E. South America Standard Time": "America/Sao_Paulo",
        "Argentina Standard Time": "America/Argentina/Buenos_Aires",
        "SA Eastern Standard Time": "America/Cayenne",
        "UTC": "Etc/UTC",
        "GMT Standard Time": "Europe/London",
        "Greenwich Standard Time": "Atlantic/Reykjavik",
        "W. Europe Standard Time": "Europe/Berlin",
        "Central Europe Standard Time": "Europe/Budapest",
        "Romance Standard Time": "Europe/Paris",
        "Central European Standard Time": "Europe/Warsaw",
        "W. Central Africa Standard Time": "Africa/Lagos",
        "Morocco Standard Time": "Africa/Casablanca",
        "GTB Standard Time": "Europe/Bucharest",
        "FLE Standard Time": "Europe/Kiev",
        "E. Europe Standard Time": "Europe/Chisinau",
        "Kaliningrad Standard Time": "Europe/Kaliningrad",
        "Egypt Standard Time": "Africa/Cairo",
        "South Africa Standard Time": "Africa/Johannesburg",
        "Israel Standard Time": "Asia/Jerusalem",
        "Jordan Standard Time": "Asia/Amman",
        "Turkey Standard Time": "Europe/Istanbul",
        "Belarus Standard Time": "Europe/Minsk",
        "Russian Standard Time": "Europe/Moscow",
        "Arab Standard Time": "Asia/Riyadh",
        "E. Africa Standard Time": "Africa/Nairobi",
        "Iran Standard Time": "Asia/Tehran",
        "Arabian Standard Time": "Asia/Dubai",
        "Pakistan Standard Time": "Asia/Karachi",
        "India Standard Time": "Asia/Kolkata",
        "Nepal Standard Time": "Asia/Kathmandu",
        "SE Asia Standard Time": "Asia/Bangkok",
        "China Standard Time": "Asia/Shanghai",
        "Singapore Standard Time": "Asia/Singapore",
        "Taipei Standard Time": "Asia/Taipei",
        "Tokyo Standard Time": "Asia/Tokyo",
        "Korea Standard Time": "Asia/Seoul",
        "W. Australia Standard Time": "Australia/Perth",
        "Cen. Australia Standard Time": "Australia/Adelaide",
        "E. Australia Standard Time": "Australia/Brisbane",
        "AUS Eastern Standard Time": "Australia/Sydney",
        "Tasmania Standard Time": "Australia/Hobart",
        "Lord Howe Standard Time": "Australia/Lord_Howe",
        "New Zealand Standard Time": "Pacific/Auckland",
    ]
}
