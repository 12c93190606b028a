import BeautyCore
import Foundation
import Testing

// The time rules (README "Time rules") with explicit zones. Expected instants checked with
// Python's zoneinfo (fold=0 for a time in a gap) and python-dateutil.

private let newYork = TimeZone(identifier: "America/New_York")!
private let lordHowe = TimeZone(identifier: "Australia/Lord_Howe")!
private let utcZone = TimeZone(identifier: "UTC")!

private func wall(_ zone: TimeZone, _ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int) -> Date {
    LocalTime.instant(year: y, month: mo, day: d, hour: h, minute: mi, in: zone)!
}

private func lines(_ text: String) -> [String] { text.components(separatedBy: "\r\n") }

private func calendar(_ body: [String]) -> String {
    (["BEGIN:VCALENDAR", "VERSION:2.0"] + body + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
}

@Suite("Time rules: wall times in a DST gap")
struct GapRuleTests {
    @Test func aTimeInTheGapIsReadWithTheOffsetBeforeIt() {
        // Warsaw 2027-03-28 02:00 CET -> 03:00 CEST: 02:30 is 03:30 CEST (01:30Z), not 03:00.
        #expect(wall(warsaw, 2027, 3, 28, 2, 30) == utc("2027-03-28T01:30:00Z"))
        #expect(wall(newYork, 2027, 3, 14, 2, 30) == utc("2027-03-14T07:30:00Z"))  // 03:30 EDT
        // Lord Howe jumps 02:00 -> 02:30: 02:15 is 02:45 LHDT (+11).
        #expect(wall(lordHowe, 2027, 10, 3, 2, 15) == utc("2027-10-02T15:45:00Z"))
        #expect(
            LocalTime.skippedWall(year: 2027, month: 3, day: 28, hour: 2, minute: 30, in: warsaw)
                == "2027-03-28T02:30:00")
        #expect(LocalTime.skippedWall(year: 2027, month: 3, day: 28, hour: 3, minute: 30, in: warsaw) == nil)
    }

    @Test func aRepeatedTimeIsItsFirstOccurrence() {
        #expect(wall(warsaw, 2027, 10, 31, 2, 30) == utc("2027-10-31T00:30:00Z"))
    }

    @Test func typedInputInAGapFollowsTheSameRule() throws {
        let now = utc("2027-03-01T12:00:00Z")
        let given = try TimeExpression.parseGiven("2027-03-28 02:30", now: now, zone: warsaw)
        #expect(given.instant == utc("2027-03-28T01:30:00Z"))
        #expect(given.skippedWall == "2027-03-28T02:30:00")
        #expect(try TimeExpression.parseGiven("2027-03-28 03:30", now: now, zone: warsaw).skippedWall == nil)
    }

    private func daily(_ zone: TimeZone, start: Date, wall: String?, count: Int = 3) -> [Date] {
        let a = Appointment(
            title: "x", start: start, timeZone: zone.identifier,
            recurrence: AppointmentRecurrence(rule: "FREQ=DAILY;COUNT=\(count)", startWall: wall))
        return AppointmentOccurrences.starts(
            of: a, from: start.addingTimeInterval(-86_400),
            to: start.addingTimeInterval(10 * 86_400), zone: utcZone)
    }

    @Test func aDailySeriesFromAGapKeepsTheGivenTimeAfterIt() {
        #expect(
            daily(warsaw, start: utc("2027-03-28T01:30:00Z"), wall: "2027-03-28T02:30:00")
                == ["2027-03-28T01:30:00Z", "2027-03-29T00:30:00Z", "2027-03-30T00:30:00Z"].map(utc))
        #expect(
            daily(newYork, start: utc("2027-03-14T07:30:00Z"), wall: "2027-03-14T02:30:00")
                == ["2027-03-14T07:30:00Z", "2027-03-15T06:30:00Z", "2027-03-16T06:30:00Z"].map(utc))
        #expect(
            daily(lordHowe, start: utc("2027-10-02T15:45:00Z"), wall: "2027-10-03T02:15:00")
                == ["2027-10-02T15:45:00Z", "2027-10-03T15:15:00Z", "2027-10-04T15:15:00Z"].map(utc))
    }

    @Test func aDailySeriesThroughAGapMovesOnlyThatDay() {
        #expect(
            daily(warsaw, start: utc("2027-03-27T01:30:00Z"), wall: nil)
                == ["2027-03-27T01:30:00Z", "2027-03-28T01:30:00Z", "2027-03-29T00:30:00Z"].map(utc))
    }

    @Test func theDraftKeepsATypedGapTimeForASeries() throws {
        let asked = Appointment(
            title: "x", start: utc("2027-03-28T01:30:00Z"), timeZone: "Europe/Warsaw",
            recurrence: AppointmentRecurrence(rule: "FREQ=DAILY"))
        let draft = AppointmentDraft.adding(
            asked, durationSeconds: nil, defaultDurationSeconds: 3600,
            series: .init(recurrence: asked.recurrence, startWall: "2027-03-28T02:30:00"))
        #expect(try draft.resolved(zone: utcZone).recurrence?.startWall == "2027-03-28T02:30:00")
        // A wall time that is not in a gap, or does not read as the start, is not kept.
        let other = AppointmentDraft.adding(
            asked, durationSeconds: nil, defaultDurationSeconds: 3600,
            series: .init(recurrence: asked.recurrence, startWall: "2027-03-28T03:30:00"))
        #expect(try other.resolved(zone: utcZone).recurrence?.startWall == nil)
    }
}

