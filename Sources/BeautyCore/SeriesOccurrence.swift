import Foundation

/// One occurrence of a series changed on its own: finding it, and the appointment that stands for it.
public enum SeriesOccurrence {
    /// Whether `occurrence` (an original start) is one of the series' occurrences, to the second.
    /// Occurrences already changed on their own are not: the caller looks for their rows first.
    public static func isOccurrence(_ occurrence: Date, of series: Appointment, zone: TimeZone) -> Bool {
        let second = Date(timeIntervalSince1970: TimeInterval(Recurrence.key(occurrence)))
        return AppointmentOccurrences.starts(
            of: series, from: second, to: second.addingTimeInterval(1), zone: zone, limit: 1
        )
        .contains { Recurrence.key($0) == Recurrence.key(occurrence) }
    }

    /// Refuses an instant that is not an occurrence of the series, naming the nearest ones so the
    /// user can pick the one meant.
    public static func check(_ occurrence: Date, of series: Appointment, zone: TimeZone, field: String = "occurrence")
        throws
    {
        guard series.recurrence != nil else {
            throw ValidationError(
                field: field, template: "appointment %s is not a series: change it without %s", series.id ?? 0, field)
        }
        guard !isOccurrence(occurrence, of: series, zone: zone) else { return }
        let times = Timestamps(zone: series.zone(default: zone))
        let nearest = nearestStarts(to: occurrence, of: series, zone: zone)
        if nearest.isEmpty {
            throw ValidationError(
                field: field, template: "%s is not an occurrence of appointment %s '%s'; it has none left",
                times.short(occurrence), series.id ?? 0, Validation.quotable(series.title))
        }
        throw ValidationError(
            field: field, template: "%s is not an occurrence of appointment %s '%s'; the nearest are %s",
            times.short(occurrence), series.id ?? 0, Validation.quotable(series.title),
            nearest.map(times.short).joined(separator: ", "))
    }

    /// Up to two starts before `instant` and two from it on.
    static func nearestStarts(to instant: Date, of series: Appointment, zone: TimeZone) -> [Date] {
        var before: [Date] = []
        // Widening windows: a daily series has its previous start a day back, a yearly one a year.
        for days in [8.0, 400.0, 366.0 * 60] {
            let from = max(series.start, instant.addingTimeInterval(-days * 86_400))
            guard from < instant else { break }
            before = AppointmentOccurrences.starts(of: series, from: from, to: instant, zone: zone)
            if before.count >= 2 || from == series.start { break }
        }
        let after = AppointmentOccurrences.starts(of: series, from: instant, to: .distantFuture, zone: zone, limit: 2)
        return before.suffix(2) + after
    }

    /// The appointment standing for the series' occurrence at `occurrence`, before any change: the
    /// series' fields at that start, one occurrence with the series' UID. Absolute reminders belong to
    /// the series' first occurrence only, so only that one takes them along.
    public static func detached(from series: Appointment, at occurrence: Date) -> Appointment {
        var row = series
        row.id = nil
        row.start = occurrence
        row.recurrence = nil
        row.repeatAfterDoneSeconds = nil
        row.seriesID = series.id
        row.recurrenceID = occurrence
        if Recurrence.key(occurrence) != Recurrence.key(series.start) {
            row.reminders = series.reminders.filter { $0.at == nil }
        }
        return row
    }

    /// Whether two instants name the same occurrence (to the second, as series expansion does).
    public static func same(_ a: Date, _ b: Date) -> Bool { Recurrence.key(a) == Recurrence.key(b) }
}
