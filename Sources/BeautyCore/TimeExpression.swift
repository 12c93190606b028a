import BeautyLocalization
import Foundation

/// Parses the times the CLI accepts, relative to an injected `now` and zone:
/// `2026-12-01 14:00`, ISO 8601 with an offset, `14:00` or `14.30` (today, or tomorrow if passed),
/// `today 14:00`, `tomorrow 9:30`, `monday 10:00`, `in 2h`, `now`, and a bare date `2026-12-01`;
/// as Poles and Slovaks write them: `25.11.2026 14.30`, `25.11. 10:00` (the next 25 November),
/// `jutro 10:00`, `pt 15:00`, `zajtra 9.15`, `piatok`, `wczoraj 19:45`, `včera` (day words: `DayWords`).
///
/// A dotted pair is a time when its minutes have two digits (`14.30`, `10.10`); a date without a
/// year ends with a dot (`10.10.`). Next to a day word it is a time, next to a time a date (`1.2 10:00`
/// is 1 February; of two pairs, `25.11 14.30`, the first is the date). `1.2` alone, `25.11` alone and a day without a time where one is needed are
/// refused, saying what they could mean.
public enum TimeExpression {
    public static let examples =
        "'2026-12-01 14:00', '25.11.2026 14.30', '14:00', 'tomorrow 9:30', 'jutro 10:00', 'pt 15:00', 'in 2h'"

    /// What a bare day without a time of day means.
    public enum DayAlone: Sendable {
        /// Its midnight (`--from tomorrow`, `--day pt`).
        case midnight
        /// Refused: a start was asked for (`appointment add --at pt` would otherwise start at midnight).
        case refused
    }

    /// `past`: the time is when something already happened (`dose taken --at 08:00`), so a bare clock
    /// time means today's, and one still to come today is refused (naming yesterday's spelling).
    public static func parse(
        _ text: String, now: Date, zone: TimeZone, field: String = "time", past: Bool = false,
        language: InputLanguage = .english, dayAlone: DayAlone = .midnight
    ) throws -> Date {
        try parseGiven(text, now: now, zone: zone, field: field, past: past, language: language, dayAlone: dayAlone)
            .instant
    }