@Suite("Time rules: UTC, floating and zoned series")
struct SeriesZoneTests {
    @Test func aUTCSeriesStaysInUTCAcrossMarch() throws {
        let text = calendar([
            "BEGIN:VEVENT", "UID:u", "DTSTART:20270326T080000Z", "RRULE:FREQ=DAILY;COUNT=4", "END:VEVENT",
        ])
        let event = try #require(try ICalendar.parse(text, defaultZone: warsaw).first)
        #expect(event.timeZone == "UTC")
        let a = event.appointment()
        #expect(
            AppointmentOccurrences.starts(
                of: a, from: a.start, to: a.start.addingTimeInterval(10 * 86_400), zone: warsaw)
                == ["2027-03-26T08:00:00Z", "2027-03-27T08:00:00Z", "2027-03-28T08:00:00Z", "2027-03-29T08:00:00Z"].map(
                    utc))
        // Written back with Z, not TZID=UTC, also after the daemon names the zone GMT.
        for name in ["UTC", "GMT"] {
            var named = event
            named.timeZone = name
            let written = ICalendar.serialize([named], stamp: utc("2027-01-01T00:00:00Z"), defaultZone: warsaw)
            #expect(lines(written).contains("DTSTART:20270326T080000Z"))
            #expect(!written.contains("TZID"))
        }
    }

    @Test func aFloatingSeriesFollowsTheGivenZone() throws {
        let text = calendar([
            "BEGIN:VEVENT", "UID:f", "DTSTART:20270326T080000", "RRULE:FREQ=DAILY;COUNT=3", "END:VEVENT",
        ])
        for zone in [warsaw, newYork] {
            let event = try #require(try ICalendar.parse(text, defaultZone: zone).first)
            #expect(event.timeZone == nil)
            let a = event.appointment()
            let starts = AppointmentOccurrences.starts(
                of: a, from: a.start, to: a.start.addingTimeInterval(5 * 86_400), zone: zone)
            #expect(
                starts == [wall(zone, 2027, 3, 26, 8, 0), wall(zone, 2027, 3, 27, 8, 0), wall(zone, 2027, 3, 28, 8, 0)])
            // Exported floating: export -> import -> export is the same.
            let written = ICalendar.serialize([event], stamp: utc("2027-01-01T00:00:00Z"), defaultZone: zone)
            #expect(lines(written).contains("DTSTART:20270326T080000"))
            let again = try ICalendar.parse(written, defaultZone: zone)
            #expect(ICalendar.serialize(again, stamp: utc("2027-01-01T00:00:00Z"), defaultZone: zone) == written)
        }
    }

    @Test func aGapStartIsReadAndWrittenWithItsGivenWallTime() throws {
        let text = calendar([
            "BEGIN:VEVENT", "UID:g", "DTSTART;TZID=Europe/Warsaw:20270328T023000", "RRULE:FREQ=DAILY;COUNT=3",
            "END:VEVENT",
        ])
        let event = try #require(try ICalendar.parse(text, defaultZone: utcZone).first)
        #expect(event.start == utc("2027-03-28T01:30:00Z"))
        #expect(event.startWall == "2027-03-28T02:30:00")
        let a = event.appointment()
        #expect(a.recurrence?.startWall == "2027-03-28T02:30:00")
        #expect(
            AppointmentOccurrences.starts(
                of: a, from: a.start, to: a.start.addingTimeInterval(5 * 86_400), zone: utcZone)
                == ["2027-03-28T01:30:00Z", "2027-03-29T00:30:00Z", "2027-03-30T00:30:00Z"].map(utc))
        let written = ICalendar.serialize(
            [CalendarEvent(a, contactName: nil)], stamp: utc("2027-01-01T00:00:00Z"), defaultZone: utcZone)
        #expect(lines(written).contains("DTSTART;TZID=Europe/Warsaw:20270328T023000"))
    }

    @Test func dtstampIsTheGivenStampInUTC() {
        let event = CalendarEvent(uid: "s", summary: "x", start: utc("2027-06-01T08:00:00Z"), timeZone: "Europe/Warsaw")
        let written = ICalendar.serialize([event], stamp: utc("2027-01-02T03:04:05Z"), defaultZone: newYork)
        #expect(lines(written).contains("DTSTAMP:20270102T030405Z"))
    }
}

