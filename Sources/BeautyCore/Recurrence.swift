import Foundation

/// Expands RFC 5545 recurrence rules into instants. Pure: the zone and the range are given.
///
/// The algorithm is the classic one of libical and python-dateutil, written here because
/// Foundation's `Calendar.RecurrenceRule` is not RFC 5545 (it rolls the 31st into the next
/// month, gives one day per period for MONTHLY/YEARLY BYDAY, …): walk the periods FREQ×INTERVAL
/// from DTSTART; in each, build the candidate days and times from the BYxxx parts with the RFC
/// 5545 expand/limit table; apply BYSETPOS to the period's set; drop what is before DTSTART;
/// stop at COUNT or UNTIL.
///
/// - YEARLY, MONTHLY, WEEKLY and DAILY rules are expanded in the wall-clock time of the zone, so a
///   daily 08:00 stays 08:00 across DST. A wall time that does not exist resolves to the first
///   valid instant after it and a repeated one to its first occurrence (as `LocalTime.instant`);
///   two wall times that land on one instant give one occurrence.
/// - HOURLY, MINUTELY and SECONDLY rules step in elapsed time from DTSTART ("every 8 hours" is 8
///   real hours across DST); their BYxxx limits (BYHOUR, BYDAY, …) are checked against the local
///   wall-clock time of each instant.
/// - DTSTART is always the first occurrence and counts towards COUNT, even when it does not match
///   the rule (RFC 5545 3.3.10); otherwise the results are those of python-dateutil, except where
///   it departs from RFC 5545: a WEEKLY BYSETPOS picks from the whole week (WKST-based) containing
///   DTSTART, not only from DTSTART on; BYDAY mixing plain and ordinal days (MO,-1FR) is their
///   union; BYWEEKNO numbers every week consistently across year ends.
/// - Rules that never match stop after 400 years without a match (or year 9999).
public enum Recurrence {
    /// Occurrence instants of `rule` for an event whose first start is `start`, expanded in the
    /// wall-clock time of `zone`, plus `rdates`, minus `exdates` (matched by instant, to the
    /// second), that fall in [from, to), ascending, unique, at most `limit`.
    /// COUNT counts from the first occurrence: DTSTART itself, even if it does not match the rule.
    public static func occurrences(
        of rule: RecurrenceRule, start: Date, zone: TimeZone, from: Date, to: Date,
        exdates: [Date] = [], rdates: [Date] = [], limit: Int = 10_000
    ) -> [Date] {
        guard limit > 0, from < to, start.timeIntervalSince1970.isFinite else { return [] }
        let excluded = Set(exdates.map(key))
        let need = limit > Int.max - excluded.count - 1 ? Int.max : limit + excluded.count + 1
        var expander = Expander(rule: rule, start: start, zone: zone, from: from, to: to, need: need)
        expander.run()

        var all: [(key: Int, date: Date)] = []
        if start >= from && start < to { all.append((key(start), start)) }
        for t in expander.found { all.append((t, Date(timeIntervalSince1970: TimeInterval(t)))) }
        for date in rdates where date >= from && date < to { all.append((key(date), date)) }
        all.sort { $0.date < $1.date }
        var result: [Date] = []
        var previous: Int?
        for item in all where item.key != previous {
            previous = item.key
            if excluded.contains(item.key) { continue }
            result.append(item.date)
            if result.count == limit { break }
        }
        return result
    }

    /// Whole seconds since 1970, rounded down; the identity of an occurrence.
    static func key(_ date: Date) -> Int { seconds(date, rounding: .down) }

    /// The year-10000 bound, in seconds either way.
    static let maxSeconds = 253_402_300_800

