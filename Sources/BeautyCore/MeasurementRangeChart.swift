import BeautyLocalization
import Foundation

/// How much of a range one column of a range chart covers.
public enum ChartBucket: String, Codable, Sendable, CaseIterable {
    case day, week, month, year

    /// The smallest bucket that draws `from...to` in at most `maxColumns` columns (a year per column beyond that).
    public static func fitting(from: LocalDate, to: LocalDate, maxColumns: Int) -> ChartBucket {
        allCases.first { $0.starts(from: from, to: to).count <= maxColumns } ?? .year
    }

    /// The first day of the bucket `day` falls in: weeks start on Monday (ISO 8601).
    public func start(of day: LocalDate) -> LocalDate {
        switch self {
        case .day: day
        case .week: day.adding(days: -((day.weekday + 5) % 7))
        case .month: LocalDate(year: day.year, month: day.month, day: 1)
        case .year: LocalDate(year: day.year, month: 1, day: 1)
        }
    }

    /// The first day of the next bucket after the one starting on `start`.
    public func next(after start: LocalDate) -> LocalDate {
        switch self {
        case .day: start.adding(days: 1)
        case .week: start.adding(days: 7)
        case .month:
            start.month == 12
                ? LocalDate(year: start.year + 1, month: 1, day: 1)
                : LocalDate(year: start.year, month: start.month + 1, day: 1)
        case .year: LocalDate(year: start.year + 1, month: 1, day: 1)
        }
    }

    /// The starts of the buckets that `from...to` touches, in order.
    public func starts(from: LocalDate, to: LocalDate) -> [LocalDate] {
        var starts: [LocalDate] = []
        var start = self.start(of: from)
        while start <= to {
            starts.append(start)
            start = next(after: start)
        }
        return starts
    }

    /// "weekly averages" and the like, as the chart's title names what a column is.
    public func caption(_ l: Localizer) -> String {
        switch self {
        case .day: l.tr("one column a day")
        case .week: l.tr("weekly averages")
        case .month: l.tr("monthly averages")
        case .year: l.tr("yearly averages")
        }
    }
}

/// One column of a range chart: the days `first...last` of the range it covers, and the mean of the
/// values of its days with data (nil: none).
public struct ChartColumn: Codable, Sendable, Equatable {
    public var first: LocalDate
    public var last: LocalDate
    public var value: Double?
    public var daysWithData: Int
}

/// A chart of weight or BMI over any range of days (`measure chart --from/--to`, `--months`): one
/// column a day while the range fits, else a week, a month or a year a column, each the mean of its
/// days with data, so a year stays readable in a terminal.
public struct MeasurementRangeChart: Codable, Sendable, Equatable {
    /// Columns a terminal line of 80 characters holds beside the y axis's labels (two characters each).
    public static let maxColumns = 34

    public var from: LocalDate
    public var to: LocalDate
    public var unit: ChartUnit
    public var bucket: ChartBucket
    /// Every day of the range with a value in `unit`.
    public var points: [ChartPoint]
    /// What is drawn: every bucket of the range, from the one `from` falls in to the one `to` falls in.
    public var columns: [ChartColumn]

    public init(
        _ measurements: [BodyMeasurement], from: LocalDate, to: LocalDate, unit: ChartUnit, maxColumns: Int = maxColumns
    ) {
        self.from = from
        self.to = to
        self.unit = unit
        let bucket = ChartBucket.fitting(from: from, to: to, maxColumns: maxColumns)
        let points = measurements.filter { $0.day >= from && $0.day <= to }.sorted { $0.day < $1.day }
            .compactMap { m in unit.value(of: m).map { ChartPoint(day: m.day, value: $0) } }
        self.bucket = bucket
        self.points = points
        columns = bucket.starts(from: from, to: to).map { start in
            let last = Swift.min(bucket.next(after: start).adding(days: -1), to)
            let first = Swift.max(start, from)
            let values = points.filter { $0.day >= first && $0.day <= last }.map(\.value)
            return ChartColumn(
                first: first, last: last, value: values.isEmpty ? nil : values.reduce(0, +) / Double(values.count),
                daysWithData: values.count)
        }
    }

    /// "1 Jun 2026 – 27 Nov 2026", "1.06.2026 – 27.11.2026"
    public func rangeName(_ language: Language) -> String {
        "\(Self.dayName(from, language, short: false)) – \(Self.dayName(to, language, short: false))"
    }

