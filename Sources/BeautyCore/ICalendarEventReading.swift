import Foundation

// A VEVENT component turned into a CalendarEvent, and the events of one file collected by UID.

extension ICalendar {
    struct ParsedEvent {
        var event: CalendarEvent
        var sequence: Int
    }

    /// Properties beautyd reads into an event's fields; every other one is kept as it came.
    /// DTSTAMP is not kept either: an export writes its own.
    static let understoodProperties: Set<String> = [
        "UID", "DTSTAMP", "DTSTART", "DTEND", "DURATION", "SUMMARY", "LOCATION", "DESCRIPTION", "CATEGORIES",
        "STATUS", "RRULE", "EXDATE", "RDATE", "COLOR", "RECURRENCE-ID",
        "X-BEAUTYD-COLOR", "X-BEAUTYD-PRICE", "X-BEAUTYD-CONTACT", "X-BEAUTYD-STATUS", "X-BEAUTYD-CYCLE",
    ]
    /// Of those, the ones an event has at most once (RFC 5545 §3.6.1); a second one is reported.
    private static let singleProperties: Set<String> = understoodProperties.subtracting([
        "CATEGORIES", "RRULE", "EXDATE", "RDATE",
    ])
    /// How much of what beautyd does not interpret one event may carry (UTF-8 bytes of the unfolded
    /// lines): enough for any calendar program's own properties, not for attached files.
    public static let maxExtraBytes = 32_768

    static func event(
        from c: ICalComponent, zones: inout ZoneResolver, defaultZone: TimeZone, warnings: inout [ImportWarning]
    ) throws -> ParsedEvent {
        guard let dtstart = c.first("DTSTART") else {
            throw ICalendarError(line: c.line, template: "VEVENT has no DTSTART")
        }
        let firstUnknownZoneUse = zones.unknownUses.count
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
            guard end >= start else { throw ICalendarError(line: dtend.line, template: "DTEND is before DTSTART") }
            durationSeconds = Int(end.timeIntervalSince(start).rounded())
        } else if let property = c.first("DURATION") {
            guard let value = duration(property.value) else {
                throw ICalendarError(
                    line: property.line, template: "DURATION '%s' is not a duration such as PT1H30M or P1D",
                    property.value)
            }
            guard !value.negative else {
                throw ICalendarError(line: property.line, template: "DURATION '%s' is negative", property.value)
            }
            let end = adding(days: value.days, seconds: value.seconds, to: start, in: dayZone)
            durationSeconds = Int(end.timeIntervalSince(start).rounded())
        }
        // An all-day event without an end, or (as Apple and Outlook write it) ending on its own
        // day, lasts that day.
        if allDay, durationSeconds == 0, c.first("DURATION") == nil {
            durationSeconds = Int(
                adding(days: 1, seconds: 0, to: start, in: dayZone).timeIntervalSince(start).rounded())
        }

