import BeautyLocalization
import Foundation

/// A month of the calendar, `YYYY-MM` on the wire and on the command line.
public struct CalendarMonth: Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int

    public init(year: Int, month: Int) {
        self.year = year
        self.month = month
    }

    /// The month a day falls in.
    public init(_ day: LocalDate) { self.init(year: day.year, month: day.month) }

    /// Parses `YYYY-MM` (years 1900 to 9999).
    public init(parsing text: String, field: String = "month") throws {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, (1...2).contains(parts[1].count),
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1])
        else { throw ValidationError(field: field, template: "'%s' is not a month (use YYYY-MM, e.g. 2026-11)", text) }
        guard (1...12).contains(month) else {
            throw ValidationError(field: field, template: "'%s': there is no month %s", text, month)
        }
        guard (1900...9999).contains(year) else {
            throw ValidationError(field: field, template: "'%s': the year must be 1900 to 9999", text)
        }
        self.init(year: year, month: month)
    }

    public var description: String { String(format: "%04d-%02d", year, month) }

    public var first: LocalDate { LocalDate(year: year, month: month, day: 1) }
    public var last: LocalDate { LocalDate(year: year, month: month, day: dayCount) }

    public var dayCount: Int {
        let next =
            month == 12 ? LocalDate(year: year + 1, month: 1, day: 1) : LocalDate(year: year, month: month + 1, day: 1)
        return first.days(until: next)
    }

    /// "November 2026"
    public var name: String { name(.english) }

    /// "November 2026", "listopad 2026", "november 2026": the month standing alone (nominative).
    public func name(_ language: Language) -> String {
        guard language != .english else {
            let names = [
                "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December",
            ]
            return "\(names[month - 1]) \(year)"
        }
        let first = LocalTime.calendar(.gmt).date(from: DateComponents(year: year, month: month, day: 1))!
        return FormatterCache.withPattern("LLLL yyyy", zone: .gmt, locale: language.locale) { $0.string(from: first) }
    }

    public static func < (a: CalendarMonth, b: CalendarMonth) -> Bool { (a.year, a.month) < (b.year, b.month) }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(parsing: text)
        } catch let error as ValidationError {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// What a measurement chart shows.
public enum ChartUnit: String, Codable, Sendable, CaseIterable {
    case kg, bmi

    /// The y axis's title.
    public var axisTitle: String { axisTitle(.english) }

    public func axisTitle(_ l: Localizer) -> String { self == .kg ? l.tr("Weight [kg]") : "BMI" }

    /// The charted value of a measurement (nil: a day without a BMI, when no height was known).
    public func value(of m: BodyMeasurement) -> Double? { self == .kg ? m.weightKg : m.bmi }

    /// The value as people see it: a BMI cut to one decimal (see `BMI.format`), a weight to hundredths.
    public func shown(_ value: Double) -> Double {
        self == .kg ? (value * 100).rounded() / 100 : (value * 10 + 1e-9).rounded(.down) / 10
    }

    /// "63.0 kg", "BMI 22.1 (normal weight)".
    public func describe(_ value: Double, _ l: Localizer = .english) -> String {
        self == .kg
            ? l.tr("%s kg", BMI.localized(BMI.quantity(value), l.language))
            : l.tr("BMI %s (%s)", BMI.localized(BMI.format(value), l.language), BMIClass(bmi: value).title(l))
    }
}

/// One day's value on a chart.
public struct ChartPoint: Codable, Sendable, Equatable {
    public var day: LocalDate
    public var value: Double
    public init(day: LocalDate, value: Double) {
        self.day = day
        self.value = value
    }
}

/// A y axis of round steps (0.1, 0.25, 0.5, 1, 2, 2.5, 5 ... ) from at or below the smallest
/// value to at or above the largest, in at most `maxIntervals` steps. `padded` keeps every value
/// strictly inside (no point on the axis line or the top edge).
public struct ChartScale: Sendable, Equatable {
    public var step: Double
    public var lowTick: Int
    public var highTick: Int

    public init(min: Double, max: Double, maxIntervals: Int, padded: Bool = false) {
        let steps: [Double] = [0.1, 0.25, 0.5, 1, 2, 2.5, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000]
        for step in steps {
            var low = Int((min / step + 1e-9).rounded(.down))
            var high = Int((max / step - 1e-9).rounded(.up))
            if padded {
                low = Int((min / step - 1e-9).rounded(.up)) - 1
                high = Int((max / step + 1e-9).rounded(.down)) + 1
            } else if high <= low {  // one value: a step either side
                low -= 1
                high = low + 2
            }
            if high - low <= maxIntervals || step == steps.last {
                self.step = step
                lowTick = low
                highTick = high
                return
            }
        }
        fatalError("unreachable")
    }

    public var low: Double { Double(lowTick) * step }
    public var high: Double { Double(highTick) * step }
    /// From the top: high, high - step, ... low.
    public var ticks: [Double] { (lowTick...highTick).reversed().map { Double($0) * step } }

    /// A tick's label, with the decimals the step needs ("62.0", "62.25", "60").
    public func label(_ value: Double) -> String {
        let decimals = step >= 1 ? 0 : (step == 0.25 ? 2 : 1)
        return String(format: "%.\(decimals)f", value)
    }
}

/// Pure renderers of a month of measurements: a text chart for the terminal and an SVG line chart.
public enum MeasurementChart {
    /// The days of `month` that have a value in `unit`, in day order.
    public static func points(_ measurements: [BodyMeasurement], month: CalendarMonth, unit: ChartUnit) -> [ChartPoint]
    {
        measurements.filter { CalendarMonth($0.day) == month }.sorted { $0.day < $1.day }
            .compactMap { m in unit.value(of: m).map { ChartPoint(day: m.day, value: $0) } }
    }

    /// Days with a labelled tick on the x axis.
    static func labelledDays(_ month: CalendarMonth) -> [Int] {
        [1, 5, 10, 15, 20, 25, month.dayCount]
    }

    /// "Fri 20 Nov 2026", "pt. 20.11.2026"
    static func dayName(_ day: LocalDate, _ language: Language = .english) -> String {
        let utc = TimeZone(identifier: "UTC")!
        return Timestamps(zone: utc, language: language).day(day.start(in: utc))
    }

    /// "3 days with data: min 62.0 kg (3 Nov), max 64.5 kg (20 Nov), last 63.0 kg (20 Nov)";
    /// "3 dni z danymi: min. 62,0 kg (3.11), …"
    static func summary(_ points: [ChartPoint], unit: ChartUnit, localizer l: Localizer = .english) -> String {
        let utc = TimeZone(identifier: "UTC")!
        let short = { (p: ChartPoint) in
            l.language == .english
                ? String(dayName(p.day).split(separator: " ").dropFirst().prefix(2).joined(separator: " "))
                : FormatterCache.withPattern(
                    l.language == .slovak ? "d. M." : "d.MM", zone: utc, locale: l.language.locale
                ) { $0.string(from: p.day.start(in: utc)) }
        }
        let low = points.min { $0.value < $1.value }!, high = points.max { $0.value < $1.value }!
        let value = { (v: Double) in
            unit == .kg
                ? l.tr("%s kg", BMI.localized(BMI.quantity(v), l.language)) : BMI.localized(BMI.format(v), l.language)
        }
        return l.trn(
            "%s day with data: min %s (%s), max %s (%s), last %s (%s)",
            "%s days with data: min %s (%s), max %s (%s), last %s (%s)",
            points.count, points.count, value(low.value), short(low), value(high.value), short(high),
            value(points.last!.value), short(points.last!))
    }

    // MARK: - Terminal

    /// A dot chart, one column pair per day and one row per step of the y axis (each value on
    /// its nearest row), with the day numbers under it and a summary line. No trailing spaces.
    public static func text(
        _ points: [ChartPoint], month: CalendarMonth, unit: ChartUnit, maxRows: Int = 13,
        localizer l: Localizer = .english
    ) -> String {
        var lines = ["\(unit.axisTitle(l)), \(month.name(l.language))"]
        guard !points.isEmpty else {
            return (lines + [l.tr("No measurements in %s.", month.name(l.language))]).joined(separator: "\n") + "\n"
        }
        let days = month.dayCount
        var values = [Double?](repeating: nil, count: days)
        for p in points { values[p.day.day - 1] = p.value }
        let plot = dotRows(values, unit: unit, maxRows: maxRows, language: l.language)
        lines += plot.rows
        let width = plot.width
        let labelled = Set(labelledDays(month))
        let margin = String(repeating: " ", count: width + 1)
        lines.append(margin + "└" + (1...days).map { labelled.contains($0) ? "─┬" : "──" }.joined())
        var numbers = Array(repeating: Character(" "), count: 2 * days + 2)
        for day in labelled.sorted() {
            for (offset, digit) in String(day).enumerated() { numbers[2 * (day - 1) + 1 + offset] = digit }
        }
        lines.append(trimmed(margin + " " + String(numbers)))
        lines.append(summary(points, unit: unit, localizer: l))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The rows of a dot chart, top first: the y axis's round labels and one dot per column with a
    /// value (nil: none) on the row nearest to it as shown; `width` is the labels' width. No trailing spaces.
    static func dotRows(_ values: [Double?], unit: ChartUnit, maxRows: Int, language: Language) -> (
        rows: [String], width: Int
    ) {
        let shown = values.map { $0.map(unit.shown) }
        let present = shown.compactMap { $0 }
        let scale = ChartScale(min: present.min()!, max: present.max()!, maxIntervals: max(1, maxRows - 1))
        let labels = scale.ticks.map { BMI.localized(scale.label($0), language) }
        let width = labels.map(\.count).max()!
        var rows = Array(repeating: Array(repeating: " ", count: values.count), count: labels.count)
        for (column, value) in shown.enumerated() {
            guard let value else { continue }
            rows[Int(((scale.high - value) / scale.step).rounded())][column] = "●"
        }
        let lines = zip(labels, rows).map { label, cells in
            trimmed(String(repeating: " ", count: width - label.count) + "\(label) ┤" + cells.map { " " + $0 }.joined())
        }
        return (lines, width)
    }

    /// A line without its trailing spaces.
    static func trimmed(_ line: String) -> String { String(line.reversed().drop { $0 == " " }.reversed()) }

    // MARK: - SVG

    public static let svgWidth = 760.0
    public static let svgHeight = 400.0
    static let left = 70.0, right = 24.0, top = 48.0, bottom = 64.0

    /// A self-contained SVG line chart: title, y axis with round labels and grid lines, x axis
    /// with the days of the month, the line through the days with data, and one point per such
    /// day whose `<title>` (shown on hover) gives the day and value.
    public static func svg(
        _ points: [ChartPoint], month: CalendarMonth, unit: ChartUnit, localizer l: Localizer = .english
    ) -> String {
        let monthName = month.name(l.language)
        return svgPlot(
            SVGPlot(
                title: "\(unit.axisTitle(l)), \(monthName)", columns: month.dayCount,
                labels: labelledDays(month).map { (column: $0 - 1, text: String($0)) },
                xTitle: l.tr("Day of %s", monthName),
                empty: l.tr("No measurements in %s", monthName),
                points: points.map { p in
                    SVGPlot.Point(
                        column: p.day.day - 1, value: p.value, day: p.day,
                        hover: "\(dayName(p.day, l.language)): \(unit.describe(p.value, l))")
                }), unit: unit, localizer: l)
    }

    /// What `svgPlot` draws: `columns` slots on the x axis (the labelled ones with longer ticks), and the points.
    struct SVGPlot {
        struct Point {
            var column: Int
            var value: Double
            var day: LocalDate
            var hover: String
        }
        var title: String
        var columns: Int
        var labels: [(column: Int, text: String)]
        var xTitle: String
        var empty: String
        var points: [Point]
    }

    /// The line chart of `plot` with the y axis of `unit`; a single column stands in the middle.
    static func svgPlot(_ plot: SVGPlot, unit: ChartUnit, localizer l: Localizer) -> String {
        let values = plot.points.map(\.value)
        let scale = ChartScale(min: values.min() ?? 0, max: values.max() ?? 1, maxIntervals: 10, padded: true)
        let plotWidth = svgWidth - left - right, plotHeight = svgHeight - top - bottom
        func x(_ column: Int) -> Double {
            plot.columns > 1 ? left + Double(column) * plotWidth / Double(plot.columns - 1) : left + plotWidth / 2
        }
        func y(_ value: Double) -> Double { top + (scale.high - value) / (scale.high - scale.low) * plotHeight }
        func n(_ value: Double) -> String { String(format: "%.1f", value) }
        let color = "#c2185b", gridColor = "#e0e0e0", axisColor = "#444444"

        var out = svgOpening(width: svgWidth, height: svgHeight, title: plot.title)

        out.append(#"<g class="y-axis">"#)
        for tick in scale.ticks {
            out.append(
                #"  <line class="grid" x1="\#(n(left))" y1="\#(n(y(tick)))" x2="\#(n(svgWidth - right))" y2="\#(n(y(tick)))" stroke="\#(gridColor)"/>"#
            )
            out.append(
                #"  <text class="y-label" x="\#(n(left - 8))" y="\#(n(y(tick) + 4))" text-anchor="end">\#(BMI.localized(scale.label(tick), l.language))</text>"#
            )
        }
        out.append(
            #"  <line class="axis" x1="\#(n(left))" y1="\#(n(top))" x2="\#(n(left))" y2="\#(n(top + plotHeight))" stroke="\#(axisColor)"/>"#
        )
        out.append(
            #"  <text class="y-title" transform="translate(18 \#(n(top + plotHeight / 2))) rotate(-90)" text-anchor="middle">\#(escape(unit.axisTitle(l)))</text>"#
        )
        out.append("</g>")

        out.append(#"<g class="x-axis">"#)
        out.append(
            #"  <line class="axis" x1="\#(n(left))" y1="\#(n(top + plotHeight))" x2="\#(n(svgWidth - right))" y2="\#(n(top + plotHeight))" stroke="\#(axisColor)"/>"#
        )
        let labelled = Set(plot.labels.map(\.column))
        for column in 0..<plot.columns {
            let length = labelled.contains(column) ? 6.0 : 3.0
            out.append(
                #"  <line class="x-tick" x1="\#(n(x(column)))" y1="\#(n(top + plotHeight))" x2="\#(n(x(column)))" y2="\#(n(top + plotHeight + length))" stroke="\#(axisColor)"/>"#
            )
        }
        for label in plot.labels.sorted(by: { $0.column < $1.column }) {
            out.append(
                #"  <text class="x-label" x="\#(n(x(label.column)))" y="\#(n(top + plotHeight + 20))" text-anchor="middle">\#(escape(label.text))</text>"#
            )
        }
        out.append(
            #"  <text class="x-title" x="\#(n(left + plotWidth / 2))" y="\#(n(svgHeight - 14))" text-anchor="middle">\#(escape(plot.xTitle))</text>"#
        )
        out.append("</g>")

        if plot.points.isEmpty {
            out.append(
                #"<text class="no-data" x="\#(n(left + plotWidth / 2))" y="\#(n(top + plotHeight / 2))" text-anchor="middle">\#(escape(plot.empty))</text>"#
            )
        } else {
            let line = plot.points.map { "\(n(x($0.column))),\(n(y($0.value)))" }.joined(separator: " ")
            out.append(
                #"<polyline class="series" points="\#(line)" fill="none" stroke="\#(color)" stroke-width="2" stroke-linejoin="round"/>"#
            )
            out.append(#"<g class="points" fill="\#(color)">"#)
            for p in plot.points {
                out.append(
                    #"  <circle class="point" cx="\#(n(x(p.column)))" cy="\#(n(y(p.value)))" r="4.5" data-day="\#(p.day)" data-value="\#(p.value)"><title>\#(escape(p.hover))</title></circle>"#
                )
            }
            out.append("</g>")
        }
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    /// The start every chart shares: the XML declaration, `<svg>` with its size and label, a `<title>`,
    /// a white background and the title as a heading.
    static func svgOpening(width: Double, height: Double, title: String) -> [String] {
        func n(_ value: Double) -> String { String(format: "%.1f", value) }
        let white = "#ffffff"
        return [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(n(width))" height="\#(n(height))" viewBox="0 0 \#(n(width)) \#(n(height))" font-family="sans-serif" font-size="12" role="img" aria-label="\#(escape(title))">"#,
            "<title>\(escape(title))</title>",
            #"<rect class="background" x="0" y="0" width="\#(n(width))" height="\#(n(height))" fill="\#(white)"/>"#,
            #"<text class="chart-title" x="\#(n(width / 2))" y="26" text-anchor="middle" font-size="16" font-weight="bold">\#(escape(title))</text>"#,
        ]
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
