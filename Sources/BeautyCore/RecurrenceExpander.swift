import Foundation

/// One expansion: the rule's instants after DTSTART within [from, to), in `found`.
struct Expander {
    let rule: RecurrenceRule
    let zone: TimeZone
    let fixedOffset: Int?
    let interval: Int
    let wkst: Int
    let startSec: Int
    let dtWall: Int
    let dtDay: Int
    let fromSec: Int
    let toSec: Int
    let need: Int
    /// UNTIL: an instant (the "Z" form), or a wall time (floating; DATE: that whole day).
    let untilInstant: Int?
    let untilWall: Int?
    let untilIsDate: Bool

    // Filters, as lookup tables.
    var monthOK: [Bool]?
    var mdayPos = [Bool](repeating: false, count: 32)
    var mdayNeg = [Bool](repeating: false, count: 32)
    var hasMonthDay = false
    var ydayPos = [Bool](repeating: false, count: 367)
    var ydayNeg = [Bool](repeating: false, count: 367)
    var hasYearDay = false
    var plainWeekday = [Bool](repeating: false, count: 7)
    var ordinals: [(weekday: Int, n: Int)] = []
    var hasByDay = false
    var weekNos: [Int] = []
    var hourOK: [Bool]?
    var minuteOK: [Bool]?
    var secondOK: [Bool]?

    // State.
    var countLeft: Int?
    /// Instants given on the wall-clock day being expanded: in a DST gap, wall times read with the
    /// offset before it repeat the instants of the hour after it, and count once.
    var emittedDay = Int.min
    var emittedOnDay: Set<Int> = []
    var found: [Int] = []
    var done = false

    /// 400 years of days: a rule with no match for this long is taken to never match again.
    static let emptySpanDays = 146_097
    /// Elapsed-time rules: candidates examined without a match before giving up.
    static let emptyIterations = 5_000_000

