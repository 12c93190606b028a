import BeautyCore
import BeautyTestSupport
import Foundation
import Testing

/// DST expectations below are UTC instants checked against Python's zoneinfo, not derived
/// from LocalTime, so a wrong offset in the code under test cannot agree with itself.
@Suite("Dose planner (pure, injected zone)")
struct DosePlannerTests {
    func med(
        _ schedule: MedicationSchedule, start: String? = "2026-01-01", end: String? = nil,
        createdAt: Date = Date(timeIntervalSince1970: 0)
    ) -> Medication {
        Medication(
            name: "Test", startDate: start.map { try! LocalDate(parsing: $0) },
            endDate: end.map { try! LocalDate(parsing: $0) }, schedule: schedule,
            createdAt: createdAt, updatedAt: createdAt)
    }

    func at(_ times: String...) -> MedicationSchedule {
        MedicationSchedule(kind: .times, times: times.map { try! ClockTime(parsing: $0) })
    }

    func every(_ hours: Int, _ window: String? = nil) -> MedicationSchedule {
        let bounds = window.map { try! Validation.parseWindow($0) }
        return MedicationSchedule(
            kind: .interval, intervalSeconds: hours * 3600, windowStart: bounds?.0, windowEnd: bounds?.1)
    }

    func doses(_ m: Medication, _ from: String, _ to: String, _ zone: String = "Europe/Warsaw") -> [Date] {
        DosePlanner.doses(for: m, from: instant(from, zone), to: instant(to, zone), zone: TimeZone(identifier: zone)!)
    }

    func day(_ text: String) -> LocalDate { try! LocalDate(parsing: text) }

    // MARK: kinds

