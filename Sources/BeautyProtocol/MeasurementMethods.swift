import BeautyCore
import Foundation

/// `measure.add`: the weight of a day (default today, in the daemon's zone).
public struct MeasurementAddParams: Codable, Sendable {
    public var weightKg: Double
    /// Absent: the height of the closest earlier entry (else the closest later one), if any.
    public var heightCm: Double?
    public var day: LocalDate?
    public init(weightKg: Double, heightCm: Double? = nil, day: LocalDate? = nil) {
        self.weightKg = weightKg
        self.heightCm = heightCm
        self.day = day
    }
}

public struct MeasurementAddResult: Codable, Sendable {
    public var measurement: BodyMeasurement
    /// The entry of the same day this one replaced.
    public var replaced: BodyMeasurement?
    /// When no height was given and one was known: the day of the entry it came from.
    public var heightFrom: LocalDate?
    public init(measurement: BodyMeasurement, replaced: BodyMeasurement?, heightFrom: LocalDate?) {
        self.measurement = measurement
        self.replaced = replaced
        self.heightFrom = heightFrom
    }
}

/// `measure.list`: days `from` to `to`, both included, both optional.
public struct MeasurementListParams: Codable, Sendable {
    public var from: LocalDate?
    public var to: LocalDate?
    /// The order: `sort` one of the list's keys (title, time, category, price), `reverse` descending.
    public var sort: ListSortChoice?
    public var reverse: Bool?
    public init(from: LocalDate? = nil, to: LocalDate? = nil) {
        self.from = from
        self.to = to
    }
}

public struct MeasurementCountResult: Codable, Sendable {
    public var count: Int
    public init(count: Int) { self.count = count }
}

public struct MeasurementClearResult: Codable, Sendable {
    public var removed: Int
    public init(removed: Int) { self.removed = removed }
}

/// `measure.chart`: one month in one unit.
public struct MeasurementChartParams: Codable, Sendable {
    public var month: CalendarMonth
    /// Default `kg`.
    public var unit: ChartUnit?
    public init(month: CalendarMonth, unit: ChartUnit? = nil) {
        self.month = month
        self.unit = unit
    }
}

/// The points of a chart: one per day of the month with a value in the unit (days without a BMI
/// are left out of a `bmi` chart).
public struct MeasurementChartResult: Codable, Sendable {
    public var month: CalendarMonth
    public var unit: ChartUnit
    public var days: Int
    public var points: [ChartPoint]
    public var min: Double?
    public var max: Double?
    public init(month: CalendarMonth, unit: ChartUnit, points: [ChartPoint]) {
        self.month = month
        self.unit = unit
        days = month.dayCount
        self.points = points
        min = points.map(\.value).min()
        max = points.map(\.value).max()
    }
}

public enum MeasurementRPC {
    public static let add = RPC<MeasurementAddParams, MeasurementAddResult>("measure.add")
    public static let list = RPC<MeasurementListParams, [BodyMeasurement]>("measure.list")
    /// How many there are: what `measure clear` says when it asks.
    public static let count = RPC<NoParams, MeasurementCountResult>("measure.count")
    public static let clear = RPC<NoParams, MeasurementClearResult>("measure.clear")
    public static let chart = RPC<MeasurementChartParams, MeasurementChartResult>("measure.chart")

    static let methods = [add.method, list.method, count.method, clear.method, chart.method]
}
