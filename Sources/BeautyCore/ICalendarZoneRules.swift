import Foundation

/// The offsets a VTIMEZONE defines: its STANDARD and DAYLIGHT observances, each starting at its
/// DTSTART (a wall time on the clock before it) and again at its RRULE's and RDATEs' times,
/// expanded with beautyd's own recurrence rules.
struct VTimezoneRules {
    struct Observance {
        var daylight: Bool
        var start: ICalendar.Wall
        var startGiven: Bool
        var line: Int
        var from: Int
        var to: Int
        var rule: RecurrenceRule?
        var rdates: [ICalendar.Wall]
    }

    let tzid: String
    let observances: [Observance]

    /// Reads the observances; throws only for what cannot be read at all (no observance, an
    /// offset or date that is not one, a rule that does not parse).
    init(_ definition: ICalComponent, tzid: String) throws {
        self.tzid = tzid
        var read: [Observance] = []
        for part in definition.children where part.name == "STANDARD" || part.name == "DAYLIGHT" {
            guard let toProperty = part.first("TZOFFSETTO") else {
                throw ICalendarError(
                    line: part.line, template: "%s of time zone '%s' has no TZOFFSETTO", part.name, tzid)
            }
            let to = try Self.offset(toProperty)
            let from = try part.first("TZOFFSETFROM").map(Self.offset) ?? to
            var start = ICalendar.Wall(year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0)
            if let dtstart = part.first("DTSTART") {
                guard let value = ICalendar.dateValue(dtstart.value) else {
                    throw ICalendarError(
                        line: dtstart.line, template: "%s of time zone '%s': DTSTART '%s' is not a date-time",
                        part.name, tzid, dtstart.value)
                }
                start = value.wall
            }
            var rule: RecurrenceRule?
            if let rrule = part.first("RRULE") {
                do { rule = try RecurrenceRule.parse(rrule.value) } catch {
                    throw ICalendarError(
                        line: rrule.line, template: "%s of time zone '%s': RRULE '%s' is not a rule beautyd can read",
                        part.name, tzid, rrule.value)
                }
            }
            var rdates: [ICalendar.Wall] = []
            for property in part.all("RDATE") {
                for item in property.value.split(separator: ",") {
                    guard let value = ICalendar.dateValue(String(item)) else {
                        throw ICalendarError(
                            line: property.line, template: "%s of time zone '%s': RDATE '%s' is not a date-time",
                            part.name, tzid, item)
                    }
                    rdates.append(value.wall)
                }
            }
            read.append(
                Observance(
                    daylight: part.name == "DAYLIGHT", start: start, startGiven: part.first("DTSTART") != nil,
                    line: part.line, from: from, to: to, rule: rule, rdates: rdates))
        }
        guard !read.isEmpty else {
            throw ICalendarError(
                line: definition.line, template: "time zone '%s' has no STANDARD or DAYLIGHT part", tzid)
        }
        observances = read
        if fixedOffset == nil, let undated = read.first(where: { !$0.startGiven }) {
            throw ICalendarError(
                line: undated.line, template: "%s of time zone '%s' has no DTSTART: when its offset starts is not said",
                undated.daylight ? "DAYLIGHT" : "STANDARD", tzid)
        }
    }

    private static func offset(_ property: ICalProperty) throws -> Int {
        guard let value = ICalendar.utcOffset(property.value) else {
            throw ICalendarError(
                line: property.line, template: "%s '%s' is not an offset such as +0100", property.name, property.value)
        }
        return value
    }

    /// The one offset of a zone whose observances never change it.
    var fixedOffset: Int? {
        let all = Set(observances.flatMap { [$0.from, $0.to] })
        return all.count == 1 ? all.first : nil
    }

    /// The offset standard time has: the latest-starting STANDARD's (else the latest observance's).
    var standardOffset: Int {
        let standard = observances.filter { !$0.daylight }
        let pool = standard.isEmpty ? observances : standard
        return pool.max { Self.seconds($0.start) < Self.seconds($1.start) }!.to
    }

    /// Every change of offset in [from, to) as (instant, offset after), ascending, and the offset in force at `from`.
    func changes(from: Date, to: Date) -> (initial: Int, changes: [(instant: Date, offset: Int)]) {
        let utc = TimeZone(identifier: "UTC")!
        var onsets: [(instant: Int, offset: Int, from: Int)] = []
        for o in observances {
            // Wall times are expanded as if UTC, then placed with the offset before each change.
            let first = Date(timeIntervalSince1970: TimeInterval(Self.seconds(o.start)))
            var walls = [first] + o.rdates.map { Date(timeIntervalSince1970: TimeInterval(Self.seconds($0))) }
            if let rule = o.rule {
                let lower = from.addingTimeInterval(-2 * 86_400), upper = to.addingTimeInterval(2 * 86_400)
                walls += Recurrence.occurrences(of: rule, start: first, zone: utc, from: lower, to: upper, limit: 1_000)
            }
            for wall in Set(walls) {
                onsets.append((Int(wall.timeIntervalSince1970) - o.from, o.to, o.from))
            }
        }
        onsets.sort { $0.instant < $1.instant }
        let fromSec = Int(from.timeIntervalSince1970), toSec = Int(to.timeIntervalSince1970)
        var current = onsets.first?.from ?? 0
        var changes: [(instant: Date, offset: Int)] = []
        for onset in onsets where onset.instant < toSec {
            if onset.instant <= fromSec {
                current = onset.offset
            } else if onset.offset != (changes.last?.offset ?? current) {
                changes.append((Date(timeIntervalSince1970: TimeInterval(onset.instant)), onset.offset))
            }
        }
        return (current, changes)
    }

    private static func seconds(_ w: ICalendar.Wall) -> Int {
        CivilTime.days(w.year, w.month, w.day) * 86_400 + w.hour * 3600 + w.minute * 60 + w.second
    }
}