    @Test func timesOfDayEveryDayAscending() {
        let m = med(at("20:00", "08:00"))
        #expect(
            doses(m, "2026-06-01 00:00", "2026-06-03 00:00") == [
                instant("2026-06-01 08:00"), instant("2026-06-01 20:00"),
                instant("2026-06-02 08:00"), instant("2026-06-02 20:00"),
            ])
    }

    @Test func rangeIsHalfOpen() {
        let m = med(at("08:00"))
        #expect(doses(m, "2026-06-01 08:00", "2026-06-02 08:00") == [instant("2026-06-01 08:00")])
        #expect(doses(m, "2026-06-01 08:01", "2026-06-02 08:00").isEmpty)
        #expect(doses(m, "2026-06-02 08:00", "2026-06-01 08:00").isEmpty)
        #expect(doses(m, "2026-06-01 08:00", "2026-06-01 08:00").isEmpty)
    }

    @Test func intervalInAWindowIncludesTheWindowEnd() {
        #expect(
            doses(med(every(4, "08:00-20:00")), "2026-06-01 00:00", "2026-06-02 00:00") == [
                instant("2026-06-01 08:00"), instant("2026-06-01 12:00"),
                instant("2026-06-01 16:00"), instant("2026-06-01 20:00"),
            ])
        #expect(
            doses(med(every(5, "08:00-20:00")), "2026-06-01 00:00", "2026-06-02 00:00") == [
                instant("2026-06-01 08:00"), instant("2026-06-01 13:00"), instant("2026-06-01 18:00"),
            ])
    }

    @Test func intervalWithoutAWindowRunsFromMidnightToMidnightExclusive() {
        #expect(
            doses(med(every(8)), "2026-06-01 00:00", "2026-06-02 12:00") == [
                instant("2026-06-01 00:00"), instant("2026-06-01 08:00"), instant("2026-06-01 16:00"),
                instant("2026-06-02 00:00"), instant("2026-06-02 08:00"),
            ])
        // 7 does not divide 24: each day starts again at midnight.
        #expect(
            doses(med(every(7)), "2026-06-01 00:00", "2026-06-02 08:00") == [
                instant("2026-06-01 00:00"), instant("2026-06-01 07:00"), instant("2026-06-01 14:00"),
                instant("2026-06-01 21:00"), instant("2026-06-02 00:00"), instant("2026-06-02 07:00"),
            ])
    }

    @Test func asNeededAndNoneNeverHaveDoses() {
        for schedule in [MedicationSchedule.asNeeded, .none] {
            #expect(doses(med(schedule), "2026-06-01 00:00", "2026-07-01 00:00").isEmpty)
            #expect(DosePlanner.isActive(med(schedule), on: day("2026-06-01"), zone: warsaw))
        }
    }

    // MARK: days

    @Test func weekdaysLimitTheDays() {
        var schedule = at("09:00")
        schedule.weekdays = [.mon, .wed, .fri]
        let result = doses(med(schedule), "2026-06-01 00:00", "2026-06-15 00:00")
        #expect(result.count == 6)
        let days = result.map { LocalTime.calendar(warsaw).component(.weekday, from: $0) }
        #expect(days == [2, 4, 6, 2, 4, 6])
        #expect(result.first == instant("2026-06-01 09:00"))
        #expect(DosePlanner.isActive(med(schedule), on: day("2026-06-05"), zone: warsaw))
        #expect(!DosePlanner.isActive(med(schedule), on: day("2026-06-06"), zone: warsaw))
    }

    @Test func aWindowCrossingMidnightBelongsToTheDayItStarts() {
        var schedule = every(4, "22:00-06:00")
        schedule.weekdays = [.fri]
        let m = med(schedule)
        // 2026-06-05 is a Friday: its window runs into Saturday morning, and Saturday's does not exist.
        #expect(
            doses(m, "2026-06-01 00:00", "2026-06-08 00:00") == [
                instant("2026-06-05 22:00"), instant("2026-06-06 02:00"), instant("2026-06-06 06:00"),
            ])
        // Asking only about Saturday still finds the tail of Friday's window.
        #expect(
            doses(m, "2026-06-06 00:00", "2026-06-06 12:00") == [
                instant("2026-06-06 02:00"), instant("2026-06-06 06:00"),
            ])
    }

    @Test func aWindowCrossingMidnightEveryDay() {
        let result = doses(med(every(4, "20:00-04:00")), "2026-06-01 00:00", "2026-06-03 00:00")
        #expect(
            result == [
                instant("2026-06-01 00:00"), instant("2026-06-01 04:00"), instant("2026-06-01 20:00"),
                instant("2026-06-02 00:00"), instant("2026-06-02 04:00"), instant("2026-06-02 20:00"),
            ])
    }

    @Test func a21Over7CycleAcrossMonthEnds() {
        var schedule = at("08:00")
        schedule.cycle = .init(onDays: 21, offDays: 7)
        let m = med(schedule, start: "2026-01-20")
        // On Jan 20 - Feb 9, off Feb 10 - 16, on Feb 17 - Mar 9, off Mar 10 - 16, on from Mar 17.
        let active = { DosePlanner.isActive(m, on: self.day($0), zone: warsaw) }
        #expect(!active("2026-01-19"))
        #expect(active("2026-01-20") && active("2026-01-31") && active("2026-02-09"))
        #expect(!active("2026-02-10") && !active("2026-02-16"))
        #expect(active("2026-02-17") && active("2026-02-28") && active("2026-03-01") && active("2026-03-09"))
        #expect(!active("2026-03-10") && !active("2026-03-16"))
        #expect(active("2026-03-17"))
        let result = doses(m, "2026-01-01 00:00", "2026-04-01 00:00")
        #expect(result.count == 57)
        #expect(result.first == instant("2026-01-20 08:00"))
        #expect(!result.contains(instant("2026-02-10 08:00")))
        #expect(result.contains(instant("2026-02-17 08:00")))
        #expect(result.contains(instant("2026-03-09 08:00")))
        #expect(!result.contains(instant("2026-03-16 08:00")))
        #expect(result.last == instant("2026-03-31 08:00"))
    }

    @Test func aCycleCountsFromALongAgoStartWithoutWalkingThere() {
        var schedule = at("08:00")
        schedule.cycle = .init(onDays: 21, offDays: 7)
        let m = med(schedule, start: "2000-01-01")
        // 2026-06-01 is day 9648 = 344 * 28 + 16: on; day 9653 (June 6) = 21 into the cycle: off.
        #expect(doses(m, "2026-06-01 00:00", "2026-06-02 00:00") == [instant("2026-06-01 08:00")])
        #expect(doses(m, "2026-06-06 00:00", "2026-06-13 00:00").isEmpty)
        #expect(doses(m, "2026-06-13 00:00", "2026-06-14 00:00") == [instant("2026-06-13 08:00")])
    }

    // MARK: start and end

    @Test func nothingBeforeTheStartDate() {
        let m = med(every(4, "22:00-06:00"), start: "2026-06-10")
        #expect(!DosePlanner.isActive(m, on: day("2026-06-09"), zone: warsaw))
        // June 9's window would reach into June 10, but June 9 is before the start.
        #expect(
            doses(m, "2026-06-09 00:00", "2026-06-11 12:00") == [
                instant("2026-06-10 22:00"), instant("2026-06-11 02:00"), instant("2026-06-11 06:00"),
            ])
    }

    @Test func withoutAStartDateItStartsOnTheLocalDayItWasAdded() {
        // Added at 00:30 in Warsaw, which is still the previous day in UTC.
        let m = med(at("08:00"), start: nil, createdAt: instant("2026-06-10 00:30"))
        #expect(
            doses(m, "2026-06-08 00:00", "2026-06-12 00:00") == [
                instant("2026-06-10 08:00"), instant("2026-06-11 08:00"),
            ])
        #expect(!DosePlanner.isActive(m, on: day("2026-06-09"), zone: warsaw))
        #expect(DosePlanner.isActive(m, on: day("2026-06-10"), zone: warsaw))
        // In New York the same instant is June 9, so it starts a day earlier there.
        let ny = TimeZone(identifier: "America/New_York")!
        #expect(DosePlanner.isActive(m, on: day("2026-06-09"), zone: ny))
    }

    @Test func theEndDateIsInclusiveAndNothingFiresAfterIt() {
        let m = med(at("08:00", "23:30"), start: "2026-06-01", end: "2026-06-03")
        #expect(DosePlanner.isActive(m, on: day("2026-06-03"), zone: warsaw))
        #expect(!DosePlanner.isActive(m, on: day("2026-06-04"), zone: warsaw))
        let result = doses(m, "2026-05-25 00:00", "2026-06-30 00:00")
        #expect(result.count == 6)
        #expect(result.last == instant("2026-06-03 23:30"))
    }

    @Test func aWindowStartingOnTheEndDateKeepsItsDosesAfterMidnight() {
        // The window's doses belong to the day it starts on: the course's last night is whole.
        let m = med(every(2, "22:00-06:00"), start: "2026-06-01", end: "2026-06-03")
        let result = doses(m, "2026-06-03 12:00", "2026-06-10 00:00")
        #expect(
            result == [
                instant("2026-06-03 22:00"), instant("2026-06-04 00:00"), instant("2026-06-04 02:00"),
                instant("2026-06-04 04:00"), instant("2026-06-04 06:00"),
            ])
    }

    // MARK: time zones and DST

    /// Times of day on the days around each change: the first day, how many days, the UTC doses.
    struct WallClockCase: Sendable, CustomTestStringConvertible {
        var zone: String
        var times: [String]
        var from: String
        var days: Int
        var expected: [String]
        var why: String
        var testDescription: String { "\(zone) \(times) from \(from): \(why)" }
    }

    static let wallClockCases: [WallClockCase] = [
        .init(
            zone: "Europe/Warsaw", times: ["08:00"], from: "2026-03-28", days: 3,
            expected: ["2026-03-28T07:00:00Z", "2026-03-29T06:00:00Z", "2026-03-30T06:00:00Z"],
            why: "08:00 stays 08:00 (CET -> CEST)"),
        .init(
            zone: "Europe/Warsaw", times: ["08:00"], from: "2026-10-24", days: 3,
            expected: ["2026-10-24T06:00:00Z", "2026-10-25T07:00:00Z", "2026-10-26T07:00:00Z"],
            why: "08:00 stays 08:00 (CEST -> CET)"),
        .init(
            zone: "Europe/Warsaw", times: ["02:30"], from: "2026-03-29", days: 1,
            expected: ["2026-03-29T01:30:00Z"], why: "02:00 CET jumps to 03:00 CEST: 02:30 is read in CET, 03:30 CEST"),
        .init(
            zone: "Europe/Warsaw", times: ["02:00", "02:30", "03:00"], from: "2026-03-29", days: 1,
            expected: ["2026-03-29T01:00:00Z", "2026-03-29T01:30:00Z"],
            why: "02:00 and 03:00 are one instant, 02:30 another"),
        .init(
            zone: "Europe/Warsaw", times: ["02:30"], from: "2026-10-25", days: 1,
            expected: ["2026-10-25T00:30:00Z"],
            why: "03:00 CEST goes back to 02:00 CET: 02:30 fires once, the first time"),
        .init(
            zone: "America/New_York", times: ["02:30"], from: "2026-03-08", days: 1,
            expected: ["2026-03-08T07:30:00Z"], why: "02:00 EST jumps to 03:00 EDT: 02:30 is read in EST"),
        .init(
            zone: "America/New_York", times: ["01:30"], from: "2026-11-01", days: 1,
            expected: ["2026-11-01T05:30:00Z"], why: "02:00 EDT goes back to 01:00 EST: 01:30 once, in EDT"),
        .init(
            zone: "America/New_York", times: ["08:00"], from: "2026-03-07", days: 2,
            expected: ["2026-03-07T13:00:00Z", "2026-03-08T12:00:00Z"], why: "08:00 stays 08:00 in March"),
        .init(
            zone: "America/New_York", times: ["08:00"], from: "2026-11-01", days: 2,
            expected: ["2026-11-01T13:00:00Z", "2026-11-02T13:00:00Z"], why: "08:00 stays 08:00 in November"),
        .init(
            zone: "Australia/Lord_Howe", times: ["02:15"], from: "2026-10-04", days: 1,
            expected: ["2026-10-03T15:45:00Z"], why: "02:00 +10:30 jumps to 02:30 +11:00: 02:15 is read at +10:30"),
        .init(
            zone: "Australia/Lord_Howe", times: ["02:00", "02:30"], from: "2026-10-04", days: 1,
            expected: ["2026-10-03T15:30:00Z"], why: "02:00 does not exist and becomes 02:30"),
        .init(
            zone: "Australia/Lord_Howe", times: ["01:45"], from: "2026-04-05", days: 1,
            expected: ["2026-04-04T14:45:00Z"], why: "02:00 +11:00 goes back to 01:30 +10:30: 01:45 once, the first"),
        .init(
            zone: "Australia/Lord_Howe", times: ["08:00"], from: "2026-10-03", days: 2,
            expected: ["2026-10-02T21:30:00Z", "2026-10-03T21:00:00Z"], why: "08:00 stays 08:00 in October"),
        .init(
            zone: "Australia/Lord_Howe", times: ["08:00"], from: "2026-04-04", days: 2,
            expected: ["2026-04-03T21:00:00Z", "2026-04-04T21:30:00Z"], why: "08:00 stays 08:00 in April"),
        .init(
            zone: "Asia/Kolkata", times: ["08:00"], from: "2026-03-29", days: 1,
            expected: ["2026-03-29T02:30:00Z"], why: "+05:30, no DST"),
        .init(
            zone: "Asia/Kolkata", times: ["02:30"], from: "2026-10-25", days: 1,
            expected: ["2026-10-24T21:00:00Z"], why: "+05:30, no DST"),
    ]

    @Test(arguments: wallClockCases)
    func timesOfDayKeepWallClockTimeAcrossDST(_ c: WallClockCase) {
        let m = med(MedicationSchedule(kind: .times, times: c.times.map { try! ClockTime(parsing: $0) }))
        let zone = TimeZone(identifier: c.zone)!
        let first = day(c.from)
        let result = DosePlanner.doses(
            for: m, from: first.start(in: zone), to: first.adding(days: c.days).start(in: zone), zone: zone)
        #expect(result == c.expected.map(utc))
    }

    @Test func every8HoursKeepsElapsedTimeAcrossSpringForward() {
        // The 23-hour day: 00:00 CET, then 8 and 16 elapsed hours are 09:00 and 17:00 CEST.
        #expect(
            doses(med(every(8)), "2026-03-29 00:00", "2026-03-30 00:00") == [
                utc("2026-03-28T23:00:00Z"), utc("2026-03-29T07:00:00Z"), utc("2026-03-29T15:00:00Z"),
            ])
        #expect(
            doses(med(every(8)), "2026-03-08 00:00", "2026-03-09 00:00", "America/New_York") == [
                utc("2026-03-08T05:00:00Z"), utc("2026-03-08T13:00:00Z"), utc("2026-03-08T21:00:00Z"),
            ])
    }

    @Test func every8HoursFillsTheWholeFallBackDay() {
        // The 25-hour day: 00:00 CEST, 07:00, 15:00 and 23:00 CET, the last 24 elapsed hours after
        // the first and still inside the day (the window without bounds runs to the next midnight).
        #expect(
            doses(med(every(8)), "2026-10-25 00:00", "2026-10-26 00:00") == [
                utc("2026-10-24T22:00:00Z"), utc("2026-10-25T06:00:00Z"), utc("2026-10-25T14:00:00Z"),
                utc("2026-10-25T22:00:00Z"),
            ])
        #expect(
            doses(med(every(8)), "2026-04-05 00:00", "2026-04-06 00:00", "Australia/Lord_Howe") == [
                utc("2026-04-04T13:00:00Z"), utc("2026-04-04T21:00:00Z"), utc("2026-04-05T05:00:00Z"),
                utc("2026-04-05T13:00:00Z"),
            ])
    }

    @Test func everyHourOnTheShortDayHasNoDuplicates() {
        let result = doses(med(every(1)), "2026-03-29 00:00", "2026-03-30 00:00")
        #expect(result.count == 23)
        #expect(Set(result).count == 23)
        #expect(result.first == utc("2026-03-28T23:00:00Z"))
        #expect(result.last == utc("2026-03-29T21:00:00Z"))
    }

    @Test func aWindowAcrossSpringForwardKeepsElapsedTime() {
        // 22:00 CET on March 28, then every 2 elapsed hours until 06:00 CEST (04:00Z) inclusive.
        let result = doses(med(every(2, "22:00-06:00")), "2026-03-28 12:00", "2026-03-29 12:00")
        #expect(
            result == [
                utc("2026-03-28T21:00:00Z"), utc("2026-03-28T23:00:00Z"),
                utc("2026-03-29T01:00:00Z"), utc("2026-03-29T03:00:00Z"),
            ])
    }
}
