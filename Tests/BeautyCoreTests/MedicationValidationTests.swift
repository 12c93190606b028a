import BeautyCore
import Foundation
import Testing

@Suite("Medication validation")
struct MedicationValidationTests {
    func clock(_ text: String) -> ClockTime { try! ClockTime(parsing: text) }
    func day(_ text: String) -> LocalDate { try! LocalDate(parsing: text) }

    func med(_ schedule: MedicationSchedule = .none, start: String? = nil, end: String? = nil) -> Medication {
        Medication(
            name: "Iron", startDate: start.map(day), endDate: end.map(day), schedule: schedule,
            createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
    }

    @Test func aValidMedicationIsNormalised() throws {
        var m = med(
            MedicationSchedule(
                kind: .times, times: [clock("20:00"), clock("08:00"), clock("20:00")],
                weekdays: [.fri, .mon, .fri]))
        m.name = "  Żelazo  "
        m.dose = "  1 tablet "
        m.notes = "   "
        let valid = try Validation.medication(m)
        #expect(valid.name == "Żelazo")
        #expect(valid.dose == "1 tablet")
        #expect(valid.notes == nil)
        #expect(valid.schedule.times == [clock("08:00"), clock("20:00")])
        #expect(valid.schedule.weekdays == [.mon, .fri])
    }

    @Test func nameIsRequired() {
        var m = med()
        m.name = "  "
        #expect(throws: ValidationError(field: "name", "must not be empty")) { try Validation.medication(m) }
    }

    @Test func untilBeforeFromIsRefused() throws {
        #expect(throws: ValidationError(field: "until", "must not be before the start date 2026-05-10")) {
            try Validation.medication(med(start: "2026-05-10", end: "2026-05-09"))
        }
        #expect(try Validation.medication(med(start: "2026-05-10", end: "2026-05-10")).endDate == day("2026-05-10"))
    }

    @Test func stockMustNotBeNegative() throws {
        var m = med()
        m.stock = -1
        #expect(throws: ValidationError(field: "stock", "must not be negative")) { try Validation.medication(m) }
        m.stock = .nan
        #expect(throws: ValidationError(field: "stock", "must be a number")) { try Validation.medication(m) }
        m.stock = 0
        m.lowStock = -0.5
        #expect(throws: ValidationError(field: "low", "must not be negative")) { try Validation.medication(m) }
        m.stock = nil
        m.lowStock = 5
        #expect(try Validation.medication(m).lowStock == 5)
    }