    /// As `parse`, with the wall time typed when it does not exist in `zone` (a DST gap, as
    /// `LocalTime.skippedWall` writes it): a series starting then keeps that time of day.
    public static func parseGiven(
        _ text: String, now: Date, zone: TimeZone, field: String = "time", past: Bool = false,
        language: InputLanguage = .english, dayAlone: DayAlone = .midnight
    ) throws -> (instant: Date, skippedWall: String?) {
        let input = text.trimmingCharacters(in: .whitespaces)
        let lower = input.lowercased()
        let failure = ValidationError(
            field: field,
            template:
                "'%s' is not a time (try '2026-12-01 14:00', '25.11.2026 14.30', '14:00', 'tomorrow 9:30', 'jutro 10:00', 'pt 15:00', 'in 2h')",
            text)
        if lower.isEmpty { throw ValidationError(field: field, template: "must not be empty") }
        if lower == "now" { return (now, nil) }
        if lower.hasPrefix("in ") {
            let amount = try DurationParser.seconds(String(lower.dropFirst(3)), field: field)
            return (now.addingTimeInterval(TimeInterval(amount)), nil)
        }
        if let absolute = try isoWithOffset(input, field: field) { return (absolute, nil) }

        let words = DayWords.joiningPhrases(lower).split(separator: " ", omittingEmptySubsequences: true).map(
            String.init)
        let cal = LocalTime.calendar(zone)
        let today = cal.dateComponents([.year, .month, .day], from: now)
        guard let todayStart = cal.date(from: today) else { throw failure }

        // "2026-12-01", "2026-12-01 14:00", "2026-12-01T14:00"
        let dateTimeWords =
            words.count == 1 && lower.contains("t") && lower.first!.isNumber
            ? lower.split(separator: "t").map(String.init) : words
        if let first = dateTimeWords.first, let ymd = try parseDate(first, field: field) {
            guard dateTimeWords.count <= 2 else { throw failure }
            let hms = try dateTimeWords.count == 2 ? parseClock(dateTimeWords[1], field: field) : (0, 0, 0)
            guard let hms else { throw failure }
            if dateTimeWords.count == 1, dayAlone == .refused {
                throw withoutTime(text, ymd, field: field, language: language)
            }
            return try resolve(ymd, hms, zone: zone, field: field)
        }

        // "14:00", "14.30", "today 14:00", "jutro 9.30", "pt", "monday 10:00", "25.11.2026 14.30", "25.11. 9:00"
        var day: DayWord?
        var date: (Int, Int, Int)?
        var clock: (Int, Int, Int)?
        var pair: DottedPair?
        for word in words {
            let taken = day != nil || date != nil
            if let named = try DayWords.parse(word, language: language, field: field) {
                guard !taken else { throw failure }
                day = named
            } else if let dotted = try dottedDate(word, today: today, past: past, field: field) {
                guard !taken else { throw failure }
                date = dotted
            } else if let found = DottedPair(word) {
                if let first = pair {
                    // Two pairs are written date first, then time: "25.11 14.30".
                    guard !taken, clock == nil, let time = found.time else { throw failure }
                    date = try first.yearlessDate(today: today, past: past, field: field)
                    clock = time
                    pair = nil
                } else {
                    pair = found
                }
            } else if clock == nil, let found = try parseClock(word, field: field) {
                clock = found
            } else {
                throw failure
            }
        }
        if let pair {
            // Next to a time it is the date, next to a day the time; alone a time when it can be one.
            if clock != nil {
                guard day == nil, date == nil else { throw failure }
                date = try pair.yearlessDate(today: today, past: past, field: field)
            } else if day != nil || date != nil || pair.time != nil {
                guard let time = pair.time else { throw pair.notATime(field: field) }
                clock = time
            } else {
                throw pair.ambiguous(field: field, language: language)
            }
        }
        if let date {
            if clock == nil, dayAlone == .refused { throw withoutTime(text, date, field: field, language: language) }
            return try resolve(date, clock ?? (0, 0, 0), zone: zone, field: field)
        }
        guard clock != nil || day != nil else { throw failure }
        let hms = clock ?? (0, 0, 0)
        if case .weekday(let weekday)? = day {
            let current = cal.component(.weekday, from: now)
            var ahead = (weekday - current + 7) % 7
            if ahead == 0 {
                let candidate = try resolve(components(cal, todayStart), hms, zone: zone, field: field)
                if candidate.instant <= now { ahead = 7 }
            }
            let found = components(cal, cal.date(byAdding: .day, value: ahead, to: todayStart)!)
            if clock == nil, dayAlone == .refused { throw withoutTime(text, found, field: field, language: language) }
            return try resolve(found, hms, zone: zone, field: field)
        }
        let dayOffset: Int? = if case .relative(let n)? = day { n } else { nil }
        let chosen = components(cal, cal.date(byAdding: .day, value: dayOffset ?? 0, to: todayStart)!)
        if clock == nil, dayAlone == .refused { throw withoutTime(text, chosen, field: field, language: language) }
        let candidate = try resolve(chosen, hms, zone: zone, field: field)
        if dayOffset == nil, past, candidate.instant > now {
            // Moving it to yesterday silently booked slips of the hour (19:45 for 18:45) a day early.
            throw ValidationError(
                field: field, template: "'%s' is still to come today: for yesterday's, write '%s %s'",
                text, DayWords.yesterday(language), text)
        }
        if dayOffset == nil, !past, candidate.instant <= now {
            // A bare clock time that has passed means the next such time: tomorrow.
            let next = cal.date(byAdding: .day, value: 1, to: todayStart)!
            return try resolve(components(cal, next), hms, zone: zone, field: field)
        }
        return candidate
    }

    /// A day typed where a start is needed, with what it was understood as.
    private static func withoutTime(_ text: String, _ ymd: (Int, Int, Int), field: String, language: InputLanguage)
        -> ValidationError
    {
        var error = ValidationError(
            field: field, template: "'%s' names a day (%s) but no time: add one, e.g. '%s 15:00'",
            text, describe(ymd, language: language), text)
        error.message = Localizer.english.trArray(error.template!, [text, describe(ymd), text])
        return error
    }

    /// A day as understood, for messages in `language`: "Friday 27 November 2026" in English (as
    /// `describe`), "piątek, 27 listopada 2026", "piatok 27. novembra 2026".
    static func describe(_ ymd: (Int, Int, Int), language: InputLanguage) -> String {
        guard let lang = Language(rawValue: language.rawValue), lang != .english else { return describe(ymd) }
        return Timestamps(zone: utc, language: lang).fullDay(noon(ymd))
    }

