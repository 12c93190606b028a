import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation

/// measure.add / measure.list / measure.clear / measure.chart.
extension UnsplitRequests {
    static func measurementRoutes(_ router: inout UnsplitRoutes) {
        router.register(MeasurementRPC.add) { try $0.addMeasurement($1) }
        router.register(MeasurementRPC.list) { requests, p in
            try Validation.range(from: p.from, to: p.to, .closed)
            return try ListSort.sorted(
                try requests.store.measurements(from: p.from, to: p.to), sort: p.sort, reverse: p.reverse,
                supported: [.time]
            ) { m, _ in .time(m.day.start(in: .gmt)) }
        }
        router.register(MeasurementRPC.clear) { requests, _ in
            let removed = try requests.store.clearMeasurements()
            requests.logger.notice("all \(removed) measurements deleted")
            return MeasureClearResult(removed: removed)
        }
        router.register(MeasurementRPC.chart) { requests, p in
            let unit = p.unit ?? .kg
            let rows = try requests.store.measurements(from: p.month.first, to: p.month.last)
            return MeasureChartResult(
                month: p.month, unit: unit, points: MeasurementChart.points(rows, month: p.month, unit: unit))
        }
    }

    func addMeasurement(_ p: MeasureAddParams) throws -> MeasureAddResult {
        let weight = try BMI.checkWeight(p.weightKg, field: "weightKg")
        let height = try p.heightCm.map { try BMI.checkHeight($0, field: "heightCm") }
        let today = LocalDate(clock(), in: zone.current)
        let day = p.day ?? today
        // A day after tomorrow is a typo (a day of slack for a client in a zone ahead of the daemon's).
        guard day <= today.adding(days: 1) else {
            throw ValidationError(field: "day", template: "%s is in the future", day)
        }
        guard day.year >= 1900 else { throw ValidationError(field: "day", template: "%s is before 1900", day) }
        let saved = try store.saveMeasurement(day: day, weightKg: weight, heightCm: height, now: clock())
        logger.info(
            "measurement \(saved.replaced == nil ? "saved" : "replaced") for \(day): \(saved.measurement.summary)")
        return MeasureAddResult(measurement: saved.measurement, replaced: saved.replaced, heightFrom: saved.heightFrom)
    }
}
