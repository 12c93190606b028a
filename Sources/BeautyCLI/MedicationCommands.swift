import ArgumentParser
import BeautyCore
import BeautyLocalization
import BeautyProtocol
import Foundation

struct MedCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "med",
            abstract: Output.l.tr("Medications: schedules, stock, and the order you keep them in."),
            subcommands: [Add.self, List.self, Show.self, Edit.self, Remove.self, Move.self, Refill.self])
    }
}

/// The schedule and detail options `med add` and `med edit` share.
struct MedicationFields: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            Output.l.tr(
                "What one dose is, e.g. '1 tablet' or '2,5 ml' (its number is what a dose takes from the stock)."),
            valueName: "text"))
    var dose: String?

    @Option(
        help: ArgumentHelp(
            Output.l.tr("A time of day to take it (08:00 or 8.00); repeat for several (--at 08:00 --at 20:00)."),
            valueName: "HH:MM"))
    var at: [String] = []

    @Option(
        help: ArgumentHelp(
            Output.l.tr("Only on these weekdays, e.g. mon,wed,fri, pon,śr,pt or po-pi (with --at or --every)."),
            valueName: "days"))
    var days: String?

    @Option(
        help: ArgumentHelp(
            Output.l.tr("Every N hours (elapsed time) inside the --between window, e.g. 8h."), valueName: "duration"))
    var every: String?

    @Option(
        help: ArgumentHelp(
            Output.l.tr("The daily window for --every, e.g. 08:00-20:00 (may cross midnight: 22:00-06:00)."),
            valueName: "HH:MM-HH:MM"))
    var between: String?

    @Option(
        help: ArgumentHelp(
            Output.l.tr("Treatment cycle: days on / days off counted from --from, e.g. 21/7."), valueName: "on/off"))
    var cycle: String?

    @Flag(
        help: ArgumentHelp(
            Output.l.tr("Taken only when needed: never notified; log each dose with 'beautyctl dose log MED'.")))
    var asNeeded = false

    @Option(
        help: ArgumentHelp(
            Output.l.tr("First day (YYYY-MM-DD); inactive before it. Default: the day it is added."), valueName: "date")
    )
    var from: String?

    @Option(
        help: ArgumentHelp(
            Output.l.tr(
                "Last day (YYYY-MM-DD); its doses are the last (a --between window that crosses midnight finishes that night)."
            ), valueName: "date"))
    var until: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            Output.l.tr("Units in stock (at most 1000000); each dose taken uses its amount."), valueName: "count"))
    var stock: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(Output.l.tr("Warn once when the stock falls to this many units."), valueName: "count"))
    var low: Double?

    @Option(help: ArgumentHelp(Output.l.tr("Free text notes (shown in the notification)."), valueName: "text"))
    var notes: String?

    @Option(
        help: ArgumentHelp(
            Output.l.tr("Pin the times to a time zone (IANA name, e.g. Europe/Warsaw) instead of following yours."),
            valueName: "zone"))
    var tz: String?

    var givesSchedule: Bool { !at.isEmpty || every != nil || asNeeded || days != nil || between != nil || cycle != nil }

    /// The schedule the options describe; nil when none was given.
    func schedule() throws -> MedicationSchedule? {
        guard givesSchedule else { return nil }
        let shapes = [!at.isEmpty, every != nil, asNeeded].filter { $0 }.count
        guard shapes <= 1 else { throw CLIFailure(.usage, Output.l.tr("choose one of --at, --every or --as-needed")) }
        if between != nil, every == nil {
            throw CLIFailure(.usage, Output.l.tr("--between goes with --every (e.g. --every 8h --between 08:00-20:00)"))
        }
        if asNeeded, days != nil || cycle != nil {
            throw CLIFailure(.usage, Output.l.tr("--as-needed takes no --days or --cycle"))
        }
        if shapes == 0 { throw CLIFailure(.usage, Output.l.tr("--days and --cycle need --at or --every")) }
        var schedule = MedicationSchedule(kind: asNeeded ? .asNeeded : (every != nil ? .interval : .times))
        schedule.times = try at.map { text in try Input.check("--at") { try ClockTime(parsing: text, field: "--at") } }
        if let every { schedule.intervalSeconds = try Input.duration(every, option: "--every") }
        if let between {
            let window = try Input.check("--between") { try Validation.parseWindow(between) }
            schedule.windowStart = window.0
            schedule.windowEnd = window.1
        }
        if let days {
            schedule.weekdays = try Input.check("--days") {
                try Validation.parseWeekdays(days, language: Input.language)
            }
        }
        if let cycle { schedule.cycle = try Input.check("--cycle") { try Validation.parseCycle(cycle) } }
        return schedule
    }

    func dates() throws -> (LocalDate?, LocalDate?) {
        let start = try from.map { text in try Input.check("--from") { try LocalDate(typed: text, field: "--from") } }
        let end = try until.map { text in try Input.check("--until") { try LocalDate(typed: text, field: "--until") } }
        try Input.check("--until") {
            try Validation.range(from: start, to: end, .closed, toField: "--until", fromName: "--from")
        }
        if let stock, stock < 0 { throw CLIFailure(.usage, Output.l.tr("--stock: must not be negative")) }
        if let low, low < 0 { throw CLIFailure(.usage, Output.l.tr("--low: must not be negative")) }
        return (start, end)
    }
}

