import Foundation

/// An RFC 5545 recurrence rule (the value of an RRULE property), parsed and validated.
///
/// `parse` accepts "FREQ=WEEKLY;INTERVAL=6;BYDAY=-1FR" with an optional "RRULE:" prefix, keys and
/// values in any case, and refuses what RFC 5545 forbids (a BYxxx part the frequency does not
/// allow, an ordinal BYDAY outside MONTHLY/YEARLY, COUNT with UNTIL, out-of-range values) with a
/// `ValidationError(field: "repeat", …)` that names the bad part. The BYxxx lists are sorted and
/// deduplicated, so two spellings of one rule compare equal, and `text` is canonical: exporting,
/// importing and exporting again gives the same text. `Codable` uses that text as a single string.
///
/// The expansion lives in `Recurrence.occurrences`.
public struct RecurrenceRule: Sendable, Equatable, Codable {
    public enum Frequency: String, Sendable, Codable, CaseIterable {
        case secondly = "SECONDLY", minutely = "MINUTELY", hourly = "HOURLY", daily = "DAILY"
        case weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"
    }

    /// A BYDAY entry: a weekday, optionally with an ordinal ("-1FR" = the last Friday of the
    /// month, or of the year for YEARLY without BYMONTH).
    public struct WeekdayNum: Sendable, Equatable, Codable {
        /// -53...53, never 0; nil means every such weekday in the period.
        public var ordinal: Int?
        public var weekday: Weekday

        public init(_ weekday: Weekday, ordinal: Int? = nil) {
            self.weekday = weekday
            self.ordinal = ordinal
        }

        /// "MO", "-1FR", "2TU".
        public var text: String { (ordinal.map(String.init) ?? "") + RecurrenceRule.code(weekday) }
    }

    public var frequency: Frequency
    public var interval: Int
    public var count: Int?
    /// UNTIL. With `untilIsFloating == false` it is an instant (the "Z" form). Otherwise it is a
    /// wall-clock time written as if it were UTC, to be read in the item's zone: a floating
    /// DATE-TIME, or for `untilIsDate` a DATE at 00:00 that includes that whole local day.
    public var until: Date?
    public var untilIsFloating: Bool
    public var untilIsDate: Bool
    public var bySecond: [Int]
    public var byMinute: [Int]
    public var byHour: [Int]
    public var byDay: [WeekdayNum]
    public var byMonthDay: [Int]
    public var byYearDay: [Int]
    public var byWeekNo: [Int]
    public var byMonth: [Int]
    public var bySetPos: [Int]
    /// WKST, Monday unless given.
    public var weekStart: Weekday

    /// The most INTERVAL and COUNT accept: enough for any calendar, small enough that expanding
    /// a rule stays quick.
    public static let maxInterval = 1_000_000
    public static let maxCount = 100_000

    public init(
        frequency: Frequency, interval: Int = 1, count: Int? = nil, until: Date? = nil,
        untilIsFloating: Bool = false, untilIsDate: Bool = false,
        bySecond: [Int] = [], byMinute: [Int] = [], byHour: [Int] = [], byDay: [WeekdayNum] = [],
        byMonthDay: [Int] = [], byYearDay: [Int] = [], byWeekNo: [Int] = [], byMonth: [Int] = [],
        bySetPos: [Int] = [], weekStart: Weekday = .mon
    ) {
        self.frequency = frequency
        self.interval = interval
        self.count = count
        self.until = until
        self.untilIsFloating = untilIsFloating || untilIsDate
        self.untilIsDate = untilIsDate
        self.bySecond = bySecond
        self.byMinute = byMinute
        self.byHour = byHour
        self.byDay = byDay
        self.byMonthDay = byMonthDay
        self.byYearDay = byYearDay
        self.byWeekNo = byWeekNo
        self.byMonth = byMonth
        self.bySetPos = bySetPos
        self.weekStart = weekStart
    }

    // MARK: parsing

