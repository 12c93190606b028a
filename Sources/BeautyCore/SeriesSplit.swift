import Foundation

/// "This and following": a series cut in two at one of its occurrences.
public enum SeriesSplit {
    /// The series ending before `occurrence` (`head`, same id) and a new one starting at it (`tail`, no
    /// id, `newUID`) with the same rules: a COUNT is shared out (the head keeps the occurrences before),
    /// otherwise the head gets UNTIL just before the occurrence and the tail keeps the old end. EXDATEs,
    /// RDATEs and changed occurrences from the occurrence on go to the tail. Absolute reminders stay
    /// with the head (they belong to its first occurrence).
    public static func split(
        _ series: Appointment, at occurrence: Date, zone: TimeZone, newUID: String?,
        field: String = "occurrence"
    ) throws -> (head: Appointment, tail: Appointment) {
        // An occurrence already changed on its own is still where the series is cut.
        let changedHere = series.recurrence?.changed.contains { SeriesOccurrence.same($0, occurrence) } ?? false
        if !changedHere { try SeriesOccurrence.check(occurrence, of: series, zone: zone, field: field) }
        guard let recurrence = series.recurrence else { throw ValidationError(field: field, template: "not a series") }
        guard Recurrence.key(occurrence) > Recurrence.key(series.start) else {
            throw ValidationError(
                field: field,
                template:
                    "is the series' first occurrence: change the whole series instead (appointment edit %s, without --occurrence)",
                series.id ?? 0)
        }
        let seriesZone = series.zone(default: zone)
        var headRules: [String] = [], tailRules: [String] = []
        for text in [recurrence.rule] + recurrence.moreRules where !text.isEmpty {
            let rule = try RecurrenceRule.parse(text)
            var head = rule, tail = rule
            if let count = rule.count {
                let before = Recurrence.occurrences(
                    of: rule, start: series.start, zone: seriesZone, from: series.start,
                    to: occurrence, limit: RecurrenceRule.maxCount + 1
                ).count
                head.count = before
                tail.count = count - before
                if before > 0 { headRules.append(head.text) }
                if count - before > 0 { tailRules.append(tail.text) }
            } else {
                head.until = untilBefore(occurrence, allDay: series.allDay, zone: seriesZone)
                head.untilIsDate = series.allDay
                head.untilIsFloating = series.allDay
                headRules.append(head.text)
                tailRules.append(tail.text)
            }
        }
        let cut = Recurrence.key(occurrence)
        func before(_ dates: [Date]) -> [Date] { dates.filter { Recurrence.key($0) < cut } }
        func from(_ dates: [Date]) -> [Date] { dates.filter { Recurrence.key($0) >= cut } }

        var head = series
        head.recurrence = AppointmentRecurrence(
            rule: headRules.first ?? "", moreRules: Array(headRules.dropFirst()), exdates: before(recurrence.exdates),
            rdates: before(recurrence.rdates), changed: before(recurrence.changed), startWall: recurrence.startWall)

        var tail = series
        tail.id = nil
        tail.uid = newUID
        tail.start = occurrence
        tail.reminders = series.reminders.filter { $0.at == nil }
        let tailRDates = from(recurrence.rdates).filter { Recurrence.key($0) != cut }
        if tailRules.isEmpty && tailRDates.isEmpty {
            tail.recurrence = nil
        } else {
            tail.recurrence = AppointmentRecurrence(
                rule: tailRules.first ?? "", moreRules: Array(tailRules.dropFirst()), exdates: from(recurrence.exdates),
                rdates: tailRDates, changed: from(recurrence.changed))
        }
        return (head, tail)
    }

    /// The series' dates moved by `seconds` (a split series whose start was moved keeps its EXDATEs,
    /// RDATEs and changed occurrences on its own occurrences).
    public static func shifted(_ recurrence: AppointmentRecurrence, by seconds: TimeInterval) -> AppointmentRecurrence {
        var r = recurrence
        r.exdates = r.exdates.map { $0.addingTimeInterval(seconds) }
        r.rdates = r.rdates.map { $0.addingTimeInterval(seconds) }
        r.changed = r.changed.map { $0.addingTimeInterval(seconds) }
        return r
    }

    /// UNTIL for "up to, not including, `occurrence`": the instant a second before, or for an all-day
    /// series (whose UNTIL must be a DATE) the day before, written as its wall-clock date.
    private static func untilBefore(_ occurrence: Date, allDay: Bool, zone: TimeZone) -> Date {
        guard allDay else { return occurrence.addingTimeInterval(-1) }
        let calendar = LocalTime.calendar(zone)
        let day = calendar.dateComponents([.year, .month, .day], from: occurrence.addingTimeInterval(-1))
        return LocalTime.instant(
            year: day.year ?? 1970, month: day.month ?? 1, day: day.day ?? 1, hour: 0,
            in: TimeZone(identifier: "UTC")!) ?? occurrence
    }
}
