import BeautyCore
import BeautyTestSupport
import Foundation
import Testing

/// The planner on the 2027 DST days of three zones, the gap rule and the first day, and the numbers
/// a medication may hold. Expected instants are UTC, worked out from the zones' offsets by hand.
@Suite("Dose planner: whole DST days, times in a gap, the first day, amounts (injected zone)")
struct DosePlannerDSTDayTests {
    static let newYork = TimeZone(identifier: "America/New_York")!
    static let lordHowe = TimeZone(identifier: "Australia/Lord_Howe")!

    func plan(
        _ schedule: MedicationSchedule, on text: String, _ zone: TimeZone,
        createdAt: Date = Date(timeIntervalSince1970: 0)
    ) -> [Date] {
        let day = try! LocalDate(parsing: text)
        let m = Medication(
            name: "D", startDate: day, endDate: day, schedule: schedule, createdAt: createdAt, updatedAt: createdAt)
        return DosePlanner.doses(
            for: m, from: day.adding(days: -1).start(in: zone), to: day.adding(days: 3).start(in: zone), zone: zone)
    }

    func every(_ seconds: Int, _ window: String? = nil) -> MedicationSchedule {
        let bounds = window.map { try! Validation.parseWindow($0) }
        return MedicationSchedule(
            kind: .interval, intervalSeconds: seconds, windowStart: bounds?.0, windowEnd: bounds?.1)
    }

    func at(_ times: String...) -> MedicationSchedule {
        MedicationSchedule(kind: .times, times: times.map { try! ClockTime(parsing: $0) })
    }

    @Test func warsawsTwentyFiveHourDayHasTwentyFiveHourlyDoses() {
        let result = plan(every(3600), on: "2027-10-31", warsaw)
        #expect(result.count == 25)
        #expect(result.first == utc("2027-10-30T22:00:00Z"))  // 00:00 CEST
        #expect(result.last == utc("2027-10-31T22:00:00Z"))  // 23:00 CET
        #expect(Set(result).count == 25)
    }

    @Test func newYorksTwentyFiveHourDayHasFiftyHalfHourlyDosesInAWindow() {
        let result = plan(every(1800, "00:00-23:59"), on: "2027-11-07", Self.newYork)
        #expect(result.count == 50)
        #expect(result.first == utc("2027-11-07T04:00:00Z"))  // 00:00 EDT
        #expect(result.last == utc("2027-11-08T04:30:00Z"))  // 23:30 EST
    }

    @Test func lordHowesTwentyFourAndAHalfHourDayKeepsItsLastDose() {
        // 00:00 +11:00 is 13:00Z; the day ends at 00:00 +10:30, 13:30Z the next day.
        let hourly = plan(every(3600), on: "2027-04-04", Self.lordHowe)
        #expect(hourly.count == 25)
        #expect(hourly.last == utc("2027-04-04T13:00:00Z"))  // 23:30 +10:30
        let halfHourly = plan(every(1800), on: "2027-04-04", Self.lordHowe)
        #expect(halfHourly.count == 49)
        #expect(halfHourly.last == utc("2027-04-04T13:00:00Z"))
    }

    @Test func theShortDaysStillHaveNoExtraOrRepeatedDose() {
        let warsawSpring = plan(every(3600), on: "2027-03-28", warsaw)
        #expect(warsawSpring.count == 23 && Set(warsawSpring).count == 23)
        let newYorkSpring = plan(every(1800, "00:00-23:59"), on: "2027-03-14", Self.newYork)
        #expect(newYorkSpring.count == 46)
        let lordHoweSpring = plan(every(3600), on: "2027-10-03", Self.lordHowe)
        #expect(lordHoweSpring.count == 24)  // 23.5 hours: 0 ... 23 elapsed hours
    }

    @Test func twoTimesInOneSpringForwardGapStayTwoDoses() {
        // RFC 5545: a skipped time is read with the offset before the jump.
        #expect(
            plan(at("02:15", "02:45"), on: "2027-03-28", warsaw) == [
                utc("2027-03-28T01:15:00Z"), utc("2027-03-28T01:45:00Z"),
            ])
        #expect(
            plan(at("02:15", "02:45"), on: "2027-03-14", Self.newYork) == [
                utc("2027-03-14T07:15:00Z"), utc("2027-03-14T07:45:00Z"),
            ])
        // Lord Howe jumps from 02:00 +10:30 to 02:30 +11:00.
        #expect(
            plan(at("02:05", "02:20"), on: "2027-10-03", Self.lordHowe) == [
                utc("2027-10-02T15:35:00Z"), utc("2027-10-02T15:50:00Z"),
            ])
    }

    @Test func withoutAStartDateNothingBeforeTheMomentItWasAdded() {
        let added = instant("2027-06-10 19:39")
        let m = Medication(name: "D", schedule: at("00:30", "23:59"), createdAt: added, updatedAt: added)
        let day = try! LocalDate(parsing: "2027-06-10")
        let result = DosePlanner.doses(
            for: m, from: day.start(in: warsaw), to: day.adding(days: 2).start(in: warsaw), zone: warsaw)
        #expect(result == [instant("2027-06-10 23:59"), instant("2027-06-11 00:30"), instant("2027-06-11 23:59")])
        // A start date given by the user is the whole day, earlier doses included.
        var started = m
        started.startDate = day
        #expect(
            DosePlanner.doses(
                for: started, from: day.start(in: warsaw), to: day.adding(days: 1).start(in: warsaw), zone: warsaw)
                == [instant("2027-06-10 00:30"), instant("2027-06-10 23:59")])
    }

    @Test func theLastNightOfACourseCrossingMidnightIsWhole() {
        let result = plan(every(4 * 3600, "22:00-06:00"), on: "2027-10-30", warsaw)
        // 22:00 CEST, then every 4 elapsed hours (02:00 CEST, 05:00 CET) to 06:00 CET on the next day.
        #expect(result == [utc("2027-10-30T20:00:00Z"), utc("2027-10-31T00:00:00Z"), utc("2027-10-31T04:00:00Z")])
    }

    @Test func amountsHaveAMaximumAndAnyStoredOnePrints() throws {
        #expect(throws: ValidationError.self) {
            try Validation.medication(Medication(name: "D", stock: 99999999999999999999))
        }
        #expect(throws: ValidationError.self) { try Validation.medication(Medication(name: "D", lowStock: 1_000_001)) }
        #expect(try Validation.medication(Medication(name: "D", stock: Validation.maxStock)).stock == 1_000_000)
        #expect(throws: ValidationError.self) { try Validation.refill(2, onto: 999_999) }
        #expect(try Validation.refill(1, onto: 999_999) == 1_000_000)
        #expect(Medication.formatUnits(99999999999999999999) == "1e+20")
        #expect(Medication.formatUnits(.infinity) == "inf")
        #expect(Medication.formatUnits(30) == "30" && Medication.formatUnits(2.5) == "2.5")
    }
}