    /// Parses RRULE text. Throws `ValidationError(field: "repeat", …)` naming the bad part.
    public static func parse(_ text: String) throws -> RecurrenceRule {
        var body = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if body.uppercased().hasPrefix("RRULE:") { body = String(body.dropFirst(6)) }
        guard !body.isEmpty else {
            throw ValidationError(field: "repeat", template: "is empty (expected e.g. FREQ=WEEKLY;INTERVAL=2)")
        }
        if body.contains(":") {
            throw ValidationError(
                field: "repeat", template: "'%s' is not an RRULE value (expected e.g. FREQ=WEEKLY;INTERVAL=2)", text)
        }

        var values: [String: String] = [:]
        var order: [String] = []
        for part in body.split(separator: ";", omittingEmptySubsequences: true) {
            let piece = part.trimmingCharacters(in: .whitespaces)
            if piece.isEmpty { continue }
            guard let eq = piece.firstIndex(of: "=") else {
                throw ValidationError(
                    field: "repeat", template: "'%s' is not NAME=VALUE (expected e.g. FREQ=WEEKLY)", piece)
            }
            let key = piece[..<eq].trimmingCharacters(in: .whitespaces).uppercased()
            let value = piece[piece.index(after: eq)...].trimmingCharacters(in: .whitespaces).uppercased()
            guard knownKeys.contains(key) else {
                throw ValidationError(
                    field: "repeat", template: "unknown rule part '%s' (allowed: %s)", key,
                    knownKeys.joined(separator: ", "))
            }
            guard values[key] == nil else {
                throw ValidationError(field: "repeat", template: "%s is given more than once", key)
            }
            guard !value.isEmpty else { throw ValidationError(field: "repeat", template: "%s has no value", key) }
            values[key] = value
            order.append(key)
        }

        guard let freqText = values["FREQ"] else {
            throw ValidationError(
                field: "repeat", template: "FREQ is required (e.g. FREQ=DAILY, FREQ=WEEKLY;INTERVAL=2)")
        }
        guard let frequency = Frequency(rawValue: freqText) else {
            throw ValidationError(
                field: "repeat",
                template: "unknown FREQ '%s' (use SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY)",
                freqText)
        }
        var rule = RecurrenceRule(frequency: frequency)
        if let v = values["INTERVAL"] {
            rule.interval = try integer(v, key: "INTERVAL", range: 1...maxInterval)
        }
        if let v = values["COUNT"] {
            rule.count = try integer(v, key: "COUNT", range: 1...maxCount)
        }
        if let v = values["UNTIL"] {
            if values["COUNT"] != nil {
                throw ValidationError(
                    field: "repeat", template: "COUNT and UNTIL cannot be used together (RFC 5545): keep one")
            }
            try rule.parseUntil(v)
        }
        rule.bySecond = try list(values["BYSECOND"], key: "BYSECOND", ranges: [0...60])
        rule.byMinute = try list(values["BYMINUTE"], key: "BYMINUTE", ranges: [0...59])
        rule.byHour = try list(values["BYHOUR"], key: "BYHOUR", ranges: [0...23])
        rule.byMonthDay = try list(values["BYMONTHDAY"], key: "BYMONTHDAY", ranges: [1...31, -31...(-1)])
        rule.byYearDay = try list(values["BYYEARDAY"], key: "BYYEARDAY", ranges: [1...366, -366...(-1)])
        rule.byWeekNo = try list(values["BYWEEKNO"], key: "BYWEEKNO", ranges: [1...53, -53...(-1)])
        rule.byMonth = try list(values["BYMONTH"], key: "BYMONTH", ranges: [1...12])
        rule.bySetPos = try list(values["BYSETPOS"], key: "BYSETPOS", ranges: [1...366, -366...(-1)])
        if let v = values["BYDAY"] {
            rule.byDay = try v.split(separator: ",", omittingEmptySubsequences: false).map {
                try weekdayNum(String($0))
            }
        }
        if let v = values["WKST"] {
            guard let day = weekday(code: v) else {
                throw ValidationError(
                    field: "repeat", template: "WKST '%s' is not a weekday (MO, TU, WE, TH, FR, SA or SU)", v)
            }
            rule.weekStart = day
        }
        return try rule.validated()
    }

