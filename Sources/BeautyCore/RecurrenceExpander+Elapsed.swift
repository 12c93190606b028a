import Foundation

/// HOURLY, MINUTELY and SECONDLY rules: steps in elapsed time from DTSTART, limits checked against
/// the wall-clock time of each instant.
extension Expander {
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
                    for index in Set(picked).sorted() where !done {
                        emit(instant: passing[index].instant, wall: passing[index].wall)
                    }
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
