import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation

/// measure.add / measure.list / measure.clear / measure.chart.
extension RequestHandler {
    func measurements(_ method: Method, id: RPCID?, line: Data) async -> Data? {
        switch method {
        case .measureAdd: return await call(id, line, addMeasurement)
        case .measureList:
            return await call(id, line) { (p: MeasureListParams) in
                if let from = p.from, let to = p.to, to < from { throw ValidationError(field: "to", "\(to) is before 'from' \(from)") }
                return try store.measurements(from: p.from, to: p.to)
            }
        case .measureClear:
            return await call(id, line) { (_: NoParams) in
                let removed = try store.clearMeasurements()
                logger.notice("all \(removed) measurements deleted")
                return MeasureClearResult(removed: removed)
            }
        case .measureChart:
            return await call(id, line) { (p: MeasureChartParams) in
                let unit = p.unit ?? .kg
                let rows = try store.measurements(from: p.month.first, to: p.month.last)
                return MeasureChartResult(month: p.month, unit: unit, points: MeasurementChart.points(rows, month: p.month, unit: unit))
            }
        default:
            return await call(id, line) { (_: NoParams) -> String in throw ValidationError(field: "method", "\(method.rawValue) is not a measurement method") }
        }
    }

    func addMeasurement(_ p: MeasureAddParams) throws -> MeasureAddResult {
        let weight = try BMI.checkWeight(p.weightKg, field: "weightKg")
        let height = try p.heightCm.map { try BMI.checkHeight($0, field: "heightCm") }
        let today = LocalDate(clock(), in: LocalZone.shared.current)
        let day = p.day ?? today
        // A day after tomorrow is a typo (a day of slack for a client in a zone ahead of the daemon's).
        guard day <= today.adding(days: 1) else { throw ValidationError(field: "day", "\(day) is in the future") }
        guard day.year >= 1900 else { throw ValidationError(field: "day", "\(day) is before 1900") }
        let saved = try store.saveMeasurement(day: day, weightKg: weight, heightCm: height, now: clock())
        logger.info("measurement \(saved.replaced == nil ? "saved" : "replaced") for \(day): \(saved.measurement.summary)")
        return MeasureAddResult(measurement: saved.measurement, replaced: saved.replaced, heightFrom: saved.heightFrom)
    }
}