    /// A day on an axis or in a summary: "3 Nov" / "3.11"; with `short` false the year too.
    static func dayName(_ day: LocalDate, _ language: Language, short: Bool = true) -> String {
        let utc = TimeZone(identifier: "UTC")!
        let pattern = language == .english ? (short ? "d MMM" : "d MMM yyyy") : (short ? "d.MM" : "d.MM.yyyy")
        return FormatterCache.withPattern(pattern, zone: utc, locale: language.locale) {
            $0.string(from: day.start(in: utc))
        }
    }

    /// A column's label under the x axis: its first day, its month ("Nov 26", "lis 26") or its year.
    func label(_ column: ChartColumn, _ language: Language) -> String {
        let utc = TimeZone(identifier: "UTC")!
        switch bucket {
        case .day, .week: return Self.dayName(column.first, language)
        case .month:
            return FormatterCache.withPattern("LLL yy", zone: utc, locale: language.locale) {
                $0.string(from: column.first.start(in: utc))
            }
        case .year: return String(column.first.year)
        }
    }

    /// The SVG line chart of the range: a point per column with data (its mean, the days it averages on
    /// hover), about nine labels under the x axis.
    public func svg(localizer l: Localizer = .english) -> String {
        let every = Swift.max(1, (columns.count + 8) / 9)
        let labels = columns.indices.filter { $0 % every == 0 }.map {
            (column: $0, text: label(columns[$0], l.language))
        }
        let plotted = columns.enumerated().compactMap { index, column in
            column.value.map { value in
                let days =
                    bucket == .day
                    ? Self.dayName(column.first, l.language, short: false)
                    : "\(Self.dayName(column.first, l.language, short: false)) – \(Self.dayName(column.last, l.language, short: false))"
                let averaged =
                    bucket == .day
                    ? ""
                    : ", " + l.trn("average of %s day", "average of %s days", column.daysWithData, column.daysWithData)
                return MeasurementChart.SVGPlot.Point(
                    column: index, value: value, day: column.first,
                    hover: "\(days): \(unit.describe(value, l))\(averaged)")
            }
        }
        let plot = MeasurementChart.SVGPlot(
            title: "\(unit.axisTitle(l)), \(rangeName(l.language))", columns: columns.count, labels: labels,
            xTitle: bucket.caption(l),
            empty: l.tr(
                "No measurements from %s to %s.", Self.dayName(from, l.language, short: false),
                Self.dayName(to, l.language, short: false)),
            points: plotted)
        return MeasurementChart.svgPlot(plot, unit: unit, localizer: l)
    }

    /// The terminal chart: a title naming the range and what a column is, one row per step of the y
    /// axis with a dot per column with data, labels under the axis where they fit, and a summary of the
    /// days themselves (not the means). No trailing spaces.
    public func text(maxRows: Int = 13, localizer l: Localizer = .english) -> String {
        var lines = ["\(unit.axisTitle(l)), \(rangeName(l.language)) (\(bucket.caption(l)))"]
        guard !points.isEmpty else {
            return
                (lines + [
                    l.tr(
                        "No measurements from %s to %s.", Self.dayName(from, l.language, short: false),
                        Self.dayName(to, l.language, short: false))
                ]).joined(separator: "\n") + "\n"
        }
        let plot = MeasurementChart.dotRows(columns.map(\.value), unit: unit, maxRows: maxRows, language: l.language)
        lines += plot.rows
        let width = plot.width
        // Labels left to right where they fit, one space apart: the first column's always.
        var under = Array(repeating: Character(" "), count: 2 * columns.count + 12)
        var ticks = Set<Int>()
        var free = 0
        for (index, column) in columns.enumerated() {
            let text = Array(label(column, l.language)), at = 2 * index + 1
            guard at >= free, at + text.count <= under.count else { continue }
            under.replaceSubrange(at..<(at + text.count), with: text)
            ticks.insert(index)
            free = at + text.count + 1
        }
        let margin = String(repeating: " ", count: width + 1)
        lines.append(margin + "└" + columns.indices.map { ticks.contains($0) ? "─┬" : "──" }.joined())
        lines.append(MeasurementChart.trimmed(margin + " " + String(under)))
        lines.append(MeasurementChart.summary(points, unit: unit, localizer: l))
        return lines.joined(separator: "\n") + "\n"
    }
}