    /// "14 December" in English, "14 grudnia", "14. decembra": a day and month, for messages.
    static func dayMonth(_ day: Int, _ month: Int, language: InputLanguage) -> String {
        guard let lang = Language(rawValue: language.rawValue), lang != .english else {
            return "\(day) \(monthNames[month - 1])"
        }
        let formatter = DateFormatter()
        formatter.locale = lang.locale
        formatter.timeZone = utc
        formatter.dateFormat = lang == .slovak ? "d. MMMM" : "d MMMM"
        return formatter.string(from: noon((2000, month, day)))
    }

    private static let utc = TimeZone(identifier: "UTC")!

    private static func noon(_ ymd: (Int, Int, Int)) -> Date {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = utc
        return cal.date(from: DateComponents(year: ymd.0, month: ymd.1, day: ymd.2, hour: 12))!
    }

    /// "Friday 27 November 2026": a day as understood, for messages.
    static func describe(_ ymd: (Int, Int, Int)) -> String {
        let weekday = LocalDate(year: ymd.0, month: ymd.1, day: ymd.2).weekday
        return "\(DayWords.describe(.weekday(weekday))) \(ymd.2) \(monthNames[ymd.1 - 1]) \(ymd.0)"
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August",
        "September", "October", "November", "December",
    ]

    /// `25.11.2026`, `5.1.2027`, or `25.11.` (the next 25 November from today; with `past`, the last).
    private static func dottedDate(_ word: String, today: DateComponents, past: Bool, field: String) throws -> (
        Int, Int, Int
    )? {
        let parts = word.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            (1...2).contains(parts[0].count), (1...2).contains(parts[1].count), parts[2].isEmpty || parts[2].count == 4,
            let d = Int(parts[0]), let m = Int(parts[1])
        else { return nil }
        guard let y = Int(parts[2]) else {
            return try DottedPair(day: d, month: m, word: word).yearlessDate(today: today, past: past, field: field)
        }
        guard LocalTime.isValidDay(year: y, month: m, day: d) else {
            throw ValidationError(field: field, template: "'%s' is not a day of the calendar", word)
        }
        return (y, m, d)
    }

    /// Two numbers joined by a dot, `14.30` or `1.2`: a time, or a day and month without a year.
    struct DottedPair {
        let first: Int, second: Int, word: String
        let secondDigits: Int

        init?(_ word: String) {
            let parts = word.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2,
                parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
                let first = Int(parts[0]), let second = Int(parts[1])
            else { return nil }
            (self.first, self.second, self.word, secondDigits) = (first, second, word, parts[1].count)
        }

        init(day: Int, month: Int, word: String) {
            (first, second, self.word, secondDigits) = (day, month, word, 2)
        }

        /// As a time: minutes in two digits, as clocks show them.
        var time: (Int, Int, Int)? {
            secondDigits == 2 && first < 24 && second < 60 ? (first, second, 0) : nil
        }

        func yearlessDate(today: DateComponents, past: Bool, field: String) throws -> (Int, Int, Int) {
            let (day, month) = (first, second)
            guard (1...12).contains(month), (1...31).contains(day) else {
                throw ValidationError(field: field, template: "'%s' is not a day and month (DD.MM.)", word)
            }
            // This year's unless it is gone (or, for `past`, still to come): then next (last) year's.
            let thisYear = today.year!
            let passed = (month, day) < (today.month!, today.day!), coming = (month, day) > (today.month!, today.day!)
            let year = past ? (coming ? thisYear - 1 : thisYear) : (passed ? thisYear + 1 : thisYear)
            guard LocalTime.isValidDay(year: year, month: month, day: day) else {
                throw ValidationError(field: field, template: "'%s' is not a day of %s", word, String(year))
            }
            return (year, month, day)
        }