    /// Checks the combination rules of RFC 5545 and returns the rule with sorted, deduplicated
    /// BYxxx lists. `parse` calls it; call it on a rule built in code before storing it.
    public func validated() throws -> RecurrenceRule {
        var rule = self
        let freq = frequency
        guard (1...Self.maxInterval).contains(interval) else {
            throw ValidationError(
                field: "repeat", template: "INTERVAL must be a whole number from 1 to %s, not %s", Self.maxInterval,
                interval)
        }
        if let count {
            guard (1...Self.maxCount).contains(count) else {
                throw ValidationError(
                    field: "repeat", template: "COUNT must be a whole number from 1 to %s, not %s", Self.maxCount, count
                )
            }
            if until != nil {
                throw ValidationError(
                    field: "repeat", template: "COUNT and UNTIL cannot be used together (RFC 5545): keep one")
            }
        }
        if untilIsDate { rule.untilIsFloating = true }
        func check(_ values: [Int], _ key: String, _ ranges: [ClosedRange<Int>]) throws -> [Int] {
            for v in values where !ranges.contains(where: { $0.contains(v) }) {
                throw Self.outOfRange(key, v, ranges)
            }
            return Array(Set(values)).sorted()
        }
        rule.bySecond = try check(bySecond, "BYSECOND", [0...60])
        rule.byMinute = try check(byMinute, "BYMINUTE", [0...59])
        rule.byHour = try check(byHour, "BYHOUR", [0...23])
        rule.byMonthDay = try check(byMonthDay, "BYMONTHDAY", [1...31, -31...(-1)])
        rule.byYearDay = try check(byYearDay, "BYYEARDAY", [1...366, -366...(-1)])
        rule.byWeekNo = try check(byWeekNo, "BYWEEKNO", [1...53, -53...(-1)])
        rule.byMonth = try check(byMonth, "BYMONTH", [1...12])
        rule.bySetPos = try check(bySetPos, "BYSETPOS", [1...366, -366...(-1)])

        if !byWeekNo.isEmpty && freq != .yearly {
            throw ValidationError(field: "repeat", template: "BYWEEKNO is only allowed with FREQ=YEARLY")
        }
        if !byYearDay.isEmpty && [.daily, .weekly, .monthly].contains(freq) {
            throw ValidationError(
                field: "repeat",
                template: "BYYEARDAY is not allowed with FREQ=%s (use it with YEARLY, HOURLY, MINUTELY or SECONDLY)",
                freq.rawValue)
        }
        if !byMonthDay.isEmpty && freq == .weekly {
            throw ValidationError(field: "repeat", template: "BYMONTHDAY is not allowed with FREQ=WEEKLY")
        }
        var seen: [WeekdayNum] = []
        for entry in byDay {
            if let n = entry.ordinal {
                guard n != 0, (-53...53).contains(n) else {
                    throw ValidationError(
                        field: "repeat", template: "BYDAY ordinal in '%s' is out of range (1 to 53 or -53 to -1)",
                        entry.text)
                }
                guard freq == .monthly || freq == .yearly else {
                    throw ValidationError(
                        field: "repeat",
                        template: "BYDAY '%s' has an ordinal, which is only allowed with FREQ=MONTHLY or YEARLY",
                        entry.text)
                }
                if freq == .yearly && !byWeekNo.isEmpty {
                    throw ValidationError(
                        field: "repeat",
                        template: "BYDAY '%s' has an ordinal, which is not allowed together with BYWEEKNO", entry.text)
                }
                if (freq == .monthly || !byMonth.isEmpty) && abs(n) > 5 {
                    throw ValidationError(
                        field: "repeat",
                        template: "BYDAY ordinal in '%s' is out of range for a month (1 to 5 or -5 to -1)", entry.text)
                }
            }
            if !seen.contains(entry) { seen.append(entry) }
        }
        rule.byDay = seen.sorted {
            let a = Self.mondayIndex($0.weekday), b = Self.mondayIndex($1.weekday)
            return a != b ? a < b : ($0.ordinal ?? 0) < ($1.ordinal ?? 0)
        }
        if !bySetPos.isEmpty && byMonth.isEmpty && byWeekNo.isEmpty && byYearDay.isEmpty && byMonthDay.isEmpty
            && byDay.isEmpty && byHour.isEmpty && byMinute.isEmpty && bySecond.isEmpty
        {
            throw ValidationError(
                field: "repeat",
                template: "BYSETPOS needs another BYxxx rule part (e.g. BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1)")
        }
        return rule
    }

