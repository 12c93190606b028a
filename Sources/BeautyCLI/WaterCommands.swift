import ArgumentParser
import BeautyCore
import BeautyLocalization
import BeautyProtocol
import Foundation

/// `--days`, `--from`, `--to` of `water total` and `water list` (default: today).
struct WaterRangeOptions: ParsableArguments {
    @Option(
        parsing: .unconditional, help: ArgumentHelp(Output.l.tr("The last N days, today included."), valueName: "n"))
    var days: Int?
    @Option(help: ArgumentHelp(Output.l.tr("Start of the range (a time or a date)."), valueName: "time")) var from:
        String?
    @Option(
        help: ArgumentHelp(Output.l.tr("End of the range, exclusive (a date means its midnight)."), valueName: "time"))
    var to: String?

    func validate() throws {
        if let days, days <= 0 || days > 3660 {
            throw ValidationError(Output.l.tr("--days: must be between 1 and 3660"))
        }
        if days != nil, from != nil || to != nil {
            throw ValidationError(Output.l.tr("--days cannot be combined with --from/--to"))
        }
    }

    func params(now: Date) throws -> WaterRangeParams {
        var params = WaterRangeParams()
        if let days {
            let calendar = LocalTime.calendar(.current)
            let tomorrow = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: now))!
            params.from = calendar.date(byAdding: .day, value: -days, to: tomorrow)
            params.to = tomorrow
        }
        if let from { params.from = try Input.time(from, option: "--from", now: now) }
        if let to { params.to = try Input.time(to, option: "--to", now: now) }
        try Input.check("--to") {
            try Validation.range(from: params.from, to: params.to, .halfOpen, toField: "--to", fromName: "--from")
        }
        return params
    }
}

struct WaterCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "water",
            abstract: Output.l.tr("Water intake: log drinks, totals per day, a daily goal, reminders, import."),
            subcommands: [Add.self, List.self, Edit.self, Remove.self, Total.self, Goal.self, Remind.self, Import.self])
    }
}

enum WaterOutput {
    /// "1250 of 2000 ml (62%)", "2000 of 2000 ml — goal reached", or "750 ml".
    static func progress(_ day: WaterDay) -> String {
        let l = Output.l, ml = Output.numbers.integer
        guard let goal = day.goalMl else { return l.tr("%s ml", ml(day.totalMl)) }
        if day.goalReached == true { return l.tr("%s of %s ml — goal reached", ml(day.totalMl), ml(goal)) }
        return l.tr("%s of %s ml (%s%%)", ml(day.totalMl), ml(goal), day.totalMl * 100 / goal)
    }

    /// "water record 4: 250 ml at Wed 7 Jan 2026, 08:30".
    static func describe(_ record: WaterRecord) -> String {
        Output.l.tr(
            "water record %s: %s ml at %s", record.id ?? 0, Output.numbers.integer(record.amountMl),
            Output.times.short(record.start))
    }

    /// "Today" or the day's name.
    static func dayName(_ day: WaterDay, now: Date) -> String {
        day.day.description == Output.times.isoDay(now)
            ? Output.l.tr("Today") : Output.times.day(day.day.start(in: .current))
    }

    /// "from 12:00", "until 18:00" or "12:00–18:00" when the range covers only part of `day`; nil for all of it.
    static func part(of day: LocalDate, from: Date, to: Date) -> String? {
        let start = day.start(in: .current)
        let end = day.adding(days: 1).start(in: .current)
        let times = Output.times
        switch (from > start, to < end) {
        case (false, false): return nil
        case (true, false): return Output.l.tr("from %s", times.clock(from))
        case (false, true): return Output.l.tr("until %s", times.clock(to))
        case (true, true): return "\(times.clock(from))–\(times.clock(to))"
        }
    }