        /// What a pair alone could mean, and how to write each meaning so it can mean nothing else.
        func ambiguous(field: String, language: InputLanguage = .english) -> ValidationError {
            let clock = first < 24 && second < 60 ? String(format: "%02d:%02d", first, second) : nil
            let date =
                (1...12).contains(second) && (1...31).contains(first)
                ? TimeExpression.dayMonth(first, second, language: language) : nil
            // The date in the language of the input for translations; in English for the English message.
            let englishDate = date == nil ? "" : TimeExpression.dayMonth(first, second, language: .english)
            func english(_ error: ValidationError) -> ValidationError {
                var error = error
                error.message = Localizer.english.trArray(
                    error.template!, error.arguments.map { $0 == date ? englishDate : $0 })
                return error
            }
            switch (clock, date) {
            case let (clock?, date?):
                return english(
                    ValidationError(
                        field: field,
                        template:
                            "'%s' is ambiguous: the time %s or the date %s? (write '%s' for the time, '%s.' or '%s.YYYY' for the date)",
                        word, clock, date, clock, word, word))
            case let (clock?, nil):
                return ValidationError(
                    field: field, template: "'%s' could only be the time %s (write '%s' for the time)", word, clock,
                    clock)
            case let (nil, date?):
                return english(
                    ValidationError(
                        field: field,
                        template: "'%s' could only be the date %s (write '%s.' or '%s.YYYY' for the date)", word, date,
                        word, word))
            case (nil, nil):
                return ValidationError(
                    field: field,
                    template:
                        "'%s' is neither a time nor a date (try '2026-12-01 14:00', '25.11.2026 14.30', '14:00', 'tomorrow 9:30', 'jutro 10:00', 'pt 15:00', 'in 2h')",
                    word)
            }
        }

        func notATime(field: String) -> ValidationError {
            ValidationError(
                field: field, template: "'%s' is not a time of day (write HH:MM or HH.MM, e.g. 09:05 or 9.05)", word)
        }
    }

    /// Parses a bare calendar date `YYYY-MM-DD` (used by `--from`/`--until` style options).
    public static func parseDay(_ text: String, field: String) throws -> (year: Int, month: Int, day: Int) {
        guard let ymd = try parseDate(text.trimmingCharacters(in: .whitespaces), field: field) else {
            throw ValidationError(field: field, template: "'%s' is not a date (use YYYY-MM-DD)", text)
        }
        return ymd
    }

    /// A day as a person types it: `2026-11-25`, or `25.11.2026` as Polish and Slovak write it (the
    /// year in four digits: a day without one would depend on today). The wire takes only the first.
    public static func parseTypedDay(_ text: String, field: String) throws -> (year: Int, month: Int, day: Int) {
        let word = text.trimmingCharacters(in: .whitespaces)
        if let ymd = try parseDate(word, field: field) { return ymd }
        if word.split(separator: ".", omittingEmptySubsequences: false).last?.count == 4,
            let ymd = try dottedDate(word, today: DateComponents(), past: false, field: field)
        {
            return ymd
        }
        throw ValidationError(field: field, template: "'%s' is not a date (use YYYY-MM-DD or DD.MM.YYYY)", text)
    }

    private static func components(_ cal: Calendar, _ date: Date) -> (Int, Int, Int) {
        let c = cal.dateComponents([.year, .month, .day], from: date)
        return (c.year!, c.month!, c.day!)
    }

    private static func resolve(
        _ ymd: (Int, Int, Int), _ hms: (Int, Int, Int), zone: TimeZone, field: String
    ) throws -> (instant: Date, skippedWall: String?) {
        guard
            let date = LocalTime.instant(
                year: ymd.0, month: ymd.1, day: ymd.2, hour: hms.0, minute: hms.1, second: hms.2, in: zone)
        else { throw ValidationError(field: field, template: "cannot place that time in %s", zone.identifier) }
        return (
            date,
            LocalTime.skippedWall(
                year: ymd.0, month: ymd.1, day: ymd.2, hour: hms.0, minute: hms.1, second: hms.2, in: zone)
        )
    }

    private static func parseDate(_ word: String, field: String) throws -> (Int, Int, Int)? {
        let parts = word.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }),
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return nil }
        guard LocalTime.isValidDay(year: y, month: m, day: d) else {
            throw ValidationError(field: field, template: "'%s' is not a day of the calendar", word)
        }
        return (y, m, d)
    }

    private static func parseClock(_ word: String, field: String) throws -> (Int, Int, Int)? {
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count),
            parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isNumber) }),
            let h = Int(parts[0]), let m = Int(parts[1])
        else { return nil }
        let s = parts.count == 3 ? Int(parts[2])! : 0
        guard h < 24, m < 60, s < 60 else {
            throw ValidationError(field: field, template: "'%s' is not a time of day (00:00 to 23:59)", word)
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
                throw ValidationError(field: field, template: "'%s' is not a day and time of the calendar", text)
            case .offsetBeyond14Hours:
                throw ValidationError(field: field, template: "'%s' has an offset beyond ±14:00", text)
            case .notRFC3339:
                throw ValidationError(
                    field: field,
                    template: "'%s' looks like ISO 8601 but is not valid (e.g. 2026-12-01T14:00:00+01:00)", text)
            }
        }
    }

}