@Suite("Time rules: HOURLY steps elapsed hours")
struct HourlyRuleTests {
    /// 769 hours from 2027-03-01 09:00 CET cross the March change: 769 real hours are 2027-04-02
    /// 11:00 CEST (09:00Z). dateutil steps wall-clock hours and gives 10:00 CEST; RFC 5545 §3.3.6
    /// makes hours exact, so beautyd keeps elapsed time.
    @Test func hourlyInterval769KeepsElapsedTimeAcrossDST() throws {
        let rule = try RecurrenceRule.parse("FREQ=HOURLY;INTERVAL=769;COUNT=2")
        let start = wall(warsaw, 2027, 3, 1, 9, 0)
        #expect(
            Recurrence.occurrences(of: rule, start: start, zone: warsaw, from: start, to: utc("2028-01-01T00:00:00Z"))
                == ["2027-03-01T08:00:00Z", "2027-04-02T09:00:00Z"].map(utc))
    }
}

@Suite("Time rules: VTIMEZONE on import and export")
struct VTimezoneTests {
    private func zoned(_ tzid: String, _ zone: [String], start: String = "20270701T120000") -> String {
        calendar(
            ["BEGIN:VTIMEZONE", "TZID:\(tzid)"] + zone + [
                "END:VTIMEZONE", "BEGIN:VEVENT", "UID:z",
                "DTSTART;TZID=\"\(tzid)\":\(start)", "RRULE:FREQ=WEEKLY;COUNT=30", "END:VEVENT",
            ])
    }

    private let euRules = [
        "BEGIN:STANDARD", "DTSTART:19701025T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100",
        "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD",
        "BEGIN:DAYLIGHT", "DTSTART:19700329T020000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
        "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT",
    ]

    @Test func yearlyRulesAreMatchedToAnIANAZone() throws {
        let parsed = try ICalendar.read(zoned("My Zone", euRules), defaultZone: utcZone)
        let event = try #require(parsed.events.first)
        #expect(event.timeZone == "Europe/Berlin")
        #expect(event.start == utc("2027-07-01T10:00:00Z"))
        let zoneWarnings = parsed.warnings.filter { $0.message.hasPrefix("time zone") }
        #expect(zoneWarnings.count == 1)
        #expect(zoneWarnings.first?.message.contains("'My Zone' read as Europe/Berlin") == true)
    }