        var kept = KeptLines(line: c.line)
        var event = CalendarEvent(
            uid: "", summary: text(c.first("SUMMARY")) ?? "", start: start, allDay: allDay,
            durationSeconds: durationSeconds, timeZone: allDay ? nil : zoneName)
        if c.first("RRULE") != nil || c.first("RDATE") != nil {
            (event.timeZone, event.startWall) = seriesTime(startValue, zone: zone, zoneName: event.timeZone)
        }
        event.line = c.line
        event.uid = text(c.first("UID"))?.trimmingWhitespace() ?? ""
        if event.uid.isEmpty {
            // RFC 5545 requires a UID and Google, Apple, Thunderbird and Outlook always write one.
            // For files that do not, the UID is a hash of the event's own lines, so importing
            // the same file twice still finds the same event.
            event.uid = synthesizedUID(c)
        }
        // A visible ASCII character settles it without Foundation's trim (every event of a large file asks).
        if !event.summary.utf8.contains(where: { $0 > 0x20 && $0 < 0x7F }),
            event.summary.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        {
            event.summary = ""
            warnings.append(
                ImportWarning(
                    line: c.line,
                    TranslatableText("VEVENT has no SUMMARY: imported with the title '%s'", [CalendarEvent.title("")])))
        } else if event.summary.contains(where: \.isNewline), let summary = c.first("SUMMARY") {
            event.summary = oneLine(event.summary, separator: " ")
            warnings.append(
                ImportWarning(line: summary.line, template: "SUMMARY has line breaks: the title is kept on one line"))
        }
        event.location = text(c.first("LOCATION"))
        if let location = event.location, location.contains(where: \.isNewline), let property = c.first("LOCATION") {
            // An address is shown on one line (lists, reminders, messages to the salon).
            event.location = oneLine(location, separator: ", ")
            warnings.append(
                ImportWarning(
                    line: property.line, template: "LOCATION has line breaks: kept on one line as '%s'",
                    Validation.quotable(event.location ?? "")))
        }
        event.notes = text(c.first("DESCRIPTION"))
        event.categories = c.all("CATEGORIES").flatMap { splitTextList($0.value).map(unescapeText) }
            .map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        event.status = c.first("STATUS").map { $0.value.trimmingWhitespace().uppercased() }.flatMap {
            $0.isEmpty ? nil : $0
        }
        if let status = event.status, status != "CONFIRMED", status != "CANCELLED", let property = c.first("STATUS") {
            warnings.append(
                ImportWarning(line: property.line, template: "STATUS:%s is imported as a scheduled appointment", status)
            )
        }
        let rules = c.all("RRULE").map { $0.value.trimmingWhitespace() }.filter { !$0.isEmpty }
        event.rrule = rules.first
        event.moreRules = Array(rules.dropFirst())
        event.exdates = try dateList(
            c.all("EXDATE"), allDay: allDay, floating: zone, zones: &zones, warnings: &warnings)
        event.rdates = try dateList(c.all("RDATE"), allDay: allDay, floating: zone, zones: &zones, warnings: &warnings)
        readColour(c, into: &event, kept: &kept, warnings: &warnings)
        if let contact = c.first("X-BEAUTYD-CONTACT") {
            event.contactName = text(contact)
            event.contactPhone = contact.param("X-BEAUTYD-PHONE").flatMap { $0.isEmpty ? nil : $0 }
        }
        if let price = c.first("X-BEAUTYD-PRICE") {
            let raw = unescapeText(price.value).trimmingWhitespace()
            if let money = try? MoneyParser.parse(raw, defaultCurrency: "EUR", allowNegative: true) {
                event.priceCents = money.cents
                event.currency = raw.contains(" ") ? money.currency : nil
            } else {
                kept.keep(
                    price, &warnings,
                    ImportWarning(
                        line: price.line,
                        template:
                            "X-BEAUTYD-PRICE '%s' is not an amount such as 45.50 EUR: no price imported; the line is kept as it came",
                        Validation.quotable(raw)))
            }
        }
        if let status = c.first("X-BEAUTYD-STATUS") {
            if status.value.trimmingWhitespace().uppercased() == "DONE" {
                event.done = true
            } else {
                kept.keep(
                    status, &warnings,
                    ImportWarning(
                        line: status.line, template: "X-BEAUTYD-STATUS '%s' is not DONE: the line is kept as it came",
                        Validation.quotable(status.value)))
            }
        }
        if let cycle = c.first("X-BEAUTYD-CYCLE") {
            if let value = duration(cycle.value), !value.negative, value.exactSeconds > 0 {
                event.cycleSeconds = value.exactSeconds
            } else {
                kept.keep(
                    cycle, &warnings,
                    ImportWarning(
                        line: cycle.line,
                        template:
                            "X-BEAUTYD-CYCLE '%s' is not a duration such as P42D: no cycle imported; the line is kept as it came",
                        Validation.quotable(cycle.value)))
            }
        }
        var seen = Set<String>()
        for property in c.properties {
            guard Self.understoodProperties.contains(property.name) else {
                kept.keep(property, &warnings)
                continue
            }
            if Self.singleProperties.contains(property.name), !seen.insert(property.name).inserted {
                warnings.append(
                    ImportWarning(
                        line: property.line, template: "a second %s in one VEVENT is not imported (the first one is)",
                        property.name))
            }
        }
        for child in c.children {
            guard child.name == "VALARM" else {
                kept.keep(child, &warnings, nil)
                continue
            }
            try readAlarm(child, into: &event, kept: &kept, floating: zone, zones: &zones, warnings: &warnings)
        }
        event.extraLines = kept.lines
        kept.reportOverflow(&warnings)