    // MARK: text

    /// Canonical RFC 5545 text: FREQ, INTERVAL (when not 1), COUNT, UNTIL, BYMONTH, BYWEEKNO,
    /// BYYEARDAY, BYMONTHDAY, BYDAY, BYHOUR, BYMINUTE, BYSECOND, BYSETPOS, WKST (when not MO).
    public var text: String {
        var parts = ["FREQ=\(frequency.rawValue)"]
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        if let count { parts.append("COUNT=\(count)") }
        if let until { parts.append("UNTIL=\(Self.untilText(until, floating: untilIsFloating, date: untilIsDate))") }
        func add(_ key: String, _ values: [Int]) {
            if !values.isEmpty { parts.append("\(key)=\(values.map(String.init).joined(separator: ","))") }
        }
        add("BYMONTH", byMonth)
        add("BYWEEKNO", byWeekNo)
        add("BYYEARDAY", byYearDay)
        add("BYMONTHDAY", byMonthDay)
        if !byDay.isEmpty { parts.append("BYDAY=\(byDay.map(\.text).joined(separator: ","))") }
        add("BYHOUR", byHour)
        add("BYMINUTE", byMinute)
        add("BYSECOND", bySecond)
        add("BYSETPOS", bySetPos)
        if weekStart != .mon { parts.append("WKST=\(Self.code(weekStart))") }
        return parts.joined(separator: ";")
    }

