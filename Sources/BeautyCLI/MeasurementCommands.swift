import ArgumentParser
import BeautyCore
import BeautyLocalization
import BeautyProtocol
import Foundation

struct BMICommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "bmi",
            abstract: Output.l.tr(
                "Compute a body-mass index and its WHO class (nothing is stored; see 'measure add')."),
            discussion: Output.l.tr(
                """
                Examples:
                  beautyctl bmi --weight 62,5 --height 168
                  beautyctl bmi --weight 80 --height 180 --json

                Classes: %s.
                The class is decided on the exact value; the value shown is cut (not rounded) to one decimal, so it always lies in the class shown.
                """,
                BMIClass.allCases.map { "\($0.title(Output.l)) \($0.range(Output.l.language))" }.joined(separator: "; ")
            ))
    }

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(Output.l.tr("Weight in kilograms; ',' or '.' for decimals."), valueName: "kg"))
    var weight: String

    @Option(parsing: .unconditional, help: ArgumentHelp(Output.l.tr("Height in centimetres."), valueName: "cm"))
    var height: String

    @OptionGroup var output: OutputOptions

    func run() throws {
        let reading = try Input.check("") { try BMI.reading(weight: weight, height: height) }
        if output.json { return try Output.json(reading) }
        let l = Output.l
        Output.line(
            Output.l.tr(
                "BMI %s: %s (%s)", BMI.localized(BMI.format(reading.bmi), l.language), reading.bmiClass.title(l),
                reading.bmiClass.range(l.language)))
    }
}

struct MeasureCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "measure",
            abstract: Output.l.tr("A log of your weight (one entry per day) with BMI, and charts of it."),
            subcommands: [Add.self, List.self, Chart.self, Clear.self])
    }
}

extension ChartUnit: ExpressibleByArgument {}

enum MeasureOutput {
    /// A row of `measure list`: day, kg, cm, BMI, class.
    /// A table row as the user's language writes it (CSV keeps `row`).
    static func shownRow(_ m: BodyMeasurement) -> [String] {
        let l = Output.l
        return row(m).enumerated().map { index, cell in
            index == 0
                ? (l.language == .english ? cell : Output.times.day(m.day.start(in: .current)))
                : index == 4 ? m.bmiClass?.title(l) ?? "" : BMI.localized(cell, l.language)
        }
    }

    static func row(_ m: BodyMeasurement) -> [String] {
        [
            m.day.description, BMI.quantity(m.weightKg), m.heightCm.map(BMI.trim) ?? "", m.bmi.map(BMI.format) ?? "",
            m.bmiClass?.title ?? "",
        ]
    }

    /// The days of `measure chart --from/--to` or `--months` (the last n months, this one included, up to today).
    static func range(from: String?, to: String?, months: Int?, today: LocalDate) throws -> (LocalDate, LocalDate) {
        if let months {
            let back = today.year * 12 + today.month - 1 - (months - 1)
            return (LocalDate(year: back / 12, month: back % 12 + 1, day: 1), today)
        }
        let last = try to.map { text in try Input.check("--to") { try LocalDate(typed: text, field: "--to") } } ?? today
        guard let from else {
            throw CLIFailure(.usage, Output.l.tr("--to goes with --from (the first day of the range)"))
        }
        let first = try Input.check("--from") { try LocalDate(typed: from, field: "--from") }
        guard first <= last else {
            throw CLIFailure(.usage, Output.l.tr("--from: %s is after --to (%s)", Output.day(first), Output.day(last)))
        }
        guard first.year >= 1900 else {
            throw CLIFailure(.usage, Output.l.tr("--from: %s is before 1900", Output.day(first)))
        }
        return (first, last)
    }

    /// `--date`: YYYY-MM-DD, or a day word up to today (`today`, `wczoraj`, `predvčerom`), local.
    static func day(_ text: String, now: Date = Date()) throws -> LocalDate {
        let today = LocalDate(now, in: .current)
        let typed = DayWords.joiningPhrases(text.trimmingCharacters(in: .whitespaces).lowercased())
        switch try? DayWords.parse(typed, language: Input.language, field: "--date") {
        case .relative(let days)? where days <= 0: return today.adding(days: days)
        default:
            let day = try Input.check("--date") { try LocalDate(typed: text, field: "--date") }
            guard day <= today else {
                throw CLIFailure(.usage, Output.l.tr("--date: %s is in the future", Output.day(day)))
            }
            guard day.year >= 1900 else {
                throw CLIFailure(.usage, Output.l.tr("--date: %s is before 1900", Output.day(day)))
            }
            return day
        }
    }
}

