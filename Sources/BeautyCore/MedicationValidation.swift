import Foundation

/// Medication fields: the schedule has exactly one shape, and every list comes back sorted and
/// without repeats. Field names are the words the CLI uses (`until`, `every`, `between`...).
extension Validation {
    /// The largest cycle part accepted, in days (keeps the arithmetic far from overflow).
    public static let maxCycleDays = 1000
    /// The most units `stock`, `lowStock` or one refill may be: far above any pack, far below where
    /// a Double stops counting whole units or an Int conversion traps.
    public static let maxStock: Double = 1_000_000

    /// Normalises every field of a medication or says which one is wrong.
    public static func medication(_ input: Medication) throws -> Medication {
        var m = input
        m.name = try name(m.name, field: "name")
        m.dose = try optionalText(m.dose, field: "dose")
        m.notes = try optionalText(m.notes, field: "notes", multiline: true)
        try range(
            from: m.startDate, to: m.endDate, .closed, toField: "until",
            fromName: .message(TranslatableText("the start date", [])))
        m.schedule = try schedule(m.schedule)
        m.stock = try amount(m.stock, field: "stock")
        m.lowStock = try amount(m.lowStock, field: "low")
        m.timeZone = try timeZone(m.timeZone)
        return m
    }

    /// One shape per kind: `times` has times and nothing else, `interval` has an interval and
    /// maybe a window, `asNeeded` and `none` have neither. Weekdays and cycle go with any kind.
    public static func schedule(_ input: MedicationSchedule) throws -> MedicationSchedule {
        var s = input
        let hasWindow = s.windowStart != nil || s.windowEnd != nil
        switch s.kind {
        case .times:
            guard !s.times.isEmpty else {
                throw ValidationError(field: "at", template: "at least one time of day is needed")
            }
            guard s.intervalSeconds == nil else {
                throw ValidationError(field: "every", template: "cannot be combined with times of day")
            }
            guard !hasWindow else {
                throw ValidationError(field: "between", template: "only goes with 'every' (every N hours)")
            }
            s.times = Array(Set(s.times)).sorted()
        case .interval:
            guard let every = s.intervalSeconds else {
                throw ValidationError(field: "every", template: "an interval is needed")
            }
            s.intervalSeconds = try interval(every)
            guard s.times.isEmpty else {
                throw ValidationError(field: "at", template: "cannot be combined with 'every'")
            }
            if hasWindow {
                guard let start = s.windowStart, let end = s.windowEnd else {
                    throw ValidationError(field: "between", template: "needs both a start and an end time")
                }
                try window(start, end)
            }
        case .asNeeded, .none:
            let what: TranslatableText.Argument = .message(
                s.kind == .asNeeded
                    ? TranslatableText("an as-needed medication", [])
                    : TranslatableText("a medication without a schedule", []))
            guard s.times.isEmpty else {
                throw ValidationError(field: "at", TranslatableText("%s has no times of day", [what]))
            }
            guard s.intervalSeconds == nil else {
                throw ValidationError(field: "every", TranslatableText("%s has no interval", [what]))
            }
            guard !hasWindow else {
                throw ValidationError(field: "between", TranslatableText("%s has no window", [what]))
            }
        }
        if let days = s.weekdays {
            guard !days.isEmpty else {
                throw ValidationError(field: "days", template: "at least one weekday is needed")
            }
            s.weekdays = Array(Set(days)).sorted()
        }
        if let cycle = s.cycle { s.cycle = try self.cycle(cycle) }
        return s
    }

    /// "21/7": 21 days on, then 7 days off, repeating from the start date.
    public static func parseCycle(_ text: String, field: String = "cycle") throws -> MedicationSchedule.Cycle {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let on = Int(parts[0]), let off = Int(parts[1])
        else {
            throw ValidationError(field: field, template: "'%s' is not a cycle (days on/days off, e.g. 21/7)", text)
        }
        return try cycle(MedicationSchedule.Cycle(onDays: on, offDays: off), field: field)
    }