enum MedOutput {
    static func describe(_ detail: MedicationDetail) {
        let m = detail.medication
        let times = Output.times
        Output.line(Output.l.tr("Medication %s: %s%s", m.id ?? 0, m.name, m.dose.map { " — \($0)" } ?? ""))
        Output.line(Output.l.tr("  schedule:  %s", schedule(m.schedule)))
        if m.startDate != nil || m.endDate != nil {
            Output.line(
                Output.l.tr(
                    "  dates:     %s to %s", m.startDate.map(Output.day) ?? "…", m.endDate.map(Output.day) ?? "…"))
        }
        Output.line(
            Output.l.tr("  active:    %s", detail.activeToday ? Output.l.tr("yes, today") : Output.l.tr("not today")))
        if let stock = m.stock {
            let low = m.lowStock.map { Output.l.tr(" (warning at %s)", format($0)) } ?? ""
            Output.line(Output.l.tr("  stock:     %s%s", format(stock), low))
        }
        if let notes = m.notes { Output.line(Output.l.tr("  notes:     %s", notes)) }
        for dose in detail.today {
            Output.line(
                Output.l.tr(
                    "  today:     %s dose %s — %s", times.clock(dose.scheduledAt), dose.id ?? 0,
                    StatusName.dose(dose.state.rawValue, Output.l)))
        }
        if let next = detail.upcoming.first { Output.line(Output.l.tr("  next:      %s", times.long(next))) }
        if let a = detail.adherence {
            Output.line(
                Output.l.tr(
                    "  adherence: %s/%s last 7 days, %s/%s last 30 days", a.taken7, a.scheduled7, a.taken30,
                    a.scheduled30))
        }
    }

    static func schedule(_ s: MedicationSchedule, _ l: Localizer = Output.l) -> String {
        var text: String
        switch s.kind {
        case .none: return l.tr("none (listed, never notified)")
        case .asNeeded: return l.tr("as needed")
        case .times: text = l.tr("at %s", s.times.map(\.description).joined(separator: ", "))
        case .interval:
            text = DurationParser.every(s.intervalSeconds ?? 0, l)
            if let a = s.windowStart, let b = s.windowEnd { text += l.tr(" between %s and %s", a, b) }
        }
        if let days = s.weekdays {
            text += l.tr(
                " on %s", days.map { DayWords.abbreviation($0.number, language: l.language) }.joined(separator: ","))
        }
        if let c = s.cycle { text += l.tr(", cycle %s days on / %s off", c.onDays, c.offDays) }
        return text
    }