extension MeasureCommand {
    struct Add: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr(
                    "Record your weight for a day (a second entry for the same day replaces the first)."),
                discussion: Output.l.tr(
                    """
                    Without --height, the BMI uses the height of your closest earlier entry (else the closest later one).

                    Examples:
                      beautyctl measure add --weight 62,5 --height 168
                      beautyctl measure add --weight 63 --date 2026-11-20
                    """))
        }

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(Output.l.tr("Weight in kilograms; ',' or '.' for decimals."), valueName: "kg"))
        var weight: String

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(Output.l.tr("Height in centimetres (default: the last one you gave)."), valueName: "cm"))
        var height: String?

        @Option(
            help: ArgumentHelp(
                Output.l.tr("The day: YYYY-MM-DD, today or yesterday (default: today)."), valueName: "date"))
        var date: String?

        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let kg = try Input.check("--weight") {
                try BMI.checkWeight(BMI.parseNumber(weight, field: "--weight"), field: "--weight")
            }
            let cm = try height.map { text in
                try Input.check("--height") {
                    try BMI.checkHeight(BMI.parseNumber(text, field: "--height"), field: "--height")
                }
            }
            let params = MeasurementAddParams(weightKg: kg, heightCm: cm, day: try MeasureOutput.day(date ?? "today"))
            var client = global.client
            let result = try client.call(MeasurementRPC.add, params)
            if output.json { return try Output.json(result) }
            let m = result.measurement
            let l = Output.l
            let day = Output.day
            let height = m.heightCm.map { BMI.localized(BMI.trim($0), l.language) }
            Output.line(
                height.map { cm in
                    result.heightFrom.map {
                        l.tr("Saved %s: %s, height %s cm (as measured on %s).", day(m.day), m.summary(l), cm, day($0))
                    }
                        ?? l.tr("Saved %s: %s, height %s cm.", day(m.day), m.summary(l), cm)
                } ?? l.tr("Saved %s: %s.", day(m.day), m.summary(l)))
            if let old = result.replaced {
                Output.line(l.tr("It replaced the entry of %s: %s.", day(old.day), old.summary(l)))
            }
            if m.heightCm == nil { Output.line(Output.l.tr("No height known yet, so no BMI: give --height once.")) }
        }
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(abstract: Output.l.tr("List your measurements, oldest first."))
        }
        @Option(help: ArgumentHelp(Output.l.tr("Only this month (YYYY-MM)."), valueName: "month")) var month: String?
        @OptionGroup var order: SortOptions
        @OptionGroup var output: ListOutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let month = try month.map { text in
                try Input.check("--month") { try CalendarMonth(parsing: text, field: "--month") }
            }
            var params = MeasurementListParams(from: month?.first, to: month?.last)
            (params.sort, params.reverse) = order.wire
            var client = global.client
            let list = try client.call(MeasurementRPC.list, params)
            if try output.printed(
                list, csv: ["day", "weight_kg", "height_cm", "bmi", "class"], { list.map(MeasureOutput.row) })
            {
                return
            }
            if list.isEmpty {
                return Output.line(
                    month.map { Output.l.tr("No measurements in %s.", $0.name(Output.l.language)) }
                        ?? Output.l.tr("No measurements."))
            }
            Output.table(
                [Output.l.tr("DAY"), Output.l.tr("KG"), Output.l.tr("CM"), Output.l.tr("BMI"), Output.l.tr("CLASS")],
                list.map(MeasureOutput.shownRow))
        }
    }

    struct Chart: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr(
                    "Chart a month of weight or BMI in the terminal, or as an SVG file for a browser."),
                discussion: Output.l.tr(
                    """
                    A longer range (--from/--to, or --months) is drawn a day a column while it fits, else a week, \
                    a month or a year a column, each the average of its days with data; the summary gives the days themselves.

                    Examples:
                      beautyctl measure chart --month 2026-11
                      beautyctl measure chart --month 2026-11 --unit bmi --svg bmi.svg
                      beautyctl measure chart --months 6
                      beautyctl measure chart --from 2026-01-01 --to 2026-11-30 --json
                    """))
        }
        @Option(help: ArgumentHelp(Output.l.tr("The month (YYYY-MM; default: this month)."), valueName: "month"))
        var month: String?
        @Option(
            help: ArgumentHelp(
                Output.l.tr("First day of a range (YYYY-MM-DD; --to defaults to today)."), valueName: "date")) var from:
            String?
        @Option(help: ArgumentHelp(Output.l.tr("Last day of a range, included (YYYY-MM-DD)."), valueName: "date"))
        var to: String?
        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(Output.l.tr("The last n months, this one included, up to today."), valueName: "n"))
        var months: Int?
        @Option(help: ArgumentHelp(Output.l.tr("kg or bmi."), valueName: "unit")) var unit: ChartUnit = .kg
        @Option(
            help: ArgumentHelp(
                Output.l.tr("Write an SVG line chart to this file instead of drawing in the terminal."),
                valueName: "file"))
        var svg: String?
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if month != nil, from != nil || to != nil || months != nil {
                throw ValidationError(Output.l.tr("--month cannot be combined with --from/--to or --months"))
            }
            if months != nil, from != nil || to != nil {
                throw ValidationError(Output.l.tr("--months cannot be combined with --from/--to"))
            }
            if let months, !(1...1200).contains(months) {
                throw ValidationError(Output.l.tr("--months: must be between 1 and 1200"))
            }
        }

        func run() throws {
            if from != nil || to != nil || months != nil { return try runRange() }
            let month =
                try month.map { text in
                    try Input.check("--month") { try CalendarMonth(parsing: text, field: "--month") }
                }
                ?? CalendarMonth(LocalDate(Date(), in: .current))
            var client = global.client
            let result = try client.call(MeasurementRPC.chart, MeasurementChartParams(month: month, unit: unit))
            if output.json { return try Output.json(result) }
            guard let svg else {
                return Output.write(
                    Data(MeasurementChart.text(result.points, month: month, unit: unit, localizer: Output.l).utf8))
            }
            try write(
                MeasurementChart.svg(result.points, month: month, unit: unit, localizer: Output.l), to: svg,
                period: month.name(Output.l.language), days: result.points.count)
        }

        /// Writes the SVG chart of `period` to `file` and says so, or says none was written when no day has data.
        private func write(_ chart: @autoclosure () -> String, to file: String, period: String, days: Int) throws {
            let l = Output.l
            guard days > 0 else {
                return Output.line(
                    unit == .bmi
                        ? l.tr("No BMI values in %s: no chart written.", period)
                        : l.tr("No measurements in %s: no chart written.", period))
            }
            try Output.write(chart(), to: file, option: "--svg")
            Output.line(
                l.trn(
                    "Wrote %s: %s, %s, %s day with data.", "Wrote %s: %s, %s, %s days with data.", days, file,
                    unit.axisTitle(l), period, days))
        }

        /// A range of days: the measurements of `measure.list` in it, drawn in buckets that fit a terminal.
        private func runRange() throws {
            let today = LocalDate(Date(), in: .current)
            let (first, last) = try MeasureOutput.range(from: from, to: to, months: months, today: today)
            var client = global.client
            let list = try client.call(MeasurementRPC.list, MeasurementListParams(from: first, to: last))
            let chart = MeasurementRangeChart(list, from: first, to: last, unit: unit)
            if output.json { return try Output.json(chart) }
            guard let svg else { return Output.write(Data(chart.text(localizer: Output.l).utf8)) }
            try write(
                chart.svg(localizer: Output.l), to: svg, period: chart.rangeName(Output.l.language),
                days: chart.points.count)
        }
    }

    struct Clear: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(abstract: Output.l.tr("Delete every measurement (asks first)."))
        }
        @Flag(name: [.short, .long], help: ArgumentHelp(Output.l.tr("Do not ask for confirmation."))) var yes = false
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            var client = global.client
            if !yes {
                let count = try client.call(MeasurementRPC.count).count
                if count == 0 { return Output.line(Output.l.tr("No measurements to delete.")) }
                guard
                    try Input.confirm(
                        Output.l.trn("Delete all %s measurements?", "Delete all %s measurements?", count), yes: yes
                    )
                else {
                    return Output.line(Output.l.tr("Kept the measurements."))
                }
            }
            let result = try client.call(MeasurementRPC.clear)
            if output.json { return try Output.json(result) }
            Output.line(Output.l.trn("Deleted %s measurement.", "Deleted %s measurements.", result.removed))
        }
    }
}
