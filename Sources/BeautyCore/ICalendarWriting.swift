import Foundation

extension ICalendar {
    /// Writes a VCALENDAR: CRLF line ends, lines folded at 75 octets (never inside a UTF-8
    /// sequence), TEXT escaped, events in the given order and properties in a fixed order, so
    /// the same events and `stamp` always give the same bytes. DTSTAMP is `stamp` in UTC: the
    /// moment the file is written (RFC 5545 §3.8.7.2).
    ///
    /// Times: a timed event with a resolvable `timeZone` is written with `TZID=<IANA name>`, and
    /// the file has a VTIMEZONE for every TZID it uses, built from the tz database
    /// (`vtimezone`); a series in UTC with `Z`; an event without a zone floating (its wall time in
    /// `defaultZone`), so it reads back as one that follows the reader's zone. A series' DTSTART
    /// in a DST gap is written with the wall time it was given (`startWall`). All-day events are
    /// `VALUE=DATE` with an exclusive DTEND (the next day for one day).
    public static func serialize(_ events: [CalendarEvent], stamp: Date, defaultZone: TimeZone) -> String {
        String(decoding: serializedBytes(events, stamp: stamp, defaultZone: defaultZone), as: UTF8.self)
    }

    /// `serialize`'s text as UTF-8, built as bytes: an export of a hundred thousand events is 22 MB.
    public static func serializedBytes(_ events: [CalendarEvent], stamp: Date, defaultZone: TimeZone) -> [UInt8] {
        serializedBytes(
            events, stamp: stamp, defaultZone: defaultZone,
            parts: events.count < 2_000 ? 1 : max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8)))
    }

    /// `parts`: how many parts of the list are written at once.
    static func serializedBytes(_ events: [CalendarEvent], stamp: Date, defaultZone: TimeZone, parts: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 * 1024 + events.count * 256)
        func emit(_ line: String) { appendFolded(line, to: &out) }
        emit("BEGIN:VCALENDAR")
        emit("VERSION:2.0")
        emit("PRODID:-//beautyd//beautyd//EN")
        emit("CALSCALE:GREGORIAN")
        emit("X-WR-CALNAME:beautyd")
        let zones = ZoneCache()
        for (name, years) in zonesUsed(events, zones: zones) {
            vtimezone(name, years: years).forEach(emit)
        }
        let stampText = utcText(stamp)
        for part in written(events, inParts: parts, stamp: stampText, defaultZone: defaultZone) {
            out.append(contentsOf: part)
        }
        emit("END:VCALENDAR")
        return out
    }

    /// The events' VEVENTs, `count` parts of the list written at once, one per processor (each event's
    /// text depends on that event alone): a hundred thousand take a fifth of a second on one.
    private static func written(_ events: [CalendarEvent], inParts count: Int, stamp: String, defaultZone: TimeZone)
        -> [[UInt8]]
    {
        let parts = PartResults(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { part in
            let range = (events.count * part / count)..<(events.count * (part + 1) / count)
            var out: [UInt8] = []
            out.reserveCapacity(range.count * 256)
            let zones = ZoneCache()
            for index in range {
                writeEvent(events[index], stamp: stamp, defaultZone: defaultZone, zones: zones) {
                    appendFolded($0, to: &out)
                }
            }
            parts.set(part, out)
        }
        return parts.all
    }

    /// Where the parts written at once are put, each by its own iteration.
    private final class PartResults: @unchecked Sendable {
        private var parts: [[UInt8]]
        private let lock = NSLock()

        init(count: Int) { parts = Array(repeating: [], count: count) }

        func set(_ index: Int, _ bytes: [UInt8]) {
            lock.lock()
            defer { lock.unlock() }
            parts[index] = bytes
        }

        var all: [[UInt8]] {
            lock.lock()
            defer { lock.unlock() }
            return parts
        }
    }

    /// Time zones by name, each looked up once per file rather than once per event that names it.
    final class ZoneCache {
        private var zones: [String: TimeZone?] = [:]

        func zone(_ name: String) -> TimeZone? {
            if let known = zones[name] { return known }
            let zone = TimeZone(identifier: name)
            zones[name] = zone
            return zone
        }
    }

    /// Names that mean UTC itself: a series in them is written with `Z`, not a TZID.
    static let utcNames: Set<String> = ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Z"]

    /// The zone a timed event's times are written in with a TZID; nil for UTC, floating and all-day.
    static func tzidZone(_ event: CalendarEvent, zones: ZoneCache) -> (name: String, zone: TimeZone)? {
        guard !event.allDay, let name = event.timeZone, !utcNames.contains(name), let zone = zones.zone(name)
        else { return nil }
        return (name, zone)
    }

    private static func writeEvent(
        _ event: CalendarEvent, stamp: String, defaultZone: TimeZone, zones: ZoneCache, emit: (String) -> Void
    ) {
        let named = event.timeZone.flatMap { name in zones.zone(name).map { (name: name, zone: $0) } }
        let tzidZone = tzidZone(event, zones: zones)
        let start = wholeSeconds(event.start)
        emit("BEGIN:VEVENT")
        emit("UID:\(escapeText(event.uid))")
        emit("DTSTAMP:\(stamp)")
        // How every instant of this event is written: a DATE, a wall time (TZID or floating), or UTC.
        let instantText: (String, Date) -> String
        if event.allDay {
            let zone = named?.zone ?? defaultZone
            let days = max(1, Int((Double(event.durationSeconds) / 86_400).rounded()))
            let first = wall(start, zone)
            emit("DTSTART;VALUE=DATE:\(dateText(first))")
            emit("DTEND;VALUE=DATE:\(dateText(dayAfter(first, days: days)))")
            instantText = { name, date in "\(name);VALUE=DATE:\(dateText(wall(wholeSeconds(date), zone)))" }
        } else if event.timeZone == nil || tzidZone != nil {
            let (zone, tzid) = tzidZone.map { ($0.zone, ";TZID=\(paramValue($0.name))") } ?? (defaultZone, "")
            // A wall time in the repeated hour after a fall-back reads back as its first
            // occurrence; instants that would not survive that are written in UTC instead.
            instantText = { name, date in
                let exact = wholeSeconds(date)
                let w = wall(exact, zone)
                let back = LocalTime.instant(
                    year: w.year, month: w.month, day: w.day, hour: w.hour,
                    minute: w.minute, second: w.second, in: zone)
                return back == exact ? "\(name)\(tzid):\(dateTimeText(w))" : "\(name):\(utcText(exact))"
            }
            // DTSTART keeps its zone even in the repeated hour (it reads back as the first one).
            emit("DTSTART\(tzid):\(dateTimeText(givenWall(event, zone: zone) ?? wall(start, zone)))")
            emit(instantText("DTEND", start.addingTimeInterval(TimeInterval(max(0, event.durationSeconds)))))
        } else {
            emit("DTSTART:\(utcText(start))")
            instantText = { name, date in "\(name):\(utcText(date))" }
            emit(instantText("DTEND", start.addingTimeInterval(TimeInterval(max(0, event.durationSeconds)))))
        }
        if let rid = event.recurrenceID {
            // Written as the series' DTSTART is: a DATE for an all-day series, else like this event's instants.
            if event.recurrenceIDIsDate {
                emit("RECURRENCE-ID;VALUE=DATE:\(dateText(wall(wholeSeconds(rid), named?.zone ?? defaultZone)))")
            } else if event.allDay {
                emit("RECURRENCE-ID:\(utcText(rid))")
            } else {
                emit(instantText("RECURRENCE-ID", rid))
            }
        }
        if !event.summary.isEmpty { emit("SUMMARY:\(escapeText(event.summary))") }
        emitText("LOCATION", event.location, emit)
        emitText("DESCRIPTION", event.notes, emit)
        let categories = event.categories.filter { !$0.isEmpty }
        if !categories.isEmpty { emit("CATEGORIES:\(categories.map(escapeText).joined(separator: ","))") }
        if let status = event.status.map(stripControls), !status.isEmpty { emit("STATUS:\(status)") }
        for rule in ([event.rrule].compactMap { $0 } + event.moreRules).map(stripControls) where !rule.isEmpty {
            emit("RRULE:\(rule)")
        }
        for date in event.exdates { emit(instantText("EXDATE", date)) }
        for date in event.rdates { emit(instantText("RDATE", date)) }
        if let color = event.color, !color.isEmpty {
            // RFC 7986 COLOR takes CSS colour names only; #rrggbb stays in X-BEAUTYD-COLOR.
            if color.allSatisfy({ $0.isASCII && $0.isLetter }) { emit("COLOR:\(color)") }
            emit("X-BEAUTYD-COLOR:\(escapeText(color))")
        }
        if let cents = event.priceCents {
            let currency = event.currency ?? ""
            let amount = Money(cents: cents, currency: currency).formatted.trimmingCharacters(in: .whitespaces)
            emit("X-BEAUTYD-PRICE:\(escapeText(amount))")
        }
        if let name = event.contactName, !name.isEmpty {
            let phone = event.contactPhone.map { ";X-BEAUTYD-PHONE=\(paramValue(stripControls($0)))" } ?? ""
            emit("X-BEAUTYD-CONTACT\(phone):\(escapeText(name))")
        }
        if event.done { emit("X-BEAUTYD-STATUS:DONE") }
        if let cycle = event.cycleSeconds, cycle > 0 { emit("X-BEAUTYD-CYCLE:\(cycleText(cycle))") }
        // Lines beautyd does not interpret go back as they came (whole subcomponents included).
        for line in event.extraLines { emit(line) }
        for alarm in event.alarms {
            let trigger: String
            if let at = alarm.at {
                trigger = "TRIGGER;VALUE=DATE-TIME:\(utcText(at))"
            } else if let lead = alarm.beforeSeconds, lead >= 0 {
                trigger = "TRIGGER:\(leadText(lead))"
            } else {
                continue  // a reminder after the start: the reader would skip it anyway
            }
            emit("BEGIN:VALARM")
            emit("ACTION:DISPLAY")
            emit(trigger)
            emit("DESCRIPTION:\(event.summary.isEmpty ? "Reminder" : escapeText(event.summary))")
            emit("END:VALARM")
        }
        emit("END:VEVENT")
    }

    /// The DTSTART wall time a series was given in a DST gap, when it still reads as its start.
    private static func givenWall(_ event: CalendarEvent, zone: TimeZone) -> Wall? {
        guard let c = event.startWall.flatMap(LocalTime.wallFields),
            LocalTime.instant(
                year: c.year!, month: c.month!, day: c.day!, hour: c.hour!, minute: c.minute!,
                second: c.second!, in: zone) == wholeSeconds(event.start)
        else { return nil }
        return Wall(year: c.year!, month: c.month!, day: c.day!, hour: c.hour!, minute: c.minute!, second: c.second!)
    }

    private static func emitText(_ name: String, _ value: String?, _ emit: (String) -> Void) {
        if let value, !value.isEmpty { emit("\(name):\(escapeText(value))") }
    }

    /// Folds one content line at 75 octets (continuation lines start with a space, which
    /// counts) without cutting a UTF-8 sequence, and ends it with CRLF.
    static func fold(_ line: String) -> String {
        var out: [UInt8] = []
        appendFolded(line, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `fold` appending to bytes.
    static func appendFolded(_ line: String, to out: inout [UInt8]) {
        var line = line
        line.withUTF8 { utf8 in
            if utf8.count <= 75 {
                out.append(contentsOf: utf8)  // most lines: nothing to fold
            } else {
                var octets = 0
                var index = 0
                while index < utf8.count {
                    let lead = utf8[index]
                    // A scalar's width from its lead byte (the text is valid UTF-8).
                    let width = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                    if octets + width > 75 {
                        out.append(contentsOf: [0x0D, 0x0A, UInt8(ascii: " ")])
                        octets = 1
                    }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[index..<min(index + width, utf8.count)]))
                    octets += width
                    index += width
                }
            }
        }
        out.append(0x0D)
        out.append(0x0A)
    }

    /// TEXT escaping (RFC 5545 §3.3.11): backslash, semicolon, comma and newlines; other
    /// control characters (not allowed in TEXT) are dropped.
    static func escapeText(_ text: String) -> String {
        // Most texts (titles, UIDs) need nothing: returned as they are, without building a copy.
        if !text.utf8.contains(where: {
            $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ",")
        }) {
            return text
        }
        var out = ""
        var previousCR = false
        for scalar in text.unicodeScalars {
            defer { previousCR = scalar == "\r" }
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\r": out += "\\n"
            case "\n": if !previousCR { out += "\\n" }
            case "\t": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func stripControls(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
    }

    /// A parameter value, quoted when it holds a character that would end it.
    private static func paramValue(_ value: String) -> String {
        value.contains(where: { $0 == ":" || $0 == ";" || $0 == "," }) ? "\"\(value.filter { $0 != "\"" })\"" : value
    }

    /// A positive DURATION: P6W, P42D... whole weeks as weeks.
    static func cycleText(_ seconds: Int) -> String {
        let lead = leadText(seconds)
        return lead.hasPrefix("-") ? String(lead.dropFirst()) : lead
    }

    /// A lead time as a negative DURATION: -P1W, -P1D, -PT2H, -P1DT1H30M; PT0S for zero.
    static func leadText(_ seconds: Int) -> String {
        guard seconds > 0 else { return "PT0S" }
        if seconds % 604_800 == 0 { return "-P\(seconds / 604_800)W" }
        var text = "-P"
        if seconds >= 86_400 { text += "\(seconds / 86_400)D" }
        let rest = seconds % 86_400
        guard rest > 0 else { return text }
        text += "T"
        if rest >= 3600 { text += "\(rest / 3600)H" }
        if rest % 3600 >= 60 { text += "\(rest % 3600 / 60)M" }
        if rest % 60 > 0 { text += "\(rest % 60)S" }
        return text
    }

    // MARK: Date and time text

    struct Wall: Equatable {
        var year, month, day, hour, minute, second: Int
    }

    static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    static func wall(_ date: Date, _ zone: TimeZone) -> Wall {
        if let f = LocalTime.fields(of: date, in: zone) {
            return Wall(year: f.year, month: f.month, day: f.day, hour: f.hour, minute: f.minute, second: f.second)
        }
        let c = LocalTime.calendar(zone).dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return Wall(
            year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1,
            hour: c.hour ?? 0, minute: c.minute ?? 0, second: c.second ?? 0)
    }

    private static let utc = TimeZone(identifier: "UTC")!

    private static func dayAfter(_ w: Wall, days: Int) -> Wall {
        let utc = TimeZone(identifier: "UTC")!
        let noon =
            LocalTime.instant(year: w.year, month: w.month, day: w.day, hour: 12, in: utc)
            ?? Date(timeIntervalSince1970: 0)
        return wall(noon.addingTimeInterval(TimeInterval(days) * 86_400), utc)
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    static func dateText(_ w: Wall) -> String {
        guard (0...9999).contains(w.year), (0...99).contains(w.month), (0...99).contains(w.day) else {
            return digits(w.year, 4) + digits(w.month, 2) + digits(w.day, 2)
        }
        return String(unsafeUninitializedCapacity: 8) { buffer in
            putDate(w, buffer)
            return 8
        }
    }

    static func dateTimeText(_ w: Wall) -> String {
        guard (0...9999).contains(w.year), (0...99).contains(w.month), (0...99).contains(w.day),
            (0...99).contains(w.hour), (0...99).contains(w.minute), (0...99).contains(w.second)
        else {
            return dateText(w) + "T" + digits(w.hour, 2) + digits(w.minute, 2) + digits(w.second, 2)
        }
        // 15 bytes: stored inline, no allocation (every instant of an export is written so).
        return String(unsafeUninitializedCapacity: 15) { buffer in
            putDate(w, buffer)
            buffer[8] = UInt8(ascii: "T")
            put(w.hour, width: 2, buffer, at: 9)
            put(w.minute, width: 2, buffer, at: 11)
            put(w.second, width: 2, buffer, at: 13)
            return 15
        }
    }

    private static func putDate(_ w: Wall, _ buffer: UnsafeMutableBufferPointer<UInt8>) {
        put(w.year, width: 4, buffer, at: 0)
        put(w.month, width: 2, buffer, at: 4)
        put(w.day, width: 2, buffer, at: 6)
    }

    /// `value`'s last `width` decimal digits, zero-padded, at `start`.
    private static func put(_ value: Int, width: Int, _ buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        var rest = value
        for index in stride(from: start + width - 1, through: start, by: -1) {
            buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    static func utcText(_ date: Date) -> String {
        dateTimeText(wall(wholeSeconds(date), utc)) + "Z"
    }
}