        if let rid = c.first("RECURRENCE-ID") {
            let value = try dateValue(of: rid)
            event.recurrenceID = try instant(value, of: rid, floating: zone, zones: &zones)
            if case .date = value { event.recurrenceIDIsDate = true }
            event.thisAndFuture = rid.param("RANGE")?.uppercased() == "THISANDFUTURE"
        }
        var unknownZones = Set<String>()
        for use in zones.unknownUses[firstUnknownZoneUse...] where unknownZones.insert(use.tzid).inserted {
            warnings.append(
                ImportWarning(
                    line: use.line,
                    TranslatableText(
                        "unknown time zone '%s' (not an IANA or Windows name, and the file has no VTIMEZONE for it): '%s' is imported in local time, now %s",
                        [.plain(use.tzid), CalendarEvent.title(event.summary), .plain(defaultZone.identifier)])))
        }
        let sequence = c.first("SEQUENCE").flatMap { Int($0.value.trimmingWhitespace()) } ?? 0
        return ParsedEvent(event: event, sequence: sequence)
    }

    /// A series' zone name and given wall time: a UTC DTSTART repeats in UTC; one in a DST gap keeps
    /// its wall time for the later occurrences.
    private static func seriesTime(_ value: DateValue, zone: TimeZone, zoneName: String?) -> (String?, String?) {
        guard case .dateTime(let w, let utc) = value else { return (zoneName, nil) }
        if utc { return ("UTC", nil) }
        return (
            zoneName,
            LocalTime.skippedWall(
                year: w.year, month: w.month, day: w.day, hour: w.hour,
                minute: w.minute, second: w.second, in: zone)
        )
    }

    /// X-BEAUTYD-COLOR, else COLOR (RFC 7986), when it is a colour beautyd shows; one it does not
    /// (CSS has 148 names) is kept as it came.
    private static func readColour(
        _ c: ICalComponent, into event: inout CalendarEvent, kept: inout KeptLines,
        warnings: inout [ImportWarning]
    ) {
        for property in [c.first("X-BEAUTYD-COLOR"), c.first("COLOR")].compactMap({ $0 }) {
            guard let value = text(property) else { continue }
            if event.color == nil, let colour = try? Validation.color(value) {
                event.color = colour
            } else if event.color == nil || property.name == "X-BEAUTYD-COLOR" {
                kept.keep(
                    property, &warnings,
                    ImportWarning(
                        line: property.line,
                        template:
                            "%s '%s' is not a colour beautyd shows (#rrggbb or %s): kept in the export, not shown",
                        property.name, Validation.quotable(value),
                        TerminalColor.allCases.map(\.rawValue).joined(separator: ", ")))
            }
            // A COLOR next to beautyd's own colour is its CSS shadow, written with it.
        }
    }

    /// A VALARM as a reminder when it reminds before the start; otherwise kept as it came.
    private static func readAlarm(
        _ alarm: ICalComponent, into event: inout CalendarEvent, kept: inout KeptLines, floating: TimeZone,
        zones: inout ZoneResolver, warnings: inout [ImportWarning]
    ) throws {
        // Apple writes ACTION:NONE placeholders for "no alarm": kept, nothing to remind.
        if alarm.first("ACTION")?.value.trimmingWhitespace().uppercased() == "NONE" {
            return kept.keep(alarm, &warnings, nil)
        }
        guard let trigger = alarm.first("TRIGGER") else {
            return kept.keep(
                alarm, &warnings,
                ImportWarning(
                    line: alarm.line, template: "VALARM has no TRIGGER: no reminder; kept in the export as it came"))
        }
        guard
            let reminder = try reminder(
                trigger, durationSeconds: event.durationSeconds, floating: floating, zones: &zones)
        else {
            return kept.keep(
                alarm, &warnings,
                ImportWarning(
                    line: alarm.line,
                    template:
                        "VALARM fires after the start (TRIGGER %s): beautyd reminds only before; kept in the export as it came",
                    Validation.quotable(trigger.value)))
        }
        if event.alarms.contains(reminder) {
            warnings.append(
                ImportWarning(
                    line: alarm.line, template: "VALARM repeats an earlier reminder of the event: imported once"))
        } else {
            event.alarms.append(reminder)
        }
    }

    /// Text with its line breaks joined by `separator`, blank lines left out.
    private static func oneLine(_ text: String, separator: String) -> String {
        text.split(whereSeparator: \.isNewline).map { String($0).trimmingWhitespace() }
            .filter { !$0.isEmpty }.joined(separator: separator)
    }

    /// The lines of one event that beautyd keeps without interpreting, up to `maxExtraBytes`.
    struct KeptLines {
        let line: Int
        private(set) var lines: [String] = []
        private var bytes = 0
        private var dropped: (count: Int, bytes: Int, firstLine: Int)?

        init(line: Int) { self.line = line }

        /// Keeps a property; `why`, when given, is a warning (the line is kept but not used).
        mutating func keep(_ property: ICalProperty, _ warnings: inout [ImportWarning], _ why: ImportWarning? = nil) {
            if let why { warnings.append(why) }
            add([property.raw], line: property.line)
        }

        /// Keeps a whole subcomponent.
        mutating func keep(_ component: ICalComponent, _ warnings: inout [ImportWarning], _ why: ImportWarning?) {
            if let why { warnings.append(why) }
            add(component.rawLines, line: component.line)
        }

        private mutating func add(_ new: [String], line: Int) {
            let size = new.reduce(0) { $0 + $1.utf8.count + 2 }
            guard bytes + size <= ICalendar.maxExtraBytes else {
                let before = dropped ?? (0, 0, line)
                dropped = (before.count + 1, before.bytes + size, before.firstLine)
                return
            }
            lines += new
            bytes += size
        }

        func reportOverflow(_ warnings: inout [ImportWarning]) {
            guard let dropped else { return }
            // Counted in brackets ("(3, 40 KiB)") rather than with plural nouns, so one template reads right in every language.
            warnings.append(
                ImportWarning(
                    line: dropped.firstLine,
                    template:
                        "properties or components beautyd does not interpret not kept (%s, %s KiB): an event keeps at most %s KiB of them",
                    dropped.count, (dropped.bytes + 1023) / 1024, ICalendar.maxExtraBytes / 1024))
        }
    }

    /// An unescaped TEXT value; nil when absent or empty.
    private static func text(_ property: ICalProperty?) -> String? {
        guard let property else { return nil }
        let value = unescapeText(property.value)
        return value.isEmpty ? nil : value
    }

    private static func dateValue(of property: ICalProperty) throws -> DateValue {
        guard let value = dateValue(property.value) else {
            throw ICalendarError(
                line: property.line,
                template: "%s '%s' is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS, Z for UTC)",
                property.name, property.value)
        }
        return value
    }

    /// The instant of a date or date-time value: UTC, in the property's TZID, or else in `floating`.
    static func instant(_ value: DateValue, of property: ICalProperty, floating: TimeZone, zones: inout ZoneResolver)
        throws -> Date
    {
        var zone = floating
        switch value {
        case .dateTime(_, utc: true): zone = TimeZone(identifier: "UTC")!
        case .dateTime(_, utc: false):
            if let tzid = property.param("TZID") { zone = try zones.zone(tzid, line: property.line).zone }
        case .date: break
        }
        let w = value.wall
        guard
            let date = LocalTime.instant(
                year: w.year, month: w.month, day: w.day, hour: w.hour,
                minute: w.minute, second: w.second, in: zone)
        else {
            throw ICalendarError(
                line: property.line, template: "%s '%s' is not a time in %s", property.name, property.value,
                zone.identifier)
        }
        return date
    }

    /// EXDATE / RDATE: comma-separated values over one or more properties (a PERIOD counts
    /// by its start); duplicates are dropped. On an all-day event a date-time names its day as
    /// written, whatever its TZID (Outlook writes EXDATEs of all-day series that way).
    private static func dateList(
        _ properties: [ICalProperty], allDay: Bool, floating: TimeZone, zones: inout ZoneResolver,
        warnings: inout [ImportWarning]
    ) throws -> [Date] {
        var dates: [Date] = []
        for property in properties {
            var periods = 0
            for item in property.value.split(separator: ",") {
                let parts = item.split(separator: "/", maxSplits: 1)
                if parts.count > 1 { periods += 1 }
                let text = String(parts.first ?? item).trimmingWhitespace()
                guard !text.isEmpty else { continue }
                guard let value = dateValue(text) else {
                    throw ICalendarError(
                        line: property.line,
                        template: "%s '%s' is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS, Z for UTC)",
                        property.name, text)
                }
                let date =
                    allDay
                    ? try instant(
                        .date(
                            Wall(
                                year: value.wall.year, month: value.wall.month, day: value.wall.day, hour: 0, minute: 0,
                                second: 0)),
                        of: property, floating: floating, zones: &zones)
                    : try instant(value, of: property, floating: floating, zones: &zones)
                if !dates.contains(date) { dates.append(date) }
            }
            if periods > 0 {
                warnings.append(
                    ImportWarning(
                        line: property.line,
                        template:
                            "%s has periods (%s): each is kept by its start and lasts as long as the event",
                        property.name, periods))
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
        throw ICalendarError(
            line: trigger.line,
            template: "TRIGGER '%s' is not a duration such as -PT15M or a date-time such as 20261201T090000Z",
            trigger.value)
    }

    /// "synthesized-<FNV-1a 64 of the event's lines>@beautyd", leaving out the lines that
    /// change whenever a program re-exports the same event.
    static func synthesizedUID(_ c: ICalComponent) -> String {
        let volatile: Set<String> = [
            "DTSTAMP", "LAST-MODIFIED", "CREATED", "SEQUENCE", "X-MOZ-GENERATION", "X-MOZ-LASTACK",
        ]
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

    /// One event per UID and RECURRENCE-ID: a repeated one keeps the highest SEQUENCE (the later on a
    /// tie), in the place of the first. A changed occurrence keeps its series' UID and its RECURRENCE-ID.
    struct EventCollector {
        private var events: [CalendarEvent] = []
        private var slots: [String: (index: Int, sequence: Int)] = [:]

        mutating func add(_ parsed: ParsedEvent) {
            let event = parsed.event
            let slotKey = event.recurrenceID.map { "\(event.uid)\u{0}\(Recurrence.key($0))" } ?? event.uid
            if let slot = slots[slotKey] {
                guard parsed.sequence >= slot.sequence else { return }
                events[slot.index] = event
                slots[slotKey] = (slot.index, parsed.sequence)
            } else {
                slots[slotKey] = (events.count, parsed.sequence)
                events.append(event)
            }
        }

        func finish() -> [CalendarEvent] { events }
    }
}