    static func format(_ value: Double) -> String { Medication.formatUnits(value) }
}

extension MedCommand {
    struct Add: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr("Add a medication."),
                discussion: Output.l.tr(
                    """
                    Examples:
                      beautyctl med add 'Vitamin D' --dose '1 capsule' --at 08:00
                      beautyctl med add Ibuprofen --dose '1 tablet' --every 8h --between 08:00-22:00 --until 2026-12-05
                      beautyctl med add Pill --at 21:00 --cycle 21/7 --from 2026-12-01 --stock 28 --low 7
                      beautyctl med add Antihistamine --as-needed
                    """))
        }

        @Argument(help: ArgumentHelp(Output.l.tr("Name of the medication."))) var name: String
        @OptionGroup var fields: MedicationFields
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            var params = MedicationAddParams(name: try Input.name(name, option: "name"))
            params.schedule = try fields.schedule()
            (params.startDate, params.endDate) = try fields.dates()
            params.dose = fields.dose
            params.notes = fields.notes
            params.stock = fields.stock
            params.lowStock = fields.low
            params.timeZone = fields.tz
            // The daemon checks again; checking here makes a typo a usage error (exit 2) with no round trip.
            _ = try Input.check("") {
                try Validation.medication(
                    Medication(
                        name: params.name, dose: params.dose, notes: params.notes,
                        startDate: params.startDate, endDate: params.endDate,
                        schedule: params.schedule ?? .none, stock: params.stock, lowStock: params.lowStock,
                        timeZone: params.timeZone))
            }
            var client = global.client
            let detail = try client.call(MedicationRPC.add, params)
            if output.json { return try Output.json(detail) }
            Output.line(Output.l.tr("Added medication %s.", detail.medication.id ?? 0))
            MedOutput.describe(detail)
        }
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(abstract: Output.l.tr("List medications in your order."))
        }
        @OptionGroup var order: SortOptions
        @OptionGroup var output: ListOutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            var client = global.client
            let list = try client.call(MedicationRPC.list, order.params)
            if try output.printed(
                list, csv: ["position", "id", "name", "dose", "schedule", "stock", "low_stock", "notes"],
                {
                    list.map { m in
                        [
                            String(m.position), String(m.id ?? 0), m.name, m.dose ?? "",
                            MedOutput.schedule(m.schedule, .english),
                            m.stock.map(MedOutput.format) ?? "", m.lowStock.map(MedOutput.format) ?? "", m.notes ?? "",
                        ]
                    }
                })
            {
                return
            }
            if list.isEmpty { return Output.line(Output.l.tr("No medications.")) }
            Output.table(
                [
                    "#", Output.l.tr("ID"), Output.l.tr("NAME"), Output.l.tr("DOSE"), Output.l.tr("SCHEDULE"),
                    Output.l.tr("STOCK"),
                ],
                list.map { m in
                    [
                        String(m.position), String(m.id ?? 0), m.name, m.dose ?? "", MedOutput.schedule(m.schedule),
                        m.stock.map(MedOutput.format) ?? "",
                    ]
                })
        }
    }

    struct Show: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(abstract: Output.l.tr("Show a medication with today's doses and adherence."))
        }
        @Argument(help: ArgumentHelp(Output.l.tr("Medication id."))) var id: Int64
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            var client = global.client
            let detail = try client.call(MedicationRPC.show, IDParams(id: id))
            if output.json { return try Output.json(detail) }
            MedOutput.describe(detail)
        }
    }

    struct Edit: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr("Change a medication; schedule options replace the whole schedule."),
                discussion: Output.l.tr(
                    "Doses already shown or answered stay in the history; future ones follow the new schedule."))
        }
        @Argument(help: ArgumentHelp(Output.l.tr("Medication id."))) var id: Int64
        @Option(help: ArgumentHelp(Output.l.tr("New name."), valueName: "text")) var name: String?
        @OptionGroup var fields: MedicationFields
        @Option(
            help: ArgumentHelp(
                Output.l.tr(
                    "Empty a field: %s; may repeat.",
                    MedicationEditParams.Clearable.allCases.map(\.rawValue).joined(separator: ", ")), valueName: "field"
            ))
        var clear: [String] = []
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            var params = MedicationEditParams(id: id)
            params.name = try name.map { try Input.name($0, option: "--name") }
            params.schedule = try fields.schedule()
            (params.startDate, params.endDate) = try fields.dates()
            params.dose = fields.dose
            params.notes = fields.notes
            params.stock = fields.stock
            params.lowStock = fields.low
            params.timeZone = fields.tz
            params.clear = try clear.map { raw in
                let codes = MedicationEditParams.Clearable.allCases.map(\.rawValue)
                guard
                    let field = TypedWord.code(raw, among: codes, word: FieldName.medication).flatMap(
                        MedicationEditParams.Clearable.init(rawValue:))
                else {
                    throw CLIFailure(
                        .usage,
                        Output.l.tr(
                            "--clear: '%s' is not one of %s", raw,
                            MedicationEditParams.Clearable.allCases.map(\.rawValue).joined(separator: ", ")))
                }
                return field
            }
            var client = global.client
            let detail = try client.call(MedicationRPC.edit, params)
            if output.json { return try Output.json(detail) }
            Output.line(Output.l.tr("Updated medication %s.", id))
            MedOutput.describe(detail)
        }
    }

    struct Remove: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                commandName: "rm", abstract: Output.l.tr("Delete a medication and its dose history (asks first)."))
        }
        @Argument(help: ArgumentHelp(Output.l.tr("Medication id."))) var id: Int64
        @Flag(name: [.short, .long], help: ArgumentHelp(Output.l.tr("Do not ask for confirmation."))) var yes = false
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            var client = global.client
            let removed = try Input.confirmedRemoval(
                of: Output.l.tr("medication"), id: id, yes: yes, client: &client, remove: MedicationRPC.remove
            ) { client in
                let m = try client.call(MedicationRPC.show, IDParams(id: id))
                return Output.l.tr("Delete medication %s '%s' and its dose history?", id, m.medication.name)
            }
            guard let gone = removed else { return }
            if output.json { return try Output.json(gone) }
            Output.line(Output.l.tr("Deleted medication %s: %s.", id, gone.name))
        }
    }

    struct Move: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(abstract: Output.l.tr("Move a medication to a position in your list (1 = first)."))
        }
        @Argument(help: ArgumentHelp(Output.l.tr("Medication id."))) var id: Int64
        @Argument(help: ArgumentHelp(Output.l.tr("New position, 1-based."))) var position: Int
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if position < 1 { throw ValidationError(Output.l.tr("POSITION: must be 1 or more")) }
        }

        func run() throws {
            var client = global.client
            let list = try client.call(MedicationRPC.move, MedicationMoveParams(id: id, position: position))
            if output.json { return try Output.json(list) }
            for m in list { Output.line(Output.l.tr("%s. %s (id %s)", m.position, m.name, m.id ?? 0)) }
        }
    }

    struct Refill: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr("Add units to a medication's stock."),
                usage: "beautyctl med refill <id> <count> [--json]",
                discussion: Output.l.tr("Example: beautyctl med refill 1 60"))
        }
        @Argument(help: ArgumentHelp(Output.l.tr("Medication id."))) var id: Int64
        @Argument(
            parsing: .allUnrecognized,
            help: ArgumentHelp(Output.l.tr("How many units were added (more than 0)."), valueName: "count"))
        var units: [String] = []
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let text = try Input.single(units, what: .count, example: "med refill \(id) 60")
            guard let count = Double(text.replacingOccurrences(of: ",", with: ".")), count.isFinite else {
                throw CLIFailure(.usage, Output.l.tr("count: '%s' is not a number (e.g. 60 or 2,5)", text))
            }
            if count <= 0 { throw CLIFailure(.usage, Output.l.tr("count: must be more than 0, got %s", text)) }
            var client = global.client
            let m = try client.call(MedicationRPC.refill, MedicationRefillParams(id: id, count: count))
            if output.json { return try Output.json(m) }
            Output.line(Output.l.tr("%s: %s in stock.", m.name, MedOutput.format(m.stock ?? 0)))
        }
    }
}

