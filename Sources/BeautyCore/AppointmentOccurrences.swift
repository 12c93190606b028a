import Foundation

/// When an appointment happens: once at its start, or every occurrence of its series.
public enum AppointmentOccurrences {
    /// At most this many occurrences of one series are expanded per call.
    public static let limit = 10_000

    /// Starts of the appointment's occurrences in [from, to), ascending. A series expands in the wall-clock
    /// time of its pinned zone (or `zone`), so a weekly 10:00 visit stays at 10:00 across DST.
    /// Several RRULEs give the union of their occurrences; occurrences changed on their own
    /// (`recurrence.changed`) are left out, as their own appointments stand for them.
    public static func starts(of appointment: Appointment, from: Date, to: Date, zone: TimeZone, limit: Int = limit)
        -> [Date]
    {
        guard let recurrence = appointment.recurrence else {
            return appointment.start >= from && appointment.start < to ? [appointment.start] : []
        }
        let rules = ([recurrence.rule] + recurrence.moreRules).compactMap { try? RecurrenceRule.parse($0) }
        let excluded = recurrence.exdates + recurrence.changed
        let zone = appointment.zone(default: zone)
        guard let first = rules.first else {
            // RDATEs only: DTSTART and the extra dates.
            let extra = Set(excluded.map(Recurrence.key))
            let all = Set(
                ([appointment.start] + recurrence.rdates).filter {
                    $0 >= from && $0 < to && !extra.contains(Recurrence.key($0))
                })
            return Array(all.sorted().prefix(limit))
        }
        var result = Recurrence.occurrences(
            of: first, start: appointment.start, zone: zone, from: from, to: to,
            exdates: excluded, rdates: recurrence.rdates, limit: limit, startWall: recurrence.startWall)
        for rule in rules.dropFirst() {
            let more = Recurrence.occurrences(
                of: rule, start: appointment.start, zone: zone, from: from, to: to,
                exdates: excluded, limit: limit, startWall: recurrence.startWall)
            let seen = Set(result.map(Recurrence.key))
            result = Array((result + more.filter { !seen.contains(Recurrence.key($0)) }).sorted().prefix(limit))
        }
        return result
    }

    /// The next visit of a treatment cycle done on `doneAt`: `repeatAfterDoneSeconds` (whole days) after
    /// that day, at the original time of day (org-mode `.+6w`).
    public static func nextAfterDone(_ appointment: Appointment, doneAt: Date, zone: TimeZone) -> Date? {
        guard let every = appointment.repeatAfterDoneSeconds else { return nil }
        let zone = appointment.zone(default: zone)
        let cal = LocalTime.calendar(zone)
        let time = cal.dateComponents([.hour, .minute, .second], from: appointment.start)
        guard let day = cal.date(byAdding: .day, value: every / 86_400, to: cal.startOfDay(for: doneAt)) else {
            return nil
        }
        let ymd = cal.dateComponents([.year, .month, .day], from: day)
        return LocalTime.instant(
            year: ymd.year!, month: ymd.month!, day: ymd.day!, hour: time.hour ?? 0,
            minute: time.minute ?? 0, second: time.second ?? 0, in: zone)
    }
}
