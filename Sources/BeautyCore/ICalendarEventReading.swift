import Foundation

// A VEVENT component turned into a CalendarEvent, and the events of one file collected by UID.

extension ICalendar {
    struct ParsedEvent {
        var event: CalendarEvent
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
        if c.first("RRULE") != nil || c.first("RDATE") != nil {
            (event.timeZone, event.startWall) = seriesTime(startValue, zone: zone, zoneName: event.timeZone)
        }
        event.uid = text(c.first("UID"))?.trimmingWhitespace() ?? ""
        if event.uid.isEmpty {
            // RFC 5545 requires a UID and Google, Apple, Thunderbird and Outlook always write one.
            // For files that do not, the UID is a hash of the event's own lines, so importing
            // the same file twice still finds the same event.
            event.uid = synthesizedUID(c)
        }
        event.location = text(c.first("LOCATION"))
        event.notes = text(c.first("DESCRIPTION"))
        event.categories = c.all("CATEGORIES").flatMap { splitTextList($0.value).map(unescapeText) }.filter { !$0.isEmpty }
        event.status = c.first("STATUS").map { $0.value.trimmingWhitespace().uppercased() }.flatMap { $0.isEmpty ? nil : $0 }
        event.rrule = c.first("RRULE").map { $0.value.trimmingWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
        event.exdates = try dateList(c.all("EXDATE"), floating: zone, zones: &zones)
        event.rdates = try dateList(c.all("RDATE"), floating: zone, zones: &zones)
        event.color = text(c.first("X-BEAUTYD-COLOR")) ?? text(c.first("COLOR"))
        event.contactName = text(c.first("X-BEAUTYD-CONTACT"))
        if let price = c.first("X-BEAUTYD-PRICE") {
            let raw = unescapeText(price.value).trimmingWhitespace()
            guard let money = try? MoneyParser.parse(raw, defaultCurrency: "EUR", allowNegative: true) else {
                throw ICalendarError(line: price.line, "X-BEAUTYD-PRICE '\(raw)' is not an amount such as 45.50 EUR")
            }
            event.priceCents = money.cents
            event.currency = raw.contains(" ") ? money.currency : nil
        }
        for alarm in c.children where alarm.name == "VALARM" {
            // Apple writes ACTION:NONE placeholders for "no alarm"; a VALARM without TRIGGER is skipped.
            guard alarm.first("ACTION")?.value.trimmingWhitespace().uppercased() != "NONE",
                  let trigger = alarm.first("TRIGGER"),
                  let reminder = try reminder(trigger, durationSeconds: durationSeconds, floating: zone, zones: &zones),
                  !event.alarms.contains(reminder)
            else { continue }
            event.alarms.append(reminder)
        }

        if let rid = c.first("RECURRENCE-ID") {
            let value = try dateValue(of: rid)
            event.recurrenceID = try instant(value, of: rid, floating: zone, zones: &zones)
            if case .date = value { event.recurrenceIDIsDate = true }
            event.thisAndFuture = rid.param("RANGE")?.uppercased() == "THISANDFUTURE"
        }
        let sequence = c.first("SEQUENCE").flatMap { Int($0.value.trimmingWhitespace()) } ?? 0
        return ParsedEvent(event: event, sequence: sequence)
    }

    /// A series' zone name and given wall time: a UTC DTSTART repeats in UTC; one in a DST gap keeps
    /// its wall time for the later occurrences.
    private static func seriesTime(_ value: DateValue, zone: TimeZone, zoneName: String?) -> (String?, String?) {
        guard case .dateTime(let w, let utc) = value else { return (zoneName, nil) }
        if utc { return ("UTC", nil) }
        return (zoneName, LocalTime.skippedWall(year: w.year, month: w.month, day: w.day, hour: w.hour,
                                                minute: w.minute, second: w.second, in: zone))
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
                let text = String(item.split(separator: "/", maxSplits: 1).first ?? item).trimmingWhitespace()
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