    init(rule: RecurrenceRule, start: Date, startWall: String? = nil, zone: TimeZone, from: Date, to: Date, need: Int) {
        self.rule = rule
        self.zone = zone
        self.need = need
        interval = min(max(rule.interval, 1), RecurrenceRule.maxInterval)
        wkst = RecurrenceRule.mondayIndex(rule.weekStart)
        let probe = Date(timeIntervalSince1970: -2_208_988_800)  // 1900
        fixedOffset = zone.nextDaylightSavingTimeTransition(after: probe) == nil ? zone.secondsFromGMT(for: probe) : nil
        startSec = Recurrence.seconds(start, rounding: .down)
        fromSec = Recurrence.seconds(from, rounding: .up)
        toSec = Recurrence.seconds(to, rounding: .up)
        countLeft = rule.count.map { max($0, 1) - 1 }
        let until = rule.until.map { Recurrence.seconds($0, rounding: .down) }
        untilIsDate = rule.untilIsDate
        let floating = rule.untilIsFloating || rule.untilIsDate
        untilWall = floating ? until : nil
        untilInstant = floating ? nil : until
        var offset0 = 0
        if let fixedOffset {
            offset0 = fixedOffset
        } else {
            offset0 = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(startSec)))
        }
        if let given = startWall.flatMap(LocalTime.wallFields), let y = given.year, let m = given.month,
            let d = given.day
        {
            dtWall = CivilTime.days(y, m, d) * 86_400 + given.hour! * 3600 + given.minute! * 60 + given.second!
        } else {
            dtWall = startSec + offset0
        }
        dtDay = CivilTime.floorDiv(dtWall, 86_400)

        let freq = rule.frequency
        let (_, m0, d0) = CivilTime.civil(dtDay)
        var byMonth = rule.byMonth.filter { (1...12).contains($0) }
        var byMonthDay = rule.byMonthDay.filter { $0 != 0 && (-31...31).contains($0) }
        var byDay = rule.byDay
        if rule.byWeekNo.isEmpty && rule.byYearDay.isEmpty && rule.byMonthDay.isEmpty && rule.byDay.isEmpty {
            switch freq {
            case .yearly:
                if byMonth.isEmpty { byMonth = [m0] }
                byMonthDay = [d0]
            case .monthly:
                byMonthDay = [d0]
            case .weekly:
                byDay = [.init(Weekday.allCases[(CivilTime.weekday(dtDay) + 1) % 7])]
            default: break
            }
        }
        if !byMonth.isEmpty {
            var ok = [Bool](repeating: false, count: 13)
            for m in byMonth { ok[m] = true }
            monthOK = ok
        }
        for v in byMonthDay {
            hasMonthDay = true
            if v > 0 { mdayPos[v] = true } else { mdayNeg[-v] = true }
        }
        for v in rule.byYearDay where v != 0 && (-366...366).contains(v) {
            hasYearDay = true
            if v > 0 { ydayPos[v] = true } else { ydayNeg[-v] = true }
        }
        let ordinalsCount = freq == .yearly || freq == .monthly
        for entry in byDay {
            hasByDay = true
            let wd = RecurrenceRule.mondayIndex(entry.weekday)
            if let n = entry.ordinal, n != 0, ordinalsCount {
                ordinals.append((wd, n))
            } else {
                plainWeekday[wd] = true
            }
        }
        weekNos = rule.byWeekNo.filter { $0 != 0 && (-53...53).contains($0) }
        func mask(_ values: [Int], _ size: Int) -> [Bool]? {
            let valid = values.filter { (0..<size).contains($0) }
            guard !values.isEmpty else { return nil }
            var ok = [Bool](repeating: false, count: size)
            for v in valid { ok[v] = true }
            return ok
        }
        switch freq {
        case .hourly: hourOK = mask(rule.byHour, 24)
        case .minutely:
            hourOK = mask(rule.byHour, 24)
            minuteOK = mask(rule.byMinute, 60)
        case .secondly:
            hourOK = mask(rule.byHour, 24)
            minuteOK = mask(rule.byMinute, 60)
            secondOK = mask(rule.bySecond, 60)
        default: break
        }
    }

    mutating func run() {
        switch rule.frequency {
        case .yearly, .monthly, .weekly, .daily: runWallClock()
        case .hourly, .minutely, .secondly: runElapsed()
        }
    }

    // MARK: zone

    @inline(__always) func offset(_ instant: Int) -> Int {
        if let fixedOffset { return fixedOffset }
        return zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
    }

    /// The instant of a wall-clock time (seconds written as if UTC), as `LocalTime.instant`.
    func instant(ofWall wall: Int) -> Int {
        if let fixedOffset { return wall - fixedOffset }
        let before = offset(wall - 172_800), after = offset(wall + 172_800)
        if before == after, offset(wall - before) == before { return wall - before }
        let day = CivilTime.floorDiv(wall, 86_400)
        let (y, m, d) = CivilTime.civil(day)
        let sod = wall - day * 86_400
        if let date = LocalTime.instant(
            year: y, month: m, day: d, hour: sod / 3600, minute: sod / 60 % 60,
            second: sod % 60, in: zone)
        {
            return Recurrence.seconds(date, rounding: .down)
        }
        return wall - before
    }

    // MARK: days

    func week1Start(_ year: Int) -> Int {
        let jan1 = CivilTime.days(year, 1, 1)
        let back = CivilTime.floorMod(CivilTime.weekday(jan1) - wkst, 7)
        // Week 1 is the first week (starting on WKST) with at least four days in the year.
        return back <= 3 ? jan1 - back : jan1 - back + 7
    }

    func weekMatches(_ day: Int, year: Int) -> Bool {
        var start = week1Start(year)
        var weekYear = year
        if day < start {
            weekYear = year - 1
            start = week1Start(weekYear)
        } else {
            let next = week1Start(year + 1)
            if day >= next {
                weekYear = year + 1
                start = next
            }
        }
        let week = (day - start) / 7 + 1
        let weeks = (week1Start(weekYear + 1) - start) / 7
        return weekNos.contains { $0 > 0 ? week == $0 : week == weeks + 1 + $0 }
    }

    /// The days picked by ordinal BYDAY entries ("-1FR") within each inclusive range of days.
    func nthDays(_ ranges: [(Int, Int)]) -> Set<Int> {
        var days = Set<Int>()
        for (first, last) in ranges {
            for (wd, n) in ordinals {
                var i: Int
                if n < 0 {
                    i = last + (n + 1) * 7
                    i -= CivilTime.floorMod(CivilTime.weekday(i) - wd, 7)
                } else {
                    i = first + (n - 1) * 7
                    i += CivilTime.floorMod(wd - CivilTime.weekday(i), 7)
                }
                if first <= i && i <= last { days.insert(i) }
            }
        }
        return days
    }

    func dayMatches(_ day: Int, nth: Set<Int>?) -> Bool {
        let (y, m, d) = CivilTime.civil(day)
        if let monthOK, !monthOK[m] { return false }
        if hasByDay && !(plainWeekday[CivilTime.weekday(day)] || (nth?.contains(day) ?? false)) { return false }
        if hasMonthDay && !(mdayPos[d] || mdayNeg[CivilTime.daysInMonth(y, m) - d + 1]) { return false }
        if hasYearDay {
            let yd = day - CivilTime.days(y, 1, 1) + 1
            if !(ydayPos[yd] || ydayNeg[CivilTime.yearLength(y) - yd + 1]) { return false }
        }
        if !weekNos.isEmpty && !weekMatches(day, year: y) { return false }
        return true
    }
}