    // MARK: Codable (the canonical text as one string)

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try Self.parse(text)
        } catch let error as ValidationError {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    // MARK: helpers

    static let knownKeys = [
        "FREQ", "INTERVAL", "COUNT", "UNTIL", "BYSECOND", "BYMINUTE", "BYHOUR", "BYDAY",
        "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO", "BYMONTH", "BYSETPOS", "WKST",
    ]
    static let codes: [(String, Weekday)] = [
        ("MO", .mon), ("TU", .tue), ("WE", .wed), ("TH", .thu),
        ("FR", .fri), ("SA", .sat), ("SU", .sun),
    ]

    static func code(_ day: Weekday) -> String { codes.first { $0.1 == day }!.0 }
    static func weekday(code: String) -> Weekday? { codes.first { $0.0 == code }?.1 }
    /// Monday = 0 ... Sunday = 6.
    static func mondayIndex(_ day: Weekday) -> Int { (day.number + 5) % 7 }

    static func integer(_ text: String, key: String, range: ClosedRange<Int>) throws -> Int {
        guard let value = signedInteger(text), range.contains(value) else {
            throw ValidationError(
                field: "repeat", template: "%s must be a whole number from %s to %s, not '%s'", key, range.lowerBound,
                range.upperBound, text)
        }
        return value
    }

    /// "BYMONTH value 13 is out of range (1 to 12)", with the one or two ranges of the rule part.
    static func outOfRange(_ key: String, _ value: Int, _ ranges: [ClosedRange<Int>]) -> ValidationError {
        guard ranges.count == 2 else {
            return ValidationError(
                field: "repeat", template: "%s value %s is out of range (%s to %s)", key, value, ranges[0].lowerBound,
                ranges[0].upperBound)
        }
        return ValidationError(
            field: "repeat", template: "%s value %s is out of range (%s to %s or %s to %s)",
            key, value, ranges[0].lowerBound, ranges[0].upperBound, ranges[1].lowerBound, ranges[1].upperBound)
    }

    static func signedInteger(_ text: String) -> Int? {
        var digits = Substring(text)
        var sign = 1
        if let first = digits.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let value = Int(digits)
        else { return nil }
        return sign * value
    }

    static func list(_ text: String?, key: String, ranges: [ClosedRange<Int>]) throws -> [Int] {
        guard let text else { return [] }
        return try text.split(separator: ",", omittingEmptySubsequences: false).map { item in
            let piece = item.trimmingCharacters(in: .whitespaces)
            guard let value = signedInteger(piece) else {
                guard ranges.count == 2 else {
                    throw ValidationError(
                        field: "repeat", template: "%s value '%s' is not a whole number (%s to %s)",
                        key, piece, ranges[0].lowerBound, ranges[0].upperBound)
                }
                throw ValidationError(
                    field: "repeat", template: "%s value '%s' is not a whole number (%s to %s or %s to %s)",
                    key, piece, ranges[0].lowerBound, ranges[0].upperBound, ranges[1].lowerBound, ranges[1].upperBound)
            }
            guard ranges.contains(where: { $0.contains(value) }) else { throw outOfRange(key, value, ranges) }
            return value
        }
    }

    static func weekdayNum(_ raw: String) throws -> WeekdayNum {
        let item = raw.trimmingCharacters(in: .whitespaces)
        let bad = ValidationError(
            field: "repeat",
            template:
                "BYDAY value '%s' is not a weekday (MO, TU, WE, TH, FR, SA, SU, optionally with an ordinal such as -1FR or 2MO)",
            item)
        guard item.count >= 2 else { throw bad }
        let code = String(item.suffix(2))
        guard let day = weekday(code: code) else { throw bad }
        let prefix = String(item.dropLast(2))
        if prefix.isEmpty { return WeekdayNum(day) }
        guard let n = signedInteger(prefix) else { throw bad }
        guard n != 0, (-53...53).contains(n) else {
            throw ValidationError(
                field: "repeat", template: "BYDAY ordinal in '%s' is out of range (1 to 53 or -53 to -1)", item)
        }
        return WeekdayNum(day, ordinal: n)
    }

    mutating func parseUntil(_ value: String) throws {
        let bad = ValidationError(
            field: "repeat",
            template: "UNTIL '%s' is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS, with Z for UTC)", value)
        let chars = Array(value)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= chars.count else { return nil }
            let slice = chars[range]
            guard slice.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(String(slice))
        }
        guard let y = number(0..<4), let mo = number(4..<6), let d = number(6..<8), y >= 1,
            LocalTime.isValidDay(year: y, month: mo, day: d)
        else { throw bad }
        var seconds = CivilTime.days(y, mo, d) * 86_400
        switch chars.count {
        case 8:
            untilIsDate = true
            untilIsFloating = true
        case 15, 16:
            guard chars[8] == "T", let h = number(9..<11), let mi = number(11..<13), let s = number(13..<15),
                h < 24, mi < 60, s <= 60
            else { throw bad }
            if chars.count == 16 { guard chars[15] == "Z" else { throw bad } }
            seconds += h * 3600 + mi * 60 + min(s, 59)
            untilIsDate = false
            untilIsFloating = chars.count == 15
        default:
            throw bad
        }
        until = Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    static func untilText(_ date: Date, floating: Bool, date isDate: Bool) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let (y, m, d) = CivilTime.civil(CivilTime.floorDiv(seconds, 86_400))
        let sod = CivilTime.floorMod(seconds, 86_400)
        func pad(_ v: Int, _ w: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, w - s.count)) + s
        }
        let day = pad(y, 4) + pad(m, 2) + pad(d, 2)
        if isDate { return day }
        return day + "T" + pad(sod / 3600, 2) + pad(sod / 60 % 60, 2) + pad(sod % 60, 2) + (floating ? "" : "Z")
    }
}

/// Proleptic Gregorian arithmetic on day numbers (days since 1970-01-01) and wall-clock seconds
/// written as if they were UTC. Exact and fast; no Calendar, no zone.
public enum CivilTime {
    @inline(__always) public static func floorDiv(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    @inline(__always) static func floorMod(_ a: Int, _ b: Int) -> Int { a - floorDiv(a, b) * b }

    /// Days since 1970-01-01 of a civil date (month 1...12; day may overflow the month).
    public static func days(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public static func civil(_ dayNumber: Int) -> (year: Int, month: Int, day: Int) {
        let z = dayNumber + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400
        return (m <= 2 ? y + 1 : y, m, d)
    }

    static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }
    static func yearLength(_ y: Int) -> Int { isLeap(y) ? 366 : 365 }

    public static func daysInMonth(_ y: Int, _ m: Int) -> Int {
        switch m {
        case 2: return isLeap(y) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Monday = 0 ... Sunday = 6 (1970-01-01 was a Thursday).
    @inline(__always) static func weekday(_ dayNumber: Int) -> Int { floorMod(dayNumber + 3, 7) }
}
