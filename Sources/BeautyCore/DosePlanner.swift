import Foundation

/// Expands a medication's schedule into dose instants. Pure: the range and the zone are given.
///
/// Every dose belongs to a local day: the day its time of day, or its window, starts on.
/// That day decides whether the dose exists (start/end dates, weekdays, cycle); a window that
/// crosses midnight therefore belongs to the evening it starts on, on the end date too: the last
/// night of a course keeps its doses after midnight. Without a start date the medication begins
/// the instant it was added: earlier doses that day never existed.
///
/// Times of day keep their wall-clock time across DST (`LocalTime.instant`: a time skipped by a
/// spring-forward jump is read with the offset before it, as RFC 5545 does, so two times in one
/// gap stay two doses; a repeated time is its first occurrence). Every N hours keeps
/// elapsed time from the day's first dose, restarting each day at the window start (00:00
/// without a window) and filling the whole window, so a 25-hour day has its 25th hour of doses.
public enum DosePlanner {
    /// Every dose instant in [from, to), ascending, without duplicates.
    public static func doses(for medication: Medication, from: Date, to: Date, zone: TimeZone) -> [Date] {
        let schedule = medication.schedule
        guard from < to else { return [] }
        switch schedule.kind {
        case .asNeeded, .none: return []
        case .times: if schedule.times.isEmpty { return [] }
        case .interval: guard let every = schedule.intervalSeconds, every > 0 else { return [] }
        }
        let start = startDay(of: medication, zone: zone)
        // The day before `from` too: its window may cross midnight into the range.
        var first = LocalDate(from, in: zone).adding(days: -1)
        var last = LocalDate(to, in: zone)
        first = max(first, start)
        if let end = medication.endDate { last = min(last, end) }
        guard first <= last else { return [] }
        let from = medication.startDate == nil ? max(from, medication.createdAt) : from

        var result: [Date] = []
        var day = first
        while day <= last {
            if isActive(medication, on: day, startDay: start) {
                for dose in instants(of: schedule, on: day, zone: zone) where dose >= from && dose < to {
                    result.append(dose)
                }
            }
            day = day.adding(days: 1)
        }
        result.sort()
        var previous: Date?
        return result.filter { dose in
            defer { previous = dose }
            return dose != previous
        }
    }

    /// Whether doses belonging to `day` exist: within the start and end dates, on one of the
    /// weekdays, and on an "on" day of the cycle. It does not look at the kind: an as-needed
    /// medication is active on the days it may be taken.
    public static func isActive(_ medication: Medication, on day: LocalDate, zone: TimeZone) -> Bool {
        isActive(medication, on: day, startDay: startDay(of: medication, zone: zone))
    }

    /// The day the medication starts: its start date, else the local day it was added.
    static func startDay(of medication: Medication, zone: TimeZone) -> LocalDate {
        medication.startDate ?? LocalDate(medication.createdAt, in: zone)
    }

    private static func isActive(_ medication: Medication, on day: LocalDate, startDay: LocalDate) -> Bool {
        if day < startDay { return false }
        if let end = medication.endDate, day > end { return false }
        if let weekdays = medication.schedule.weekdays, !weekdays.contains(where: { $0.number == day.weekday }) {
            return false
        }
        if let cycle = medication.schedule.cycle {
            let length = cycle.onDays + max(cycle.offDays, 0)
            guard length > 0 else { return false }
            let index = startDay.days(until: day)
            return index >= 0 && index % length < cycle.onDays
        }
        return true
    }

    /// The doses belonging to one local day, before any range or end-date cut (may cross midnight).
    private static func instants(of schedule: MedicationSchedule, on day: LocalDate, zone: TimeZone) -> [Date] {
        switch schedule.kind {
        case .times:
            return schedule.times.compactMap { at(day, $0, zone) }
        case .interval:
            guard let every = schedule.intervalSeconds, every > 0,
                let first = at(day, schedule.windowStart ?? ClockTime(hour: 0, minute: 0), zone)
            else { return [] }
            // The window end is inclusive; with no end the day runs to the next midnight, exclusive.
            let windowEnd: Date
            let inclusive: Bool
            if let end = schedule.windowEnd {
                let crosses = end <= (schedule.windowStart ?? ClockTime(hour: 0, minute: 0))
                guard let instant = at(crosses ? day.adding(days: 1) : day, end, zone) else { return [] }
                windowEnd = instant
                inclusive = true
            } else {
                windowEnd = day.adding(days: 1).start(in: zone)
                inclusive = false
            }
            // Never at or after the next day's first dose, which starts the count again.
            let limit =
                at(day.adding(days: 1), schedule.windowStart ?? ClockTime(hour: 0, minute: 0), zone) ?? windowEnd
            var result: [Date] = []
            var dose = first
            while dose < limit, inclusive ? dose <= windowEnd : dose < windowEnd {
                result.append(dose)
                dose = dose.addingTimeInterval(TimeInterval(every))
            }
            return result
        case .asNeeded, .none:
            return []
        }
    }

    private static func at(_ day: LocalDate, _ time: ClockTime, _ zone: TimeZone) -> Date? {
        LocalTime.instant(
            year: day.year, month: day.month, day: day.day, hour: time.hour, minute: time.minute, in: zone)
    }
}
