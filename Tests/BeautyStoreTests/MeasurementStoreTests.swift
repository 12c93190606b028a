import BeautyCore
import BeautyStore
import Foundation
import GRDB
import Testing

@Suite("Store: body measurements, one per day")
struct MeasurementStoreTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func day(_ text: String) -> LocalDate { try! LocalDate(parsing: text) }

    @Test func roundTripKeepsEveryFieldAndSurvivesReopen() throws {
        let temp = try TemporaryDatabase()
        defer { withExtendedLifetime(temp) {} }
        let saved = try temp.open().measurements.save(day: day("2026-11-20"), weightKg: 62.5, heightCm: 168, now: now)
        #expect(saved.replaced == nil && saved.heightFrom == nil)
        let expected = BodyMeasurement(day: day("2026-11-20"), weightKg: 62.5, heightCm: 168, updatedAt: now)
        #expect(saved.measurement == expected)
        let db = try temp.open()
        #expect(try db.measurements.all() == [expected])
        #expect(try db.measurements.entry(day: day("2026-11-20")) == expected)
        #expect(try db.measurements.entry(day: day("2026-11-21")) == nil)
        // Stored as the schema says: the day as YYYY-MM-DD text, the unrounded BMI.
        let row = try db.writer.read { try Row.fetchOne($0, sql: "SELECT day, bmi FROM measurement") }
        #expect(row?["day"] == "2026-11-20")
        #expect((row?["bmi"] as Double?) == BMI.value(weightKg: 62.5, heightCm: 168))
    }

    @Test func aSecondEntryForTheSameDayReplacesTheFirstAndSaysWhatItWas() throws {
        let db = try AppDatabase.inMemory()
        let first = try db.measurements.save(day: day("2026-11-20"), weightKg: 63, heightCm: 168, now: now)
        let second = try db.measurements.save(
            day: day("2026-11-20"), weightKg: 62.5, heightCm: nil, now: now.addingTimeInterval(60))
        #expect(second.replaced == first.measurement)
        // The replaced entry's own height stays.
        #expect(second.measurement.heightCm == 168 && second.heightFrom == day("2026-11-20"))
        #expect(second.measurement.updatedAt == now.addingTimeInterval(60))
        #expect(try db.measurements.all().map(\.weightKg) == [62.5])
        #expect(try db.measurements.count() == 1)
    }

    @Test func withoutAHeightTheClosestEarlierOneIsUsedElseTheClosestLater() throws {
        let db = try AppDatabase.inMemory()
        // Nothing known yet: no BMI.
        let none = try db.measurements.save(day: day("2026-11-01"), weightKg: 64, heightCm: nil, now: now)
        #expect(none.measurement.heightCm == nil && none.measurement.bmi == nil && none.heightFrom == nil)
        _ = try db.measurements.save(day: day("2026-11-10"), weightKg: 63, heightCm: 170, now: now)
        _ = try db.measurements.save(day: day("2026-11-20"), weightKg: 62, heightCm: 168, now: now)
        let between = try db.measurements.save(day: day("2026-11-15"), weightKg: 62.5, heightCm: nil, now: now)
        #expect(between.measurement.heightCm == 170 && between.heightFrom == day("2026-11-10"))
        #expect(between.measurement.bmi == BMI.value(weightKg: 62.5, heightCm: 170))
        let after = try db.measurements.save(day: day("2026-11-25"), weightKg: 61.5, heightCm: nil, now: now)
        #expect(after.measurement.heightCm == 168 && after.heightFrom == day("2026-11-20"))
        let before = try db.measurements.save(day: day("2026-10-25"), weightKg: 65, heightCm: nil, now: now)
        #expect(before.measurement.heightCm == 170 && before.heightFrom == day("2026-11-10"))
        #expect(
            try db.measurements.all().map(\.day.description) == [
                "2026-10-25", "2026-11-01", "2026-11-10", "2026-11-15", "2026-11-20", "2026-11-25",
            ])
    }

    @Test func listsARangeOfDaysInDayOrder() throws {
        let db = try AppDatabase.inMemory()
        // Entered out of order, across a year boundary and in single-digit months and days.
        for (text, kg) in [
            ("2027-01-02", 61.0), ("2026-11-30", 62.0), ("2026-12-01", 63.0), ("2026-11-01", 64.0),
            ("2026-10-31", 65.0),
        ] {
            _ = try db.measurements.save(day: day(text), weightKg: kg, heightCm: 168, now: now)
        }
        #expect(try db.measurements.all().map(\.weightKg) == [65, 64, 62, 63, 61])
        #expect(try db.measurements.all(from: day("2026-11-01"), to: day("2026-11-30")).map(\.weightKg) == [64, 62])
        #expect(try db.measurements.all(from: day("2026-12-01")).map(\.weightKg) == [63, 61])
        #expect(try db.measurements.all(to: day("2026-10-31")).map(\.weightKg) == [65])
    }

    @Test func clearDeletesEverythingAndCountsIt() throws {
        let db = try AppDatabase.inMemory()
        for d in ["2026-11-01", "2026-11-02", "2026-11-03"] {
            _ = try db.measurements.save(day: day(d), weightKg: 62, heightCm: 168, now: now)
        }
        #expect(try db.measurements.clear() == 3)
        #expect(try db.measurements.all().isEmpty && db.measurements.count() == 0)
        #expect(try db.measurements.clear() == 0)
        // After a clear no height is known any more.
        #expect(
            try db.measurements.save(day: day("2026-11-04"), weightKg: 62, heightCm: nil, now: now).measurement.bmi
                == nil
        )
    }
}
