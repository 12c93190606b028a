import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// measure.add / measure.list / measure.clear / measure.chart.
struct MeasurementController: RequestController {
    let measurements: MeasurementStore
    let logger: Logger
    let clock: @Sendable () -> Date
    /// The user's zone: a measurement without a day is today's there.
    let zone: any ZoneSource

    func addRoutes(to router: inout RequestRouter) {
        router.register(MeasurementRPC.add, add)
        router.register(MeasurementRPC.list, list)
        router.register(MeasurementRPC.count) { (_: NoParams) in try count() }
        router.register(MeasurementRPC.clear) { (_: NoParams) in try clear() }
        router.register(MeasurementRPC.chart, chart)
    }

    func add(_ p: MeasurementAddParams) throws -> MeasurementAddResult {
        let weight = try BMI.checkWeight(p.weightKg, field: "weightKg")
        let height = try p.heightCm.map { try BMI.checkHeight($0, field: "heightCm") }
        let today = LocalDate(clock(), in: zone.current)
        let day = p.day ?? today
        // A day after tomorrow is a typo (a day of slack for a client in a zone ahead of the daemon's).
        guard day <= today.adding(days: 1) else {
            throw ValidationError(field: "day", template: "%s is in the future", day)
        }
        guard day.year >= 1900 else { throw ValidationError(field: "day", template: "%s is before 1900", day) }
        let saved = try measurements.save(day: day, weightKg: weight, heightCm: height, now: clock())
        logger.info(
            "measurement \(saved.replaced == nil ? "saved" : "replaced") for \(day): \(saved.measurement.summary)")
        return MeasurementAddResult(
            measurement: saved.measurement, replaced: saved.replaced, heightFrom: saved.heightFrom)
    }

    func list(_ p: MeasurementListParams) throws -> [BodyMeasurement] {
        try Validation.range(from: p.from, to: p.to, .closed)
        return try ListSort.sorted(
            try measurements.all(from: p.from, to: p.to), sort: p.sort, reverse: p.reverse,
            supported: [.time]
        ) { m, _ in .time(m.day.start(in: .gmt)) }
    }

    func count() throws -> MeasurementCountResult {
        MeasurementCountResult(count: try measurements.count())
    }

    func clear() throws -> MeasurementClearResult {
        let removed = try measurements.clear()
        logger.notice("all \(removed) measurements deleted")
        return MeasurementClearResult(removed: removed)
    }

    func chart(_ p: MeasurementChartParams) throws -> MeasurementChartResult {
        let unit = p.unit ?? .kg
        let rows = try measurements.all(from: p.month.first, to: p.month.last)
        return MeasurementChartResult(
            month: p.month, unit: unit, points: MeasurementChart.points(rows, month: p.month, unit: unit))
    }
}