    /// "08:00-20:00"; an end before the start crosses midnight ("22:00-06:00").
    public static func parseWindow(_ text: String, field: String = "between") throws -> (ClockTime, ClockTime) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw ValidationError(field: field, template: "'%s' is not a window (HH:MM-HH:MM, e.g. 08:00-20:00)", text)
        }
        let start = try ClockTime(parsing: String(parts[0]), field: field)
        let end = try ClockTime(parsing: String(parts[1]), field: field)
        try window(start, end, field: field)
        return (start, end)
    }

    /// "mon,wed,fri", "pon,śr,pt" or a range "mon-fri" (wrapping: "fri-mon"); full names work too.
    /// Sorted Sunday first, without repeats.
    public static func parseWeekdays(_ text: String, field: String = "days", language: InputLanguage = .english) throws
        -> [Weekday]
    {
        var days = Set<Weekday>()
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let word = item.trimmingCharacters(in: .whitespaces)
            guard !word.isEmpty else {
                throw ValidationError(
                    field: field, template: "'%s' has an empty day (use mon,wed,fri or mon-fri)", text)
            }
            let ends = word.split(separator: "-", omittingEmptySubsequences: false)
            if ends.count == 2 {
                let first = try Weekday(parsing: String(ends[0]), field: field, language: language)
                let last = try Weekday(parsing: String(ends[1]), field: field, language: language)
                let span = (last.number - first.number + 7) % 7
                for step in 0...span { days.insert(Weekday.allCases[(first.number - 1 + step) % 7]) }
            } else {
                days.insert(try Weekday(parsing: word, field: field, language: language))
            }
        }
        return days.sorted()
    }

    private static func interval(_ seconds: Int, field: String = "every") throws -> Int {
        guard seconds > 0 else { throw ValidationError(field: field, template: "must be more than 0") }
        guard seconds >= 60 else { throw ValidationError(field: field, template: "must be at least 1 minute") }
        guard seconds <= 86_400 else { throw ValidationError(field: field, template: "must be at most 24 hours") }
        return seconds
    }

    private static func window(_ start: ClockTime, _ end: ClockTime, field: String = "between") throws {
        guard start != end else {
            throw ValidationError(field: field, template: "%s-%s is empty: the start and end must differ", start, end)
        }
    }

    private static func cycle(_ cycle: MedicationSchedule.Cycle, field: String = "cycle") throws
        -> MedicationSchedule.Cycle
    {
        let text = "\(cycle.onDays)/\(cycle.offDays)"
        guard cycle.onDays >= 1 else {
            throw ValidationError(field: field, template: "%s: days on must be at least 1", text)
        }
        guard cycle.offDays >= 0 else {
            throw ValidationError(field: field, template: "%s: days off must not be negative", text)
        }
        guard cycle.onDays <= maxCycleDays, cycle.offDays <= maxCycleDays else {
            throw ValidationError(
                field: field, template: "%s: at most %s days on and %s off", text, maxCycleDays, maxCycleDays)
        }
        return cycle
    }

    private static func amount(_ value: Double?, field: String) throws -> Double? {
        guard let value else { return nil }
        guard value.isFinite else { throw ValidationError(field: field, template: "must be a number") }
        guard value >= 0 else { throw ValidationError(field: field, template: "must not be negative") }
        guard value <= maxStock else {
            throw ValidationError(
                field: field, template: "%s is more than %s units", Medication.formatUnits(value),
                Medication.formatUnits(maxStock))
        }
        return value
    }

    /// A refill: more than 0 units, and the stock it makes at most `maxStock`.
    public static func refill(_ count: Double, onto stock: Double?, field: String = "count") throws -> Double {
        guard count.isFinite, count > 0 else { throw ValidationError(field: field, template: "must be more than 0") }
        let total = (stock ?? 0) + count
        guard total <= maxStock else {
            throw ValidationError(
                field: field, template: "would make the stock %s, more than %s units", Medication.formatUnits(total),
                Medication.formatUnits(maxStock))
        }
        return total
    }
}
