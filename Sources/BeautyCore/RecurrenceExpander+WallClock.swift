import Foundation

/// YEARLY, MONTHLY, WEEKLY and DAILY rules: periods and candidates in wall-clock time, so a daily
/// 08:00 stays 08:00 across DST.
extension Expander {
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
                    nth = nthDays(
                        (1...12).filter { monthOK[$0] }.map { m in
                            let f = CivilTime.days(year, m, 1)
                            return (f, f + CivilTime.daysInMonth(year, m) - 1)
                        })
                } else {
                    nth = nthDays([(first, last)])
                }
            }
            // RFC 5545: a WEEKLY BYSETPOS selects from the whole week, even the first one.
            var scanFirst = first
            if freq == .weekly && !setPos.isEmpty {
                scanFirst = first - CivilTime.floorMod(CivilTime.weekday(first) - wkst, 7)
            }
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
        let day = CivilTime.floorDiv(wall, 86_400)
        if day != emittedDay {
            emittedDay = day
            emittedOnDay = [startSec]
        }
        guard emittedOnDay.insert(t).inserted else { return }  // two wall times on one instant (a DST gap)
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
}
