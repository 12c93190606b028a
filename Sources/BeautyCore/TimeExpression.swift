import Foundation

/// Parses the times the CLI accepts, relative to an injected `now` and zone:
/// `2026-12-01 14:00`, ISO 8601 with an offset, `14:00` (today, or tomorrow if passed),
/// `today 14:00`, `tomorrow 9:30`, `monday 10:00`, `in 2h`, `now`, and a bare date `2026-12-01`.
public enum TimeExpression {
    public static let examples = "'2026-12-01 14:00', '2026-12-01T14:00+01:00', '14:00', 'tomorrow 9:30', 'in 2h'"

    /// `past`: the time is when something already happened (`dose taken --at 08:00`), so a bare clock
    /// time still to come today means the last such time, yesterday's, instead of tomorrow's.
    public static func parse(_ text: String, now: Date, zone: TimeZone, field: String = "time", past: Bool = false) throws -> Date {
        try parseGiven(text, now: now, zone: zone, field: field, past: past).instant
    }

    /// As `parse`, with the wall time typed when it does not exist in `zone` (a DST gap, as
    /// `LocalTime.skippedWall` writes it): a series starting then keeps that time of day.
    public static func parseGiven(
        _ text: String, now: Date, zone: TimeZone, field: String = "time", past: Bool = false
    ) throws -> (instant: Date, skippedWall: String?) {
        let input = text.trimmingCharacters(in: .whitespaces)
        let lower = input.lowercased()
        let failure = ValidationError(field: field, "'\(text)' is not a time (try \(examples))")
        if lower.isEmpty { throw ValidationError(field: field, "must not be empty") }
        if lower == "now" { return (now, nil) }
        if lower.hasPrefix("in ") {
            let amount = try DurationParser.seconds(String(lower.dropFirst(3)), field: field)
            return (now.addingTimeInterval(TimeInterval(amount)), nil)
        }
        if let absolute = try isoWithOffset(input, field: field) { return (absolute, nil) }

        let words = lower.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let cal = LocalTime.calendar(zone)
        let today = cal.dateComponents([.year, .month, .day], from: now)

        // "2026-12-01", "2026-12-01 14:00", "2026-12-01T14:00"
        let dateTimeWords = words.count == 1 && lower.contains("t") && lower.first!.isNumber
            ? lower.split(separator: "t").map(String.init) : words
        if let first = dateTimeWords.first, let ymd = try parseDate(first, field: field) {
            guard dateTimeWords.count <= 2 else { throw failure }
            let hms = try dateTimeWords.count == 2 ? parseClock(dateTimeWords[1], field: field) : (0, 0, 0)
            guard let hms else { throw failure }
            return try resolve(ymd, hms, zone: zone, field: field)
        }

        // "14:00", "today 14:00", "tomorrow 9:30", "tomorrow", "monday 10:00"
        var dayOffset: Int?
        var weekday: Int?
        var clockWord: String?
        for word in words {
            if word == "today" || word == "tomorrow" {
                guard dayOffset == nil else { throw failure }
                dayOffset = word == "today" ? 0 : 1
            } else if let w = weekdayNumber(word) {
                guard weekday == nil else { throw failure }
                weekday = w
            }
            else if clockWord == nil { clockWord = word }
            else { throw failure }
        }
        if dayOffset != nil && weekday != nil { throw failure }
        let hms: (Int, Int, Int)
        if let clockWord {
            guard let clock = try parseClock(clockWord, field: field) else { throw failure }
            hms = clock
        } else {
            guard dayOffset != nil || weekday != nil else { throw failure }
            hms = (0, 0, 0)
        }
        guard let todayStart = cal.date(from: today) else { throw failure }
        if let weekday {
            let current = cal.component(.weekday, from: now)
            var ahead = (weekday - current + 7) % 7
            if ahead == 0 {
                let candidate = try resolve(components(cal, todayStart), hms, zone: zone, field: field)
                if candidate.instant <= now { ahead = 7 }
            }
            let day = cal.date(byAdding: .day, value: ahead, to: todayStart)!
            return try resolve(components(cal, day), hms, zone: zone, field: field)
        }
        let day = cal.date(byAdding: .day, value: dayOffset ?? 0, to: todayStart)!
        let candidate = try resolve(components(cal, day), hms, zone: zone, field: field)
        if dayOffset == nil, past, candidate.instant > now {
            let previous = cal.date(byAdding: .day, value: -1, to: todayStart)!
            return try resolve(components(cal, previous), hms, zone: zone, field: field)
        }
        if dayOffset == nil, !past, candidate.instant <= now {
            // A bare clock time that has passed means the next such time: tomorrow.
            let next = cal.date(byAdding: .day, value: 1, to: todayStart)!
            return try resolve(components(cal, next), hms, zone: zone, field: field)
        }
        return candidate
    }

