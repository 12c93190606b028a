import Foundation

/// A calendar day without a time or zone ("2026-12-01"): medication start and end dates.
public struct LocalDate: Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`, refusing days the calendar does not have.
    public init(parsing text: String, field: String = "date") throws {
        let ymd = try TimeExpression.parseDay(text, field: field)
        self.init(year: ymd.year, month: ymd.month, day: ymd.day)
    }

    /// A day typed by a person: `YYYY-MM-DD` or `DD.MM.YYYY`.
    public init(typed text: String, field: String) throws {
        let ymd = try TimeExpression.parseTypedDay(text, field: field)
        self.init(year: ymd.year, month: ymd.month, day: ymd.day)
    }

    /// The day `date` falls on in `zone`.
    public init(_ date: Date, in zone: TimeZone) {
        let c = LocalTime.calendar(zone).dateComponents([.year, .month, .day], from: date)
        self.init(year: c.year!, month: c.month!, day: c.day!)
    }

    public var description: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }

    public static func < (a: LocalDate, b: LocalDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// The first instant of this day in `zone` (DST-safe).
    public func start(in zone: TimeZone) -> Date {
        LocalTime.calendar(zone).startOfDay(
            for: LocalTime.instant(year: year, month: month, day: day, hour: 12, in: zone)!)
    }

    public func adding(days: Int) -> LocalDate {
        let utc = TimeZone(identifier: "UTC")!
        let shifted = LocalTime.calendar(utc).date(byAdding: .day, value: days, to: start(in: utc))!
        return LocalDate(shifted, in: utc)
    }

    /// Whole days from `self` to `other` (negative when `other` is earlier).
    public func days(until other: LocalDate) -> Int {
        let utc = TimeZone(identifier: "UTC")!
        return LocalTime.calendar(utc).dateComponents([.day], from: start(in: utc), to: other.start(in: utc)).day!
    }

    /// 1 = Sunday ... 7 = Saturday, as Foundation's Calendar counts.
    public var weekday: Int {
        LocalTime.calendar(TimeZone(identifier: "UTC")!).component(
            .weekday, from: start(in: TimeZone(identifier: "UTC")!))
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not a date (YYYY-MM-DD)"))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// A wall-clock time of day ("08:00"), kept as minutes after midnight.
public struct ClockTime: Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public var minutes: Int

    public init(hour: Int, minute: Int) { minutes = hour * 60 + minute }

    /// `08:00`, `8:00`, or `8.00` as Poles and Slovaks write it (minutes in two digits after a dot).
    public init(parsing text: String, field: String = "time") throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let dotted = !trimmed.contains(":")
        let parts = trimmed.split(separator: dotted ? "." : ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isNumber) }),
            !dotted || parts[1].count == 2, let h = Int(parts[0]), let m = Int(parts[1]), h < 24, m < 60
        else {
            throw ValidationError(
                field: field, template: "'%s' is not a time of day (HH:MM or HH.MM, 00:00 to 23:59)", text)
        }
        self.init(hour: h, minute: m)
    }

    public var hour: Int { minutes / 60 }
    public var minute: Int { minutes % 60 }
    public var description: String { String(format: "%02d:%02d", hour, minute) }
    public static func < (a: ClockTime, b: ClockTime) -> Bool { a.minutes < b.minutes }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not a time of day (HH:MM)"))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

public enum Weekday: String, Codable, Sendable, CaseIterable, Comparable {
    case sun, mon, tue, wed, thu, fri, sat

    /// 1 = Sunday ... 7 = Saturday, as Foundation's Calendar counts.
    public var number: Int { Weekday.allCases.firstIndex(of: self)! + 1 }

    /// A weekday in any language `DayWords` knows (`fri`, `pt`, `piatok`, `środa`, `sr`).
    public init(parsing text: String, field: String = "days", language: InputLanguage = .english) throws {
        let word = text.trimmingCharacters(in: .whitespaces)
        guard case .weekday(let number)? = try DayWords.parse(word, language: language, field: field) else {
            throw ValidationError(field: field, template: "'%s' is not a weekday (%s)", text, DayWords.weekdayExamples)
        }
        self = Weekday.allCases[number - 1]
    }

    public static func < (a: Weekday, b: Weekday) -> Bool { a.number < b.number }
}

/// When a medication is due. Exactly one shape: times of day, every N hours in a window,
/// as needed, or nothing (listed, never notified). `cycle` and `weekdays` further limit the days.
public struct MedicationSchedule: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable { case times, interval, asNeeded, none }

    public struct Cycle: Codable, Sendable, Equatable {
        public var onDays: Int
        public var offDays: Int
        public init(onDays: Int, offDays: Int) {
            self.onDays = onDays
            self.offDays = offDays
        }
    }

    public var kind: Kind
    /// `times`: the times of day, sorted.
    public var times: [ClockTime]
    /// `interval`: seconds between doses, counted in elapsed time from the window's start.
    public var intervalSeconds: Int?
    /// `interval`: the daily window; an end before the start means the window crosses midnight.
    public var windowStart: ClockTime?
    public var windowEnd: ClockTime?
    /// Only on these weekdays (nil = every day).
    public var weekdays: [Weekday]?
    /// On/off treatment cycle counted from the start date (`21/7`: 21 days on, 7 off).
    public var cycle: Cycle?

    public init(
        kind: Kind, times: [ClockTime] = [], intervalSeconds: Int? = nil, windowStart: ClockTime? = nil,
        windowEnd: ClockTime? = nil, weekdays: [Weekday]? = nil, cycle: Cycle? = nil
    ) {
        self.kind = kind
        self.times = times
        self.intervalSeconds = intervalSeconds
        self.windowStart = windowStart
        self.windowEnd = windowEnd
        self.weekdays = weekdays
        self.cycle = cycle
    }

    /// `times` may be left out (an interval or as-needed schedule has none).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            kind: try c.decode(Kind.self, forKey: .kind),
            times: try c.decodeIfPresent([ClockTime].self, forKey: .times) ?? [],
            intervalSeconds: try c.decodeIfPresent(Int.self, forKey: .intervalSeconds),
            windowStart: try c.decodeIfPresent(ClockTime.self, forKey: .windowStart),
            windowEnd: try c.decodeIfPresent(ClockTime.self, forKey: .windowEnd),
            weekdays: try c.decodeIfPresent([Weekday].self, forKey: .weekdays),
            cycle: try c.decodeIfPresent(Cycle.self, forKey: .cycle))
    }

    public static let none = MedicationSchedule(kind: .none)
    public static let asNeeded = MedicationSchedule(kind: .asNeeded)
}

/// A medication with its schedule, dates and stock.
public struct Medication: Codable, Sendable, Equatable {
    public var id: Int64?
    public var name: String
    /// Free text such as "1 tablet" or "2,5 ml"; its first number is the amount taken per dose.
    public var dose: String?
    public var notes: String?
    /// Inactive before this day (and cycles count from it); nil = from the day it was added.
    public var startDate: LocalDate?
    /// Inactive after this day: nothing fires after it.
    public var endDate: LocalDate?
    /// The user's list order, 1-based.
    public var position: Int
    public var schedule: MedicationSchedule
    /// Units left; nil when not tracked.
    public var stock: Double?
    /// Warn once when the stock falls to this many units.
    public var lowStock: Double?
    /// An IANA zone the times are pinned to (`--tz`); nil means the user's current zone.
    public var timeZone: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int64? = nil, name: String, dose: String? = nil, notes: String? = nil, startDate: LocalDate? = nil,
        endDate: LocalDate? = nil, position: Int = 0, schedule: MedicationSchedule = .none, stock: Double? = nil,
        lowStock: Double? = nil, timeZone: String? = nil, createdAt: Date = Date(), updatedAt: Date = Date()
    ) {
        self.id = id
        self.name = name
        self.dose = dose
        self.notes = notes
        self.startDate = startDate
        self.endDate = endDate
        self.position = position
        self.schedule = schedule
        self.stock = stock
        self.lowStock = lowStock
        self.timeZone = timeZone
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The zone its times of day belong to.
    public func zone(default current: TimeZone) -> TimeZone {
        timeZone.flatMap(TimeZone.init(identifier:)) ?? current
    }

    /// Stock and doses as people write them: 30 -> "30", 2.5 -> "2.5". Any stored value prints, even
    /// one beyond an Int or not finite (written before the maxima, or by another program).
    public static func formatUnits(_ value: Double) -> String {
        guard value.isFinite else { return String(value) }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// Units one dose uses: the first number in the dose text ("2 tablets" -> 2, "0,5 ml" -> 0.5), else 1.
    public var unitsPerDose: Double {
        guard let dose else { return 1 }
        var number = ""
        for character in dose {
            if character.isNumber {
                number.append(character)
            } else if (character == "." || character == ","), !number.isEmpty, !number.contains(".") {
                number.append(".")
            } else if !number.isEmpty {
                break
            }
        }
        if number.hasSuffix(".") { number.removeLast() }
        return Double(number).flatMap { $0 > 0 ? $0 : nil } ?? 1
    }
}

/// One scheduled intake of a medication and what became of it.
public struct Dose: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable, CaseIterable {
        /// Not yet due, or due and not yet shown (notifications off, no server).
        case pending
        /// Shown, waiting for an answer (re-notified every nag interval).
        case fired
        case taken, skipped, snoozed, missed
    }

    public var id: Int64?
    public var medicationID: Int64
    public var scheduledAt: Date
    public var state: State
    /// When the user said taken/skipped (may differ from when they clicked: `dose taken --at`).
    public var confirmedAt: Date?
    /// Re-notifications sent so far.
    public var nagCount: Int

    public init(
        id: Int64? = nil, medicationID: Int64, scheduledAt: Date, state: State = .pending, confirmedAt: Date? = nil,
        nagCount: Int = 0
    ) {
        self.id = id
        self.medicationID = medicationID
        self.scheduledAt = scheduledAt
        self.state = state
        self.confirmedAt = confirmedAt
        self.nagCount = nagCount
    }

    /// Answered by the user: nothing more to remind.
    public var isSettled: Bool { state == .taken || state == .skipped || state == .missed }
}