struct DoseCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "dose",
            abstract: Output.l.tr(
                "Answer a dose from the terminal, as the notification buttons do (ids from 'beautyctl now'); a missed or skipped dose can still be taken late."
            ),
            subcommands: [Taken.self, Skip.self, Snooze.self, Log.self])
    }

    struct Taken: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr("Record a dose as taken (uses up stock)."),
                discussion: DoseChoice.discussion)
        }
        @OptionGroup var dose: DoseChoice
        @Option(
            help: ArgumentHelp(
                Output.l.tr(
                    "When it was taken, if not now: a bare HH:MM is today's (a time still to come is refused: write 'yesterday 19:45'); more than 12 hours before the dose was due asks first."
                ), valueName: "time")) var at: String?
        @OptionGroup var answering: DoseAnswering

        func run() throws { try answering.send(MedicationRPC.doseTaken, dose, at: at) }
    }

    struct Skip: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr("Record a dose as deliberately skipped."),
                discussion: DoseChoice.discussion)
        }
        @OptionGroup var dose: DoseChoice
        @Option(
            help: ArgumentHelp(
                Output.l.tr(
                    "When it was skipped, if not now (a bare HH:MM is today's; more than 12 hours before the dose was due asks first)."
                ), valueName: "time")) var at: String?
        @OptionGroup var answering: DoseAnswering

        func run() throws { try answering.send(MedicationRPC.doseSkip, dose, at: at) }
    }

    struct Snooze: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(abstract: Output.l.tr("Remind again later."))
        }
        @Argument(help: ArgumentHelp(Output.l.tr("Dose id."))) var id: Int64
        @Option(
            name: .customLong("for"),
            help: ArgumentHelp(Output.l.tr("How long (default: the configured snooze, 10m)."), valueName: "duration"))
        var duration: String?
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let seconds = try duration.map { try Input.duration($0, option: "--for") }
            if let seconds, seconds <= 0 { throw CLIFailure(.usage, Output.l.tr("--for: must be more than 0")) }
            try DoseCommand.answer(MedicationRPC.doseSnooze, DoseParams(id: id, forSeconds: seconds), output, global)
        }
    }

    struct Log: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr(
                    "Record a dose taken outside the schedule (as needed, or an extra one): counted in history and stock."
                ))
        }
        @Argument(help: ArgumentHelp(Output.l.tr("The medication: its id or its name."))) var med: String
        @Option(
            help: ArgumentHelp(
                Output.l.tr(
                    "When it was taken, if not now (a bare HH:MM is today's; a time still to come is refused)."),
                valueName: "time")) var at: String?
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let when = try at.map { try Input.time($0, option: "--at", past: true) }
            var client = global.client
            let id = try Int64(med) ?? Self.medication(named: med, client: &client)
            let result = try client.call(MedicationRPC.doseLog, DoseLogParams(medicationID: id, at: when))
            if output.json { return try Output.json(result) }
            Output.line(
                Output.l.tr(
                    "Logged dose %s of %s taken at %s.", result.dose.id ?? 0, result.medication.name,
                    Output.times.short(result.dose.scheduledAt)))
            if let stock = result.medication.stock { Output.line(Output.l.tr("%s left.", MedOutput.format(stock))) }
        }

        /// The one medication with this name, in any case, with or without diacritics.
        static func medication(named name: String, client: inout any RPCCalling) throws -> Int64 {
            let wanted = TextFolding.fold(name.trimmingCharacters(in: .whitespaces))
            let matches = try client.call(MedicationRPC.list, ListOrderParams()).filter {
                TextFolding.fold($0.name) == wanted
            }
            guard let only = matches.first, matches.count == 1, let id = only.id else {
                throw CLIFailure(
                    matches.isEmpty ? .notFound : .usage,
                    matches.isEmpty
                        ? Output.l.tr("no medication named '%s' (see beautyctl med list)", name)
                        : Output.l.trn(
                            "%s medication is named '%s': give the id", "%s medications are named '%s': give the id",
                            matches.count, matches.count, name))
            }
            return id
        }
    }

    /// The dose to answer: its id, or a medication and the time the schedule has a dose at.
    struct DoseChoice: ParsableArguments {
        static var discussion: String {
            Output.l.tr(
                "A dose the agenda shows without an id (more than 48 hours ahead): --med ID --due TIME instead of the dose id."
            )
        }

        @Argument(help: ArgumentHelp(Output.l.tr("Dose id (from 'now', 'agenda' or 'med show')."))) var id: Int64?
        @Option(
            help: ArgumentHelp(Output.l.tr("With --due: the medication of a dose that has no id yet."), valueName: "id")
        ) var med: Int64?
        @Option(
            help: ArgumentHelp(
                Output.l.tr("With --med: when that dose is scheduled, as the agenda shows it."), valueName: "time"))
        var due: String?

        func validate() throws {
            guard (id != nil) != (med != nil || due != nil), (med == nil) == (due == nil) else {
                throw ValidationError(
                    Output.l.tr("give a dose id, or --med and --due for a dose the agenda shows without one"))
            }
        }

        func params(at: String?, yes: Bool) throws -> DoseParams {
            let when = try at.map { try Input.time($0, option: "--at", past: true) }
            let early: Bool? = yes ? true : nil
            if let id { return DoseParams(id: id, at: when, early: early) }
            return DoseParams(
                medicationID: med!, scheduledAt: try Input.time(due!, option: "--due"), at: when, early: early)
        }
    }

    /// What `dose taken` and `skip` share after the dose and `--at`: `--yes`, `--json` and `--socket`.
    struct DoseAnswering: ParsableArguments {
        @Flag(name: [.short, .long], help: ArgumentHelp(Output.l.tr("Do not ask for confirmation."))) var yes = false
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func send(_ rpc: RPC<DoseParams, DoseResult>, _ dose: DoseChoice, at: String?) throws {
            try DoseCommand.answer(rpc, try dose.params(at: at, yes: yes), output, global)
        }
    }

    static func answer(
        _ rpc: RPC<DoseParams, DoseResult>, _ params: DoseParams, _ output: OutputOptions, _ global: GlobalOptions
    ) throws {
        var client = global.client
        let times = Output.times
        let result: DoseResult
        do {
            result = try client.call(rpc, params)
        } catch let failure as CLIFailure where failure.data?.field == "early" {
            // Long before the dose was due: more likely a slip of the day or hour, so ask.
            guard let args = failure.data?.args, args.count == 2, let at = RFC3339.parse(args[0]),
                let due = RFC3339.parse(args[1])
            else { throw failure }
            let question = Output.l.tr(
                "Record the dose due %s as answered at %s, more than 12 hours earlier?", times.short(due),
                times.short(at))
            guard try Input.confirm(question, yes: false) else { return Output.line(Output.l.tr("Nothing recorded.")) }
            var confirmed = params
            confirmed.early = true
            result = try client.call(rpc, confirmed)
        }
        if output.json { return try Output.json(result) }
        let what = "\(result.medication.name) (\(times.short(result.dose.scheduledAt)))"
        guard result.changed else {
            throw CLIFailure(
                .refused,
                Output.l.tr(
                    "dose %s of %s was already answered: %s", result.dose.id ?? 0, what,
                    StatusName.dose(result.dose.state.rawValue, Output.l)))
        }
        switch result.dose.state {
        case .snoozed:
            Output.line(
                Output.l.tr("Snoozed %s until %s.", what, result.snoozedUntil.map(times.clock) ?? Output.l.tr("later")))
        default:
            let state = StatusName.dose(result.dose.state.rawValue, Output.l)
            if let recorded = result.dose.confirmedAt {
                Output.line(Output.l.tr("Recorded %s as %s at %s.", what, state, times.short(recorded)))
            } else {
                Output.line(Output.l.tr("Recorded %s as %s.", what, state))
            }
        }
        if let stock = result.medication.stock, result.dose.state == .taken {
            Output.line(Output.l.tr("%s left.", MedOutput.format(stock)))
        }
    }
}