    /// Parses a bare calendar date `YYYY-MM-DD` (used by `--from`/`--until` style options).
    public static func parseDay(_ text: String, field: String) throws -> (year: Int, month: Int, day: Int) {
        guard let ymd = try parseDate(text.trimmingCharacters(in: .whitespaces), field: field) else {
            throw ValidationError(field: field, "'\(text)' is not a date (use YYYY-MM-DD)")
        }
        return ymd
    }

    private static func components(_ cal: Calendar, _ date: Date) -> (Int, Int, Int) {
        let c = cal.dateComponents([.year, .month, .day], from: date)
        return (c.year!, c.month!, c.day!)
    }

    private static func resolve(
        _ ymd: (Int, Int, Int), _ hms: (Int, Int, Int), zone: TimeZone, field: String
    ) throws -> (instant: Date, skippedWall: String?) {
        guard let date = LocalTime.instant(
            year: ymd.0, month: ymd.1, day: ymd.2, hour: hms.0, minute: hms.1, second: hms.2, in: zone)
        else { throw ValidationError(field: field, "cannot place that time in \(zone.identifier)") }
        return (date, LocalTime.skippedWall(year: ymd.0, month: ymd.1, day: ymd.2, hour: hms.0, minute: hms.1, second: hms.2, in: zone))
    }

    private static func parseDate(_ word: String, field: String) throws -> (Int, Int, Int)? {
        let parts = word.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }),
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return nil }
        guard LocalTime.isValidDay(year: y, month: m, day: d) else {
            throw ValidationError(field: field, "'\(word)' is not a day of the calendar")
        }
        return (y, m, d)
    }

    private static func parseClock(_ word: String, field: String) throws -> (Int, Int, Int)? {
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isNumber) }),
              let h = Int(parts[0]), let m = Int(parts[1])
        else { return nil }
        let s = parts.count == 3 ? Int(parts[2])! : 0
        guard h < 24, m < 60, s < 60 else {
            throw ValidationError(field: field, "'\(word)' is not a time of day (00:00 to 23:59)")
        }
        return (h, m, s)
    }

    private static func isoWithOffset(_ text: String, field: String) throws -> Date? {
        guard text.count >= 16, text.first?.isNumber == true,
              text.hasSuffix("Z") || text.hasSuffix("z") || text.dropFirst(16).contains("+")
                || text.dropFirst(16).contains("-")
        else { return nil }
        do {
            return try RFC3339.parseChecked(text.uppercased().replacingOccurrences(of: " ", with: "T"), lenient: true)
        } catch {
            switch error {  // exhaustive: a new kind of problem must get its message here
            case .notACalendarDayAndTime:
                throw ValidationError(field: field, "'\(text)' is not a day and time of the calendar")
            case .offsetBeyond14Hours:
                throw ValidationError(field: field, "'\(text)' has an offset beyond ±14:00")
            case .notRFC3339:
                throw ValidationError(field: field, "'\(text)' looks like ISO 8601 but is not valid (e.g. 2026-12-01T14:00:00+01:00)")
            }
        }
    }

    private static func weekdayNumber(_ word: String) -> Int? {
        let names = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
        let full = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        if let i = names.firstIndex(of: word) ?? full.firstIndex(of: word) { return i + 1 }
        return nil
    }
}
