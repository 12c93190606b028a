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
///   daily 08:00 stays 08:00 across DST. A wall time that does not exist is read with the offset
///   before the gap and a repeated one is its first occurrence (RFC 5545 §3.3.10 reads a computed
///   local time as §3.3.5 reads a DATE-TIME; `LocalTime.instant`); two wall times that land on one
///   instant give one occurrence. A series whose DTSTART is in a gap keeps the wall time it was
///   given (`startWall`): daily from 02:30 on a spring-forward day is 03:30 that day, 02:30 after.
/// - HOURLY, MINUTELY and SECONDLY rules step in elapsed time from DTSTART ("every 8 hours" is 8
///   real hours across DST): RFC 5545 §3.3.6 makes hours, minutes and seconds exact durations and
///   only days and weeks nominal. python-dateutil steps wall-clock hours instead, so
///   FREQ=HOURLY;INTERVAL=769 from 2027-03-01 09:00 Warsaw is 2027-04-02 11:00 CEST here (769
///   real hours) and 10:00 there. Their BYxxx limits (BYHOUR, BYDAY, …) are checked against the
///   local wall-clock time of each instant.
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
    /// `startWall` (`AppointmentRecurrence.startWall`): the wall time DTSTART was given when it is
    /// in a DST gap; the rule keeps its time of day.
    public static func occurrences(
        of rule: RecurrenceRule, start: Date, zone: TimeZone, from: Date, to: Date,
        exdates: [Date] = [], rdates: [Date] = [], limit: Int = 10_000, startWall: String? = nil
    ) -> [Date] {
        guard limit > 0, from < to, start.timeIntervalSince1970.isFinite else { return [] }
        let excluded = Set(exdates.map(key))
        let need = limit > Int.max - excluded.count - 1 ? Int.max : limit + excluded.count + 1
        var expander = Expander(
            rule: rule, start: start, startWall: startWall, zone: zone, from: from, to: to, need: need)
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
    public static func key(_ date: Date) -> Int { seconds(date, rounding: .down) }

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
