import Foundation

// VTIMEZONE components for export, built from the tz database: RFC 5545 §3.2.19 asks for one
// for every TZID a file uses, and readers without a tz database (or with another one) need it.

extension ICalendar {
    /// The TZIDs the events use, in order of first use, with the years their times fall in
    /// (a series reaches ten years further, for zones written with explicit onsets).
    static func zonesUsed(_ events: [CalendarEvent], zones: ZoneCache) -> [(name: String, years: ClosedRange<Int>)] {
        var order: [String] = []
        var years: [String: ClosedRange<Int>] = [:]
        for event in events {
            guard let (name, zone) = tzidZone(event, zones: zones) else { continue }
            let instants = [event.start] + event.exdates + event.rdates
            let used = instants.map {
                LocalTime.fields(of: $0, in: zone)?.year ?? LocalTime.calendar(zone).component(.year, from: $0)
            }
            let low = used.min()!, high = used.max()! + (event.rrule == nil ? 0 : 10)
            if let known = years[name] {
                years[name] = min(known.lowerBound, low)...max(known.upperBound, high)
            } else {
                order.append(name)
                years[name] = low...high
            }
        }
        return order.map { ($0, years[$0]!) }
    }

    /// One offset change of a zone: the offsets either side, and what it starts.
    private struct Onset {
        var from: Int
        var to: Int
        var daylight: Bool
        var name: String
        /// The wall time of the change on the clock before it, as VTIMEZONE's DTSTART and RDATE write it.
        var wall: Wall
    }

    /// A VTIMEZONE for an IANA zone over `years`: its changes from the year before the first
    /// (so the first events' offset is stated) to the year after the last. Changes that follow one
    /// yearly pattern (the nth or last weekday of a month at one time) up to the end are one
    /// observance with an RRULE, so it also holds for later years; others are listed as RDATEs.
    /// A zone without changes is one STANDARD.
    static func vtimezone(_ name: String, years: ClosedRange<Int>) -> [String] {
        guard let zone = TimeZone(identifier: name) else { return [] }
        let utc = TimeZone(identifier: "UTC")!
        let begin = LocalTime.instant(year: years.lowerBound - 1, month: 1, day: 1, in: utc)!
        let end = LocalTime.instant(year: years.upperBound + 2, month: 1, day: 1, in: utc)!
        var onsets: [Onset] = []
        var t = begin
        while let next = zone.nextDaylightSavingTimeTransition(after: t), next < end {
            t = next
            let from = zone.secondsFromGMT(for: next.addingTimeInterval(-1)), to = zone.secondsFromGMT(for: next)
            guard from != to else { continue }
            onsets.append(
                Onset(
                    from: from, to: to, daylight: zone.isDaylightSavingTime(for: next),
                    name: zone.abbreviation(for: next) ?? name,
                    wall: wall(next.addingTimeInterval(TimeInterval(from)), utc)))
        }
        var lines = ["BEGIN:VTIMEZONE", "TZID:\(escapeText(name))", "X-LIC-LOCATION:\(escapeText(name))"]
        if onsets.isEmpty {
            let offset = zone.secondsFromGMT(for: begin)
            lines += [
                "BEGIN:STANDARD", "DTSTART:\(years.lowerBound)0101T000000", "TZOFFSETFROM:\(offsetText(offset))",
                "TZOFFSETTO:\(offsetText(offset))", "TZNAME:\(escapeText(zone.abbreviation(for: begin) ?? name))",
                "END:STANDARD",
            ]
        }
        // One observance per kind of change (offsets and name), in the order they first happen.
        var groups: [[Onset]] = []
        for onset in onsets {
            if let i = groups.firstIndex(where: {
                $0[0].from == onset.from && $0[0].to == onset.to
                    && $0[0].daylight == onset.daylight && $0[0].name == onset.name
            }) {
                groups[i].append(onset)
            } else {
                groups.append([onset])
            }
        }
        let lastYear = years.upperBound + 1
        for group in groups {
            let kind = group[0].daylight ? "DAYLIGHT" : "STANDARD"
            lines += [
                "BEGIN:\(kind)", "DTSTART:\(dateTimeText(group[0].wall))", "TZOFFSETFROM:\(offsetText(group[0].from))",
                "TZOFFSETTO:\(offsetText(group[0].to))", "TZNAME:\(escapeText(group[0].name))",
            ]
            if group.count > 1, group.last!.wall.year == lastYear, let rule = yearlyRule(group.map(\.wall)) {
                lines.append("RRULE:\(rule)")
            } else if group.count > 1 {
                lines.append("RDATE:" + group.dropFirst().map { dateTimeText($0.wall) }.joined(separator: ","))
            }
            lines.append("END:\(kind)")
        }
        lines.append("END:VTIMEZONE")
        return lines
    }

    /// "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU" when the wall times fall on one weekday of one month at
    /// one time of day, the nth (or last) of it, in consecutive years; nil otherwise.
    private static func yearlyRule(_ walls: [Wall]) -> String? {
        let codes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        let first = walls[0]
        let weekday = { (w: Wall) in CivilTime.weekday(CivilTime.days(w.year, w.month, w.day)) }
        for (i, w) in walls.enumerated() {
            guard w.year == first.year + i, w.month == first.month, w.hour == first.hour, w.minute == first.minute,
                w.second == first.second, weekday(w) == weekday(first)
            else { return nil }
        }
        let position: Int
        if walls.allSatisfy({ $0.day + 7 > CivilTime.daysInMonth($0.year, $0.month) }) {
            position = -1
        } else if Set(walls.map { ($0.day - 1) / 7 + 1 }).count == 1 {
            position = (first.day - 1) / 7 + 1
        } else {
            return nil
        }
        return "FREQ=YEARLY;BYMONTH=\(first.month);BYDAY=\(position)\(codes[weekday(first)])"
    }

    /// ±HHMM, or ±HHMMSS when the offset has seconds (RFC 5545 UTC-OFFSET).
    static func offsetText(_ seconds: Int) -> String {
        let a = abs(seconds)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return (seconds < 0 ? "-" : "+") + two(a / 3600) + two(a / 60 % 60) + (a % 60 == 0 ? "" : two(a % 60))
    }
}