struct HistoryCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "history",
            abstract: Output.l.tr("Doses taken, skipped, snoozed or missed and reminders shown, with adherence."))
    }
    @Option(help: ArgumentHelp(Output.l.tr("Start (default: 30 days before --to)."), valueName: "time")) var from:
        String?
    @Option(help: ArgumentHelp(Output.l.tr("End (default: now)."), valueName: "time")) var to: String?
    @Flag(help: ArgumentHelp(Output.l.tr("Print CSV (kind,id,title,detail,scheduled,state,confirmed)."))) var csv =
        false
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let now = Date()
        let params = HistoryParams(
            from: try from.map { try Input.time($0, option: "--from", now: now) },
            to: try to.map { try Input.time($0, option: "--to", now: now) })
        var client = global.client
        let result = try client.call(MedicationRPC.history, params)
        if output.json { return try Output.json(result) }
        if csv {
            return Output.csv(
                ["kind", "id", "title", "detail", "scheduled", "state", "confirmed"],
                result.entries.map { e in
                    [
                        e.kind.rawValue, String(e.id), e.title, e.detail ?? "", Output.iso(e.scheduledAt), e.state,
                        Output.iso(e.confirmedAt),
                    ]
                })
        }
        let times = Output.times
        if result.entries.isEmpty {
            Output.line(Output.l.tr("Nothing between %s and %s.", times.short(result.from), times.short(result.to)))
        }
        Output.table(
            [Output.l.tr("SCHEDULED"), Output.l.tr("STATE"), Output.l.tr("WHAT"), Output.l.tr("CONFIRMED")],
            result.entries.map { e in
                let reminder = e.kind == .reminder
                let title =
                    reminder && e.title == Appointment.deletedTitle ? Output.l.tr("(deleted appointment)") : e.title
                return [
                    times.short(e.scheduledAt),
                    reminder ? StatusName.reminder(e.state, Output.l) : StatusName.dose(e.state, Output.l),
                    title + (e.detail.map { " (\($0))" } ?? ""),
                    (e.confirmedAt.map(times.short) ?? "")
                        + (e.source == .phone ? " " + Output.l.tr("(on the phone)") : ""),
                ]
            })
        if !result.adherence.isEmpty {
            Output.line()
            Output.line(Output.l.tr("Adherence (taken / scheduled):"))
            for a in result.adherence {
                Output.line(
                    Output.l.tr(
                        "  %s: %s/%s last 7 days, %s/%s last 30 days", a.name, a.taken7, a.scheduled7, a.taken30,
                        a.scheduled30))
            }
        }
    }
}

struct NotificationsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "notifications",
            abstract: Output.l.tr(
                "Switch every notification off or on (off keeps recording doses as due; on resumes from now)."))
    }
    enum Switch: String, ExpressibleByArgument, CaseIterable { case on, off, status }
    @Argument(help: ArgumentHelp(Output.l.tr("on, off, or status."))) var state: Switch = .status
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        var client = global.client
        let enabled: Bool? = state == .status ? nil : state == .on
        let result = try client.call(MedicationRPC.notifications, NotificationsParams(enabled: enabled))
        if output.json { return try Output.json(result) }
        Output.line(result.enabled ? Output.l.tr("Notifications are on.") : Output.l.tr("Notifications are off."))
    }
}
