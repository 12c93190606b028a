import BeautyCore
import Foundation
import GRDB

/// A row of `measurement`: one per local day (`day` is the canonical `YYYY-MM-DD` of a LocalDate,
/// so text order is date order).
struct MeasurementRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "measurement"
    var day: String
    var weightKg: Double
    var heightCm: Double?
    var bmi: Double?
    var updatedAt: Date

    init(_ m: BodyMeasurement) {
        day = m.day.description
        weightKg = m.weightKg
        heightCm = m.heightCm
        bmi = m.bmi
        updatedAt = m.updatedAt
    }

    func measurement() throws -> BodyMeasurement {
        var m = BodyMeasurement(
            day: try LocalDate(parsing: day), weightKg: weightKg, heightCm: heightCm, updatedAt: updatedAt)
        m.bmi = bmi
        return m
    }
}

/// What saving a measurement did.
public struct SavedMeasurement: Sendable, Equatable {
    public var measurement: BodyMeasurement
    /// The entry of the same day it replaced.
    public var replaced: BodyMeasurement?
    /// When no height was given: the day of the entry whose height was used.
    public var heightFrom: LocalDate?
}

/// Body measurements: weight per day, with height and BMI.
public struct MeasurementStore: Sendable {
    let writer: PrioritizedWriter

    /// Saves the weight of `day`, replacing that day's entry if there is one. Without a height, the
    /// height of the closest entry on or before that day is used (a replacement keeps its own),
    /// else that of the closest later one; with none known the entry has no BMI.
    public func save(day: LocalDate, weightKg: Double, heightCm: Double?, now: Date) throws -> SavedMeasurement {
        try writer.write { db in
            let key = day.description
            let replaced = try MeasurementRecord.fetchOne(db, key: key)?.measurement()
            var height = heightCm
            var heightFrom: LocalDate?
            if height == nil {
                let earlier = try MeasurementRecord.fetchOne(
                    db,
                    sql: "SELECT * FROM measurement WHERE heightCm IS NOT NULL AND day <= ? ORDER BY day DESC LIMIT 1",
                    arguments: [key])
                let source =
                    try earlier
                    ?? MeasurementRecord.fetchOne(
                        db,
                        sql:
                            "SELECT * FROM measurement WHERE heightCm IS NOT NULL AND day > ? ORDER BY day ASC LIMIT 1",
                        arguments: [key])
                if let source {
                    height = source.heightCm
                    heightFrom = try LocalDate(parsing: source.day)
                }
            }
            let saved = BodyMeasurement(day: day, weightKg: weightKg, heightCm: height, updatedAt: now)
            try MeasurementRecord(saved).save(db)
            return SavedMeasurement(measurement: saved, replaced: replaced, heightFrom: heightFrom)
        }
    }

    /// In day order; `from` and `to` are included.
    public func all(from: LocalDate? = nil, to: LocalDate? = nil) throws -> [BodyMeasurement] {
        try writer.read { db in
            var request = MeasurementRecord.order(Column("day"))
            if let from { request = request.filter(Column("day") >= from.description) }
            if let to { request = request.filter(Column("day") <= to.description) }
            return try request.fetchAll(db).map { try $0.measurement() }
        }
    }

    public func entry(day: LocalDate) throws -> BodyMeasurement? {
        try writer.read { db in try MeasurementRecord.fetchOne(db, key: day.description)?.measurement() }
    }

    /// Deletes every measurement; answers how many there were.
    public func clear() throws -> Int {
        try writer.write { db in
            try MeasurementRecord.deleteAll(db)
        }
    }

    public func count() throws -> Int {
        try writer.read { db in try MeasurementRecord.fetchCount(db) }
    }
}