    /// A past time as typed; a bare clock time ("8:30", "8.30") means today's, not tomorrow's.
    static func pastTime(_ text: String, option: String, now: Date) throws -> Date {
        let clockOnly =
            text.trimmingCharacters(in: .whitespaces).range(
                of: #"^[0-9]{1,2}([:.][0-9]{2}|:[0-9]{2}:[0-9]{2})$"#, options: .regularExpression) != nil
        let time = try Input.time(clockOnly ? "today \(text)" : text, option: option, now: now)
        guard time <= now.addingTimeInterval(60) else {
            throw CLIFailure(
                .usage,
                Output.l.tr(
                    "%s: '%s' is %s, in the future: log water once it is drunk", option, text, Output.times.short(time))
            )
        }
        return time
    }
}

extension WaterCommand {
    struct Add: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr("Log a drink, in millilitres."),
                usage: "beautyctl water add <amount> [--at <time>] [--until <time>] [--json]",
                discussion: Output.l.tr(
                    """
                    The amount may have a decimal comma or point and a unit: 250, 250,5 (stored as 251: \
                    whole millilitres, halves round up), 0,5l, 330ml.
                    Examples:
                      beautyctl water add 250
                      beautyctl water add 500 --at 8:30 --until 9:15
                    """))
        }

        @Argument(
            parsing: .allUnrecognized,
            help: ArgumentHelp(Output.l.tr("How much, in ml (e.g. 250, 250,5 or 0,5l)."), valueName: "amount"))
        var amount: [String] = []
        @Option(
            help: ArgumentHelp(
                Output.l.tr("When it was drunk (default: now; '8:30' means today's)."), valueName: "time")) var at:
            String?
        @Option(help: ArgumentHelp(Output.l.tr("When drinking it ended (optional)."), valueName: "time")) var until:
            String?
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let text = try Input.single(amount, what: .water, example: "water add 250")
            let ml = try Input.check("amount") { try WaterAmount.parse(text, field: "amount") }
            let now = Date()
            var params = WaterAddParams(amountMl: ml)
            params.at = try at.map { try WaterOutput.pastTime($0, option: "--at", now: now) }
            params.until = try until.map { text in
                let clockOnly = text.range(of: #"^[0-9]{1,2}:[0-9]{2}$"#, options: .regularExpression) != nil
                return try Input.time(clockOnly ? "today \(text)" : text, option: "--until", now: now)
            }
            if let end = params.until, end < params.at ?? now {
                throw CLIFailure(.usage, Output.l.tr("--until: must not be before --at"))
            }
            var client = global.client
            let result = try client.call(WaterRPC.add, params)
            if output.json { return try Output.json(result) }
            let times = Output.times
            let when =
                times.isoDay(result.record.start) == times.isoDay(now)
                ? times.clock(result.record.start) : times.short(result.record.start)
            Output.line(
                Output.l.tr("Logged %s ml at %s (record %s).", result.record.amountMl, when, result.record.id ?? 0))
            Output.line(
                "\(times.isoDay(result.record.start) == times.isoDay(now) ? Output.l.tr("Today") : times.day(result.record.start)): \(WaterOutput.progress(result.day))."
            )
        }
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr("List the drinks logged (default: today), earliest first, with their ids."),
                discussion: Output.l.tr(
                    """
                    Examples:
                      beautyctl water list
                      beautyctl water list --days 7 --json
                      beautyctl water list --days 7 --reverse      # latest first
                    """))
        }
        @OptionGroup var range: WaterRangeOptions
        @OptionGroup var order: SortOptions
        @OptionGroup var output: ListOutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            var params = try range.params(now: Date())
            (params.sort, params.reverse) = order.wire
            var client = global.client
            let list = try client.call(WaterRPC.list, params)
            if try output.printed(
                list, csv: ["id", "uuid", "amount_ml", "start", "end"],
                {
                    list.map {
                        [String($0.id ?? 0), $0.uuid, String($0.amountMl), Output.iso($0.start), Output.iso($0.end)]
                    }
                })
            {
                return
            }
            if list.isEmpty {
                return Output.line(
                    range.days == nil && range.from == nil && range.to == nil
                        ? Output.l.tr("No water logged today.") : Output.l.tr("No water logged in that range."))
            }
            let times = Output.times
            Output.table(
                [Output.l.tr("ID"), Output.l.tr("WHEN"), Output.l.tr("ML"), Output.l.tr("UNTIL")],
                list.map { r in
                    [String(r.id ?? 0), times.short(r.start), String(r.amountMl), r.end.map(times.clock) ?? ""]
                })
        }
    }

    struct Edit: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr(
                    "Change a logged drink (ids from 'water list'); options not given stay as they are."),
                discussion: Output.l.tr(
                    """
                    The day's total changes with it, and so do the day's reminders (they stop once the goal is reached).
                    Examples:
                      beautyctl water edit 4 --amount 330
                      beautyctl water edit 4 --at 8:15 --clear-until
                    """))
        }
        @Argument(help: ArgumentHelp(Output.l.tr("Water record id."))) var id: Int64
        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(Output.l.tr("New amount in ml (250, 250,5, 0,5l)."), valueName: "amount")) var amount:
            String?
        @Option(help: ArgumentHelp(Output.l.tr("When it was drunk ('8:30' means today's)."), valueName: "time")) var at:
            String?
        @Option(help: ArgumentHelp(Output.l.tr("When drinking it ended."), valueName: "time")) var until: String?
        @Flag(help: ArgumentHelp(Output.l.tr("Remove the end time."))) var clearUntil = false
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            if amount == nil, at == nil, until == nil, !clearUntil {
                throw CLIFailure(
                    .usage, Output.l.tr("nothing to change: give --amount, --at, --until or --clear-until"))
            }
            if clearUntil, until != nil {
                throw CLIFailure(.usage, Output.l.tr("--until and --clear-until: choose one"))
            }
            let now = Date()
            var params = WaterEditParams(id: id)
            params.amountMl = try amount.map { text in
                try Input.check("--amount") { try WaterAmount.parse(text, field: "--amount") }
            }
            params.at = try at.map { try WaterOutput.pastTime($0, option: "--at", now: now) }
            params.until = try until.map { try WaterOutput.pastTime($0, option: "--until", now: now) }
            params.clearUntil = clearUntil ? true : nil
            var client = global.client
            let result = try client.call(WaterRPC.edit, params)
            if output.json { return try Output.json(result) }
            Output.line(Output.l.tr("Updated %s.", WaterOutput.describe(result.record)))
            Output.line("\(WaterOutput.dayName(result.day, now: now)): \(WaterOutput.progress(result.day)).")
        }
    }

    struct Remove: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                commandName: "rm",
                abstract: Output.l.tr("Delete a logged drink (asks first on a terminal; ids from 'water list')."))
        }
        @Argument(help: ArgumentHelp(Output.l.tr("Water record id."))) var id: Int64
        @OptionGroup var removal: RemovalOptions

        func run() throws {
            let removed = try removal.remove(Output.l.tr("water record"), id: id, WaterRPC.remove) { _ in
                Output.l.tr("Delete water record %s?", id)
            }
            guard let gone = removed else { return }
            Output.line(Output.l.tr("Deleted %s.", WaterOutput.describe(gone.record)))
            Output.line("\(WaterOutput.dayName(gone.day, now: Date())): \(WaterOutput.progress(gone.day)).")
        }
    }

    struct Total: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr("Water drunk per day and over a range (default: today)."),
                discussion: Output.l.tr(
                    """
                    Examples:
                      beautyctl water total
                      beautyctl water total --days 7
                      beautyctl water total --from 2026-11-01 --to 2026-12-01 --json
                    """))
        }

        @OptionGroup var range: WaterRangeOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let now = Date()
            let params = try range.params(now: now)
            var client = global.client
            let result = try client.call(WaterRPC.total, params)
            if output.json { return try Output.json(result) }
            let times = Output.times
            let l = Output.l, ml = Output.numbers.integer
            let drinks = { (count: Int) in l.trn("%s drink(s)", "%s drink(s)", count) }
            if result.days.count == 1, let day = result.days.first {
                let name = WaterOutput.dayName(day, now: now)
                guard let part = WaterOutput.part(of: day.day, from: result.from, to: result.to) else {
                    return Output.line("\(name): \(WaterOutput.progress(day)), \(drinks(day.count)).")
                }
                // The daily goal is for a whole day: a share of it over a few hours would read as the day's progress.
                return Output.line(
                    l.tr(
                        "%s %s: %s ml, %s (part of the day: no goal progress).", name, part, ml(day.totalMl),
                        drinks(day.count)))
            }
            Output.line(
                l.tr("Water from %s to %s", times.short(result.from), times.short(result.to))
                    + (result.goalMl.map { l.tr(" (goal %s ml a day)", ml($0)) } ?? ""))
            Output.table(
                [l.tr("DAY"), l.tr("ML"), l.tr("DRINKS"), l.tr("GOAL")],
                result.days.map { day in
                    let part = WaterOutput.part(of: day.day, from: result.from, to: result.to)
                    return [
                        times.day(day.day.start(in: .current)) + (part.map { " (\($0))" } ?? ""), ml(day.totalMl),
                        String(day.count),
                        day.goalMl.map {
                            day.goalReached == true
                                ? l.tr("reached") : part != nil ? l.tr("part of the day") : "\(day.totalMl * 100 / $0)%"
                        } ?? "",
                    ]
                })
            let average = result.days.isEmpty ? 0 : result.totalMl / result.days.count
            let reached = result.days.filter { $0.goalReached == true }.count
            Output.line(
                l.trn(
                    "Total: %s ml in %s drink(s), %s ml a day on average",
                    "Total: %s ml in %s drink(s), %s ml a day on average",
                    result.count, ml(result.totalMl), ml(result.count), ml(average))
                    + (result.goalMl == nil
                        ? "." : l.tr("; goal reached on %s of %s days.", reached, result.days.count)))
        }
    }

    struct Goal: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr("Show or set the daily goal in ml ('off' removes it)."),
                usage: "beautyctl water goal [<ml>|off] [--json]",
                discussion: Output.l.tr(
                    """
                    Today's progress shows in 'beautyctl now'; reminders stop for the day once it is reached.
                    Examples:
                      beautyctl water goal 2000
                      beautyctl water goal off
                    """))
        }

        @Argument(
            parsing: .allUnrecognized,
            help: ArgumentHelp(Output.l.tr("Millilitres a day, or 'off'."), valueName: "ml|off"))
        var value: [String] = []
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            var params = WaterGoalParams()
            if !value.isEmpty {
                let text = try Input.single(value, what: .goal, example: "water goal 2000")
                if text.lowercased() == "off" {
                    params.off = true
                } else {
                    params.goalMl = try Input.check("goal") { try WaterAmount.goal(parsing: text) }
                }
            }
            var client = global.client
            let result = try client.call(WaterRPC.goal, params)
            if output.json { return try Output.json(result) }
            Output.line(
                result.goalMl.map { Output.l.tr("Daily water goal: %s ml.", Output.numbers.integer($0)) }
                    ?? Output.l.tr("No daily water goal."))
        }
    }

    struct Remind: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr("Hydration reminders every N hours inside a daily window ('off' stops them)."),
                discussion: Output.l.tr(
                    """
                    Reminders stop for the day once the daily goal is reached. Without options this shows \
                    the settings; 'on' switches the last ones back on (default every 2h, 09:00-21:00).
                    Examples:
                      beautyctl water remind --every 2h --between 09:00-21:00
                      beautyctl water remind off
                    """))
        }

        @Argument(help: ArgumentHelp(Output.l.tr("'on' or 'off' (optional)."), valueName: "on|off")) var state: String?
        @Option(
            help: ArgumentHelp(
                Output.l.tr("How often (elapsed time from the window's start), e.g. 2h or 90m."), valueName: "duration")
        ) var every: String?
        @Option(
            help: ArgumentHelp(
                Output.l.tr("The daily window, end included, e.g. 09:00-21:00."), valueName: "HH:MM-HH:MM"))
        var between: String?
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            var params = WaterRemindParams()
            switch state?.lowercased() {
            case nil: break
            case "on": params.enabled = true
            case "off": params.enabled = false
            case let other?:
                throw CLIFailure(.usage, Output.l.tr("'%s': say on or off (or give --every/--between)", other))
            }
            if params.enabled == false, every != nil || between != nil {
                throw CLIFailure(.usage, Output.l.tr("'off' takes no --every or --between"))
            }
            if let every {
                let seconds = try Input.duration(every, option: "--every")
                var check = WaterReminder.standard
                check.everySeconds = seconds
                params.everySeconds = try Input.check("--every") { try check.validated().everySeconds }
            }
            if let between {
                let window = try Input.check("--between") { try Validation.parseWindow(between, field: "--between") }
                params.windowStart = window.0
                params.windowEnd = window.1
            }
            var client = global.client
            let result = try client.call(WaterRPC.remind, params)
            if output.json { return try Output.json(result) }
            let settings =
                DurationParser.every(result.everySeconds, Output.l)
                + Output.l.tr(" between %s and %s", result.windowStart, result.windowEnd)
            guard result.enabled else {
                return Output.line(Output.l.tr("Water reminders are off (last settings: %s).", settings))
            }
            Output.line(Output.l.tr("Water reminders are on: %s.", settings))
            let times = Output.times
            if !result.upcoming.isEmpty {
                Output.line(
                    Output.l.tr(
                        "Next: %s",
                        result.upcoming.map {
                            times.isoDay($0) == times.isoDay(Date()) ? times.clock($0) : times.short($0)
                        }
                        .joined(separator: ", ")))
            }
        }
    }

    struct Import: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr(
                    "Import water records from a CSV or JSON file; records already present are skipped."),
                discussion: Output.l.tr(
                    """
                    CSV: a header naming the columns uuid,amount_ml,start,end (end may be empty), e.g.
                      uuid,amount_ml,start,end
                      6F1C...,250,2026-11-20T08:30:00+01:00,2026-11-20T08:35:00+01:00
                    JSON: an array of {"uuid", "amountMl" (or "amount_ml"), "start", "end"}.
                    Times are ISO 8601; without an offset they are local. Amounts round half up to whole ml \
                    (a decimal comma in CSV needs quotes: "250,5"). Records are matched by uuid, so importing \
                    the same file again adds nothing. A bad line is reported with its number and nothing is imported.
                    """))
        }

        @Argument(help: ArgumentHelp(Output.l.tr("The CSV or JSON file ('-' reads standard input)."))) var file: String
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        /// Records per request, well below the 1 MiB line limit.
        static let batch = 2000

        func run() throws {
            let text = try CalendarFile.read(file)
            let records: [WaterRecord]
            do {
                records = try WaterImport.parse(text, zone: .current)
            } catch let error as WaterImportError {
                throw CLIFailure(
                    .usage,
                    (error.located(in: file, Output.l) + [Output.l.tr("(nothing was imported)")]).joined(
                        separator: "\n"))
            }
            var client = global.client
            var total = WaterImportResult(inserted: 0, skipped: 0)
            // Batches are separate transactions; a retry after a failure only adds what is missing.
            for start in stride(from: 0, to: records.count, by: Self.batch) {
                let part = Array(records[start..<min(start + Self.batch, records.count)])
                let result = try client.call(WaterRPC.import, WaterImportParams(records: part))
                total.inserted += result.inserted
                total.skipped += result.skipped
            }
            if output.json { return try Output.json(total) }
            Output.line(
                Output.l.tr(
                    "Imported %s new water record(s) from %s; %s already present (skipped).", total.inserted, file,
                    total.skipped))
        }
    }
}