    @Test func every0hIsRefused() throws {
        let zero = try DurationParser.seconds("0h", field: "every")
        #expect(throws: ValidationError(field: "every", "must be more than 0")) {
            try Validation.medication(med(MedicationSchedule(kind: .interval, intervalSeconds: zero)))
        }
        #expect(throws: ValidationError(field: "every", "must be at least 1 minute")) {
            try Validation.medication(med(MedicationSchedule(kind: .interval, intervalSeconds: 30)))
        }
        #expect(throws: ValidationError(field: "every", "must be at most 24 hours")) {
            try Validation.medication(med(MedicationSchedule(kind: .interval, intervalSeconds: 25 * 3600)))
        }
        #expect(throws: ValidationError(field: "every", "an interval is needed")) {
            try Validation.medication(med(MedicationSchedule(kind: .interval)))
        }
        #expect(
            try Validation.medication(med(MedicationSchedule(kind: .interval, intervalSeconds: 86_400))).schedule
                .intervalSeconds == 86_400)
    }

    @Test func aWindowNeedsBothEnds() throws {
        let half = MedicationSchedule(kind: .interval, intervalSeconds: 3600, windowStart: clock("08:00"))
        #expect(throws: ValidationError(field: "between", "needs both a start and an end time")) {
            try Validation.medication(med(half))
        }
        let crossing = MedicationSchedule(
            kind: .interval, intervalSeconds: 3600, windowStart: clock("22:00"), windowEnd: clock("06:00"))
        #expect(try Validation.medication(med(crossing)).schedule == crossing)
    }

    @Test func eachKindHasItsOwnShape() {
        #expect(throws: ValidationError(field: "at", "at least one time of day is needed")) {
            try Validation.medication(med(MedicationSchedule(kind: .times)))
        }
        #expect(throws: ValidationError(field: "every", "cannot be combined with times of day")) {
            try Validation.medication(
                med(MedicationSchedule(kind: .times, times: [clock("08:00")], intervalSeconds: 3600)))
        }
        #expect(throws: ValidationError(field: "at", "cannot be combined with 'every'")) {
            try Validation.medication(
                med(MedicationSchedule(kind: .interval, times: [clock("08:00")], intervalSeconds: 3600)))
        }
        #expect(throws: ValidationError(field: "at", "an as-needed medication has no times of day")) {
            try Validation.medication(med(MedicationSchedule(kind: .asNeeded, times: [clock("08:00")])))
        }
        #expect(throws: ValidationError(field: "every", "a medication without a schedule has no interval")) {
            try Validation.medication(med(MedicationSchedule(kind: .none, intervalSeconds: 3600)))
        }
        #expect(throws: ValidationError(field: "days", "at least one weekday is needed")) {
            try Validation.medication(med(MedicationSchedule(kind: .asNeeded, weekdays: [])))
        }
    }

    @Test func cycles() throws {
        #expect(try Validation.parseCycle("21/7") == .init(onDays: 21, offDays: 7))
        #expect(try Validation.parseCycle(" 5 / 0 ") == .init(onDays: 5, offDays: 0))
        #expect(throws: ValidationError(field: "cycle", "0/7: days on must be at least 1")) {
            try Validation.parseCycle("0/7")
        }
        for bad in ["21-7", "21/", "/7", "abc", "21/7/1", "-1/7", "99999999999999999999/1"] {
            #expect(throws: ValidationError.self) { try Validation.parseCycle(bad) }
        }
        var schedule = MedicationSchedule.asNeeded
        schedule.cycle = .init(onDays: 0, offDays: 7)
        #expect(throws: ValidationError(field: "cycle", "0/7: days on must be at least 1")) {
            try Validation.medication(med(schedule))
        }
        schedule.cycle = .init(onDays: 21, offDays: -1)
        #expect(throws: ValidationError(field: "cycle", "21/-1: days off must not be negative")) {
            try Validation.medication(med(schedule))
        }
    }

    @Test func windows() throws {
        let day = try Validation.parseWindow("08:00-20:00")
        #expect(day.0 == clock("08:00") && day.1 == clock("20:00"))
        let night = try Validation.parseWindow("22:00-06:00")
        #expect(night.0 == clock("22:00") && night.1 == clock("06:00"))
        for bad in ["08:00", "08:00-", "25:00-06:00", "08:00-20:00-22:00", "8-20"] {
            #expect(throws: ValidationError.self) { try Validation.parseWindow(bad) }
        }
        #expect(throws: ValidationError(field: "between", "08:00-08:00 is empty: the start and end must differ")) {
            try Validation.parseWindow("08:00-08:00")
        }
    }

    @Test func weekdays() throws {
        #expect(try Validation.parseWeekdays("mon,wed,fri") == [.mon, .wed, .fri])
        #expect(try Validation.parseWeekdays("Friday, mon ,MON") == [.mon, .fri])
        #expect(try Validation.parseWeekdays("mon-fri") == [.mon, .tue, .wed, .thu, .fri])
        #expect(try Validation.parseWeekdays("fri-mon") == [.sun, .mon, .fri, .sat])
        #expect(
            throws: ValidationError(
                field: "days", "'xyz' is not a weekday (mon…sun, pon wt śr czw pt sob nd, po ut st št pi so ne)")
        ) {
            try Validation.parseWeekdays("mon,xyz")
        }
        #expect(throws: ValidationError.self) { try Validation.parseWeekdays("mon,,fri") }
        #expect(throws: ValidationError.self) { try Validation.parseWeekdays("") }
    }
}