    @Test func rulesNoZoneFollowsAreApproximatedWithAWarning() throws {
        // DST from the first Sunday of May to the first Sunday of September: no IANA zone does that.
        let odd = [
            "BEGIN:STANDARD", "DTSTART:19700906T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100",
            "RRULE:FREQ=YEARLY;BYMONTH=9;BYDAY=1SU", "END:STANDARD",
            "BEGIN:DAYLIGHT", "DTSTART:19700503T020000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
            "RRULE:FREQ=YEARLY;BYMONTH=5;BYDAY=1SU", "END:DAYLIGHT",
        ]
        let parsed = try ICalendar.read(zoned("Odd Zone", odd, start: "20270101T120000"), defaultZone: utcZone)
        let event = try #require(parsed.events.first)
        #expect(event.timeZone == "Etc/GMT-1")
        #expect(event.start == utc("2027-01-01T11:00:00Z"))
        #expect(
            parsed.warnings.map(\.message).filter { $0.hasPrefix("time zone") } == [
                "time zone 'Odd Zone' approximated as a fixed +0100 (its standard time): no IANA zone follows its VTIMEZONE rules in 2027"
            ])
    }

    @Test func aMalformedVTimezoneIsStillRefused() {
        let broken = ["BEGIN:STANDARD", "DTSTART:19701025T030000", "TZOFFSETFROM:+0200", "END:STANDARD"]
        #expect(throws: ICalendarError.self) { try ICalendar.parse(zoned("Broken", broken), defaultZone: utcZone) }
    }

    @Test func fixedOffsetNamesAreZones() throws {
        for (tzid, expected, name) in [
            ("UTC+11", "2027-07-01T01:00:00Z", "Etc/GMT-11"), ("GMT+1", "2027-07-01T11:00:00Z", "Etc/GMT-1"),
            ("UTC-03:30", "2027-07-01T15:30:00Z", nil),
        ] as [(String, String, String?)] {
            let text = calendar(["BEGIN:VEVENT", "UID:o", "DTSTART;TZID=\"\(tzid)\":20270701T120000", "END:VEVENT"])
            let event = try #require(try ICalendar.parse(text, defaultZone: warsaw).first)
            #expect(event.start == utc(expected), "\(tzid)")
            #expect(event.timeZone == name, "\(tzid)")
        }
    }

    private let events = [
        CalendarEvent(
            uid: "w", summary: "Warsaw", start: utc("2027-03-26T08:00:00Z"), timeZone: "Europe/Warsaw",
            rrule: "FREQ=DAILY;COUNT=400"),
        CalendarEvent(uid: "n", summary: "New York", start: utc("2027-11-01T14:00:00Z"), timeZone: "America/New_York"),
        CalendarEvent(
            uid: "l", summary: "Lord Howe", start: utc("2027-10-02T15:45:00Z"), timeZone: "Australia/Lord_Howe",
            rrule: "FREQ=WEEKLY;COUNT=60"),
        CalendarEvent(uid: "t", summary: "Tokyo", start: utc("2027-06-01T01:00:00Z"), timeZone: "Asia/Tokyo"),
        CalendarEvent(
            uid: "w2", summary: "Warsaw again", start: utc("2028-06-01T08:00:00Z"), timeZone: "Europe/Warsaw"),
    ]

    @Test func everyTZIDUsedHasAVTimezoneBeforeTheEvents() throws {
        let written = ICalendar.serialize(events, stamp: utc("2027-01-01T00:00:00Z"), defaultZone: utcZone)
        let all = lines(written)
        let tzids = all.filter { $0.hasPrefix("TZID:") }
        #expect(
            tzids == ["TZID:Europe/Warsaw", "TZID:America/New_York", "TZID:Australia/Lord_Howe", "TZID:Asia/Tokyo"])
        #expect(all.lastIndex(of: "END:VTIMEZONE")! < all.firstIndex(of: "BEGIN:VEVENT")!)
        #expect(all.contains("RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"))  // Warsaw, spring
        #expect(all.contains("RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU"))  // New York, spring
        #expect(all.contains("RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=1SU"))  // Lord Howe, spring
        #expect(all.contains("TZOFFSETTO:+1030"))
        // Deterministic: the same events and stamp, the same bytes.
        #expect(ICalendar.serialize(events, stamp: utc("2027-01-01T00:00:00Z"), defaultZone: utcZone) == written)
    }

    @Test func exportedVTimezonesReadBackThroughTheirRules() throws {
        let written = ICalendar.serialize(events, stamp: utc("2027-01-01T00:00:00Z"), defaultZone: utcZone)
        #expect(try ICalendar.parse(written, defaultZone: utcZone) == events)
        // Without X-LIC-LOCATION and under other names, the rules themselves give the same instants.
        var renamed = written.replacingOccurrences(of: "X-LIC-LOCATION", with: "X-IGNORED")
        for (n, name) in ["Europe/Warsaw", "America/New_York", "Australia/Lord_Howe", "Asia/Tokyo"].enumerated() {
            renamed = renamed.replacingOccurrences(of: name, with: "Zone \(n)")
        }
        let parsed = try ICalendar.read(renamed, defaultZone: utcZone)
        #expect(parsed.events.map(\.start) == events.map(\.start))
        #expect(parsed.events.map(\.rrule) == events.map(\.rrule))
        // Tokyo's one offset is Etc/GMT-9 without a warning
        #expect(parsed.warnings.filter { $0.message.hasPrefix("time zone") }.count == 3)
        #expect(parsed.events.allSatisfy { $0.timeZone != nil })
    }
}