    static func seconds(_ date: Date, rounding: FloatingPointRoundingRule) -> Int {
        let x = date.timeIntervalSince1970
        if x.isNaN { return 0 }
        if x >= Double(maxSeconds) { return maxSeconds }
        if x <= -Double(maxSeconds) { return -maxSeconds }
        return Int(x.rounded(rounding))
    }
}

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
    var lastInstant: Int
    var found: [Int] = []
    var done = false

    /// 400 years of days: a rule with no match for this long is taken to never match again.
    static let emptySpanDays = 146_097
    /// Elapsed-time rules: candidates examined without a match before giving up.
    static let emptyIterations = 5_000_000

    init(rule: RecurrenceRule, start: Date, zone: TimeZone, from: Date, to: Date, need: Int) {
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
        lastInstant = startSec
        countLeft = rule.count.map { max($0, 1) - 1 }
        let until = rule.until.map { Recurrence.seconds($0, rounding: .down) }
        untilIsDate = rule.untilIsDate
        let floating = rule.untilIsFloating || rule.untilIsDate
        untilWall = floating ? until : nil
        untilInstant = floating ? nil : until
        var offset0 = 0
        if let fixedOffset { offset0 = fixedOffset } else { offset0 = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(startSec))) }
        dtWall = startSec + offset0
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
        if let date = LocalTime.instant(year: y, month: m, day: d, hour: sod / 3600, minute: sod / 60 % 60,
                                        second: sod % 60, in: zone) {
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

    // MARK: YEARLY, MONTHLY, WEEKLY, DAILY: in wall-clock time

    mutating func runWallClock() {
        let freq = rule.frequency
        let sod0 = dtWall - dtDay * 86_400
        let hours = rule.byHour.isEmpty ? [sod0 / 3600] : rule.byHour.filter { (0..<24).contains($0) }
        let minutes = rule.byMinute.isEmpty ? [sod0 / 60 % 60] : rule.byMinute.filter { (0..<60).contains($0) }
        let seconds = rule.bySecond.isEmpty ? [sod0 % 60] : rule.bySecond.filter { (0..<60).contains($0) }
        var times: [Int] = []
        for h in hours { for m in minutes { for s in seconds { times.append(h * 3600 + m * 60 + s) } } }
        times = Array(Set(times)).sorted()
        guard !times.isEmpty else { return }
        let setPos = rule.bySetPos.filter { $0 != 0 }

        var (year, month, _) = CivilTime.civil(dtDay)
        var anchor = dtDay  // WEEKLY, DAILY: the period's first day
        let (y0, m0) = (year, month)
        if countLeft == nil {
            // Skip the periods that end before `from`.
            let target = CivilTime.floorDiv(fromSec + offset(fromSec), 86_400) - 2
            if target > dtDay {
                let (ty, tm, _) = CivilTime.civil(target)
                switch freq {
                case .yearly:
                    let n = CivilTime.floorDiv(ty - y0, interval)
                    if n > 0 { year = y0 + n * interval }
                case .monthly:
                    let n = CivilTime.floorDiv((ty * 12 + tm - 1) - (y0 * 12 + m0 - 1), interval)
                    if n > 0 {
                        let index = y0 * 12 + m0 - 1 + n * interval
                        year = CivilTime.floorDiv(index, 12)
                        month = CivilTime.floorMod(index, 12) + 1
                    }
                case .weekly:
                    let week0 = dtDay - CivilTime.floorMod(CivilTime.weekday(dtDay) - wkst, 7)
                    let n = CivilTime.floorDiv(target - week0, 7 * interval)
                    if n > 0 { anchor = week0 + n * 7 * interval }
                default:
                    let n = CivilTime.floorDiv(target - dtDay, interval)
                    if n > 0 { anchor = dtDay + n * interval }
                }
            }
        }
        let lastDay = CivilTime.floorDiv(toSec + offset(toSec), 86_400) + 2
        var lastProductive: Int?
        var days: [Int] = []
        var walls: [Int] = []

        while !done {
            let first: Int, last: Int
            switch freq {
            case .yearly:
                first = CivilTime.days(year, 1, 1)
                last = first + CivilTime.yearLength(year) - 1
            case .monthly:
                first = CivilTime.days(year, month, 1)
                last = first + CivilTime.daysInMonth(year, month) - 1
            case .weekly:
                first = anchor
                var toNext = CivilTime.floorMod(wkst - CivilTime.weekday(first), 7)
                if toNext == 0 { toNext = 7 }
                last = first + toNext - 1
            default:
                first = anchor
                last = anchor
            }
            if first > lastDay || CivilTime.civil(first).year > 9999 { break }
            if first - (lastProductive ?? first) > Self.emptySpanDays { break }

            var nth: Set<Int>?
            if !ordinals.isEmpty {
                if freq == .yearly, let monthOK {
                    nth = nthDays((1...12).filter { monthOK[$0] }.map { m in
                        let f = CivilTime.days(year, m, 1)
                        return (f, f + CivilTime.daysInMonth(year, m) - 1)
                    })
                } else {
                    nth = nthDays([(first, last)])
                }
            }
            // RFC 5545: a WEEKLY BYSETPOS selects from the whole week, even the first one.
            var scanFirst = first
            if freq == .weekly && !setPos.isEmpty { scanFirst = first - CivilTime.floorMod(CivilTime.weekday(first) - wkst, 7) }
            days.removeAll(keepingCapacity: true)
            for day in scanFirst...last where dayMatches(day, nth: nth) { days.append(day) }
            if lastProductive == nil { lastProductive = first }

            if !days.isEmpty {
                lastProductive = first
                if setPos.isEmpty {
                    outer: for day in days {
                        for t in times {
                            emit(wall: day * 86_400 + t)
                            if done { break outer }
                        }
                    }
                } else {
                    let total = days.count * times.count
                    walls.removeAll(keepingCapacity: true)
                    for pos in setPos {
                        let index = pos > 0 ? pos - 1 : total + pos
                        guard index >= 0 && index < total else { continue }
                        walls.append(days[index / times.count] * 86_400 + times[index % times.count])
                    }
                    walls.sort()
                    var previous: Int?
                    for wall in walls where wall != previous {
                        previous = wall
                        emit(wall: wall)
                        if done { break }
                    }
                }
            }

            switch freq {
            case .yearly:
                year += interval
            case .monthly:
                let index = year * 12 + month - 1 + interval
                year = CivilTime.floorDiv(index, 12)
                month = CivilTime.floorMod(index, 12) + 1
            case .weekly:
                anchor = first - CivilTime.floorMod(CivilTime.weekday(first) - wkst, 7) + 7 * interval
            default:
                anchor += interval
            }
        }
    }

    mutating func emit(wall: Int) {
        guard wall > dtWall else { return }
        if afterUntil(wall: wall) { done = true; return }
        let t = instant(ofWall: wall)
        guard t > lastInstant else { return }  // two wall times on one instant (a DST gap)
        lastInstant = t
        accept(t)
    }

    /// Whether a wall time is after a floating or DATE UNTIL (a UTC one is checked in `accept`).
    func afterUntil(wall: Int) -> Bool {
        guard let untilWall else { return false }
        if untilIsDate { return CivilTime.floorDiv(wall, 86_400) > CivilTime.floorDiv(untilWall, 86_400) }
        return wall > untilWall
    }

    /// Takes a rule instant after DTSTART, in order: UNTIL (UTC), COUNT, the range, the limit.
    mutating func accept(_ t: Int) {
        if let untilInstant, t > untilInstant { done = true; return }
        if let left = countLeft {
            if left <= 0 { done = true; return }
            countLeft = left - 1
        }
        if t >= toSec { done = true; return }
        if t >= fromSec {
            found.append(t)
            if found.count >= need { done = true }
        }
    }

    // MARK: HOURLY, MINUTELY, SECONDLY: in elapsed time

    mutating func runElapsed() {
        let freq = rule.frequency
        let unit = freq == .hourly ? 3600 : freq == .minutely ? 60 : 1
        let step = unit * interval
        let sod0 = dtWall - dtDay * 86_400
        let (minute0, second0) = (sod0 / 60 % 60, sod0 % 60)
        let seconds = rule.bySecond.isEmpty ? [second0] : rule.bySecond.filter { (0..<60).contains($0) }
        var expansion: [Int]
        let base: Int
        switch freq {
        case .hourly:
            base = startSec - minute0 * 60 - second0
            let minutes = rule.byMinute.isEmpty ? [minute0] : rule.byMinute.filter { (0..<60).contains($0) }
            expansion = minutes.flatMap { m in seconds.map { m * 60 + $0 } }
        case .minutely:
            base = startSec - second0
            expansion = seconds
        default:
            base = startSec
            expansion = [0]
        }
        expansion = Array(Set(expansion)).sorted()
        guard let maxE = expansion.last, reachable(base: base, step: step, expansion: expansion) else { return }
        let setPos = rule.bySetPos.filter { $0 != 0 }

        var k = 0
        if countLeft == nil && fromSec - base > unit {
            k = max(0, CivilTime.floorDiv(fromSec - base - unit, step))
        }
        var lastProductiveDay: Int?
        var sinceProductive = 0
        var passing: [(instant: Int, wall: Int)] = []
        var memoDay = Int.min, memoOK = false

        while !done {
            let periodStart = base + k * step
            if periodStart >= toSec || periodStart > Recurrence.maxSeconds { break }
            sinceProductive += 1
            if sinceProductive > Self.emptyIterations { break }

            passing.removeAll(keepingCapacity: true)
            var anyDay = false, anyHour = false, anyMinute = false
            var lastC = periodStart, lastWall = periodStart
            for e in expansion {
                let c = periodStart + e
                let wall = c + offset(c)
                lastC = c
                lastWall = wall
                let day = CivilTime.floorDiv(wall, 86_400)
                if day != memoDay {
                    memoDay = day
                    memoOK = dayMatches(day, nth: nil)
                }
                if lastProductiveDay == nil { lastProductiveDay = day }
                guard memoOK else { continue }
                anyDay = true
                let sod = wall - day * 86_400
                if let hourOK, !hourOK[sod / 3600] { continue }
                anyHour = true
                if let minuteOK, !minuteOK[sod / 60 % 60] { continue }
                anyMinute = true
                if let secondOK, !secondOK[sod % 60] { continue }
                passing.append((c, wall))
            }
            let day = CivilTime.floorDiv(lastWall, 86_400)
            if day - (lastProductiveDay ?? day) > Self.emptySpanDays || CivilTime.civil(day).year > 9999 { break }

            if !passing.isEmpty {
                sinceProductive = 0
                lastProductiveDay = day
                if setPos.isEmpty {
                    for (c, wall) in passing where !done { emit(instant: c, wall: wall) }
                } else {
                    var picked: [Int] = []
                    for pos in setPos {
                        let index = pos > 0 ? pos - 1 : passing.count + pos
                        if index >= 0 && index < passing.count { picked.append(index) }
                    }
                    for index in Set(picked).sorted() where !done { emit(instant: passing[index].instant, wall: passing[index].wall) }
                }
            }

            // The next period, jumping over whole days or hours that cannot match.
            var skipTo: Int?
            let sod = lastWall - day * 86_400
            if !anyDay {
                skipTo = lastC + 86_400 - sod
            } else if freq != .hourly, hourOK != nil, !anyHour {
                skipTo = lastC + 3600 - sod % 3600
            } else if freq == .secondly, minuteOK != nil, !anyMinute {
                skipTo = lastC + 60 - sod % 60
            }
            if var target = skipTo {
                // Across a change of offset the boundary may come earlier: err early.
                let shift = offset(target) - offset(lastC)
                target -= abs(shift)
                let next = CivilTime.floorDiv(target - maxE - base + step - 1, step)
                k = max(k + 1, next)
            } else {
                k += 1
            }
        }
    }

    mutating func emit(instant c: Int, wall: Int) {
        guard c > startSec else { return }
        if afterUntil(wall: wall) { done = true; return }
        accept(c)
    }

    /// Whether some local time of day can meet the BYHOUR/BYMINUTE/BYSECOND limits of an
    /// elapsed-time rule (as dateutil refuses e.g. FREQ=HOURLY;INTERVAL=6;BYHOUR=1 from 00:00).
    /// Conservative: offsets the zone takes in the coming decades count as reachable shifts.
    func reachable(base: Int, step: Int, expansion: [Int]) -> Bool {
        guard hourOK != nil || minuteOK != nil || secondOK != nil else { return true }
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        let g = gcd(step, 86_400)
        let offset0 = offset(startSec)
        var shifts: Set<Int> = [0]
        if fixedOffset == nil {
            var t = Date(timeIntervalSince1970: TimeInterval(startSec))
            for _ in 0..<80 {
                guard let next = zone.nextDaylightSavingTimeTransition(after: t) else { break }
                shifts.insert(zone.secondsFromGMT(for: next) - offset0)
                t = next
            }
            shifts.insert(offset(fromSec) - offset0)
            shifts.insert(offset(min(toSec, Recurrence.maxSeconds)) - offset0)
        }
        let sodBase = CivilTime.floorMod(base + offset0, 86_400)
        var residues = Set<Int>()
        for e in expansion { for s in shifts { residues.insert(CivilTime.floorMod(sodBase + e + s, g)) } }
        for sod in 0..<86_400 {
            if let hourOK, !hourOK[sod / 3600] { continue }
            if let minuteOK, !minuteOK[sod / 60 % 60] { continue }
            if let secondOK, !secondOK[sod % 60] { continue }
            if residues.contains(sod % g) { return true }
        }
        return false
    }
}
