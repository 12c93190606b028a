import ArgumentParser
import BeautyCore
import BeautyLocalization
import BeautyProtocol
import Foundation

struct AppointmentCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "appointment",
            abstract: Output.l.tr("Add, list, change and complete appointments (hairdresser, manicure, facial...)."),
            subcommands: [Add.self, List.self, Show.self, Edit.self, Split.self, Remove.self, Done.self, Cancel.self],
            aliases: ["appt"])
    }
}

/// The fields `add` and `edit` share.
struct AppointmentFields: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            Output.l.tr(
                "Start: '2026-12-01 14:00', '25.11.2026 14.30', '14:00', 'tomorrow 9:30', 'jutro 10:00', 'fri 10:00', 'pt 15:00', 'in 2h', or ISO 8601 with an offset; a day alone only with --all-day."
            ), valueName: "time"))
    var at: String?

    @Option(
        help: ArgumentHelp(
            Output.l.tr("How long it lasts, e.g. 45m, 1h30m (default 60m; all-day: 1d)."), valueName: "duration"))
    var duration: String?

    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(Output.l.tr("A whole-day appointment (the time of --at is ignored).")))
    var allDay: Bool?

    @Option(help: ArgumentHelp(Output.l.tr("Where it is."), valueName: "text"))
    var address: String?

    @Option(
        help: ArgumentHelp(
            Output.l.tr("Free text notes; the first three lines are shown in the reminder."), valueName: "text"))
    var notes: String?

    @Option(
        help: ArgumentHelp(
            Output.l.tr(
                "The salon contact: its id, phone number or name (a unique part will do; see 'beautyctl contact list')."
            ), valueName: "contact"))
    var contact: String?

    @Option(
        help: ArgumentHelp(
            Output.l.tr("Category such as hair, nails, face, body (a/b for a sub-category)."), valueName: "name"))
    var category: String?

    @Option(
        help: ArgumentHelp(
            Output.l.tr(
                "Colour in calendar views: %s or #rrggbb.",
                TerminalColor.allCases.map { $0.title(Output.l) }.joined(separator: ", ")), valueName: "name"))
    var color: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            Output.l.tr(
                "Price, e.g. 45.00, 45,50, '1 234,50 zł', '120 PLN', '10 €' (default currency from the config; not negative)."
            ), valueName: "amount"))
    var price: String?

    @Option(
        help: ArgumentHelp(
            Output.l.tr("Remind this long before the start; repeat for several (e.g. --remind 1d --remind 2h)."),
            valueName: "duration"))
    var remind: [String] = []

    @Option(help: ArgumentHelp(Output.l.tr("Remind at this exact time; may repeat."), valueName: "time"))
    var remindAt: [String] = []

    @Option(
        help: ArgumentHelp(
            Output.l.tr(
                "Pin to a time zone (IANA name, e.g. Europe/Warsaw): --at and the series are that zone's wall clock. A new timed appointment is pinned to the zone you are in."
            ), valueName: "zone"))
    var tz: String?

    @Option(
        help: ArgumentHelp(
            Output.l.tr("Repeat by an RFC 5545 rule, e.g. 'FREQ=WEEKLY;INTERVAL=6' or 'FREQ=MONTHLY;BYDAY=-1FR'."),
            valueName: "rrule"))
    var `repeat`: String?

    @Option(
        help: ArgumentHelp(
            Output.l.tr("Skip this occurrence of the series (its start time); may repeat."), valueName: "time"))
    var except: [String] = []

    @Option(
        help: ArgumentHelp(
            Output.l.tr(
                "Repeat every so often (whole days or weeks, e.g. 6w); with --after-done, counted from the day it is marked done."
            ), valueName: "duration"))
    var every: String?

    @Flag(
        help: ArgumentHelp(
            Output.l.tr("With --every: the next visit is scheduled when this one is marked done (haircuts, manicures).")
        ))
    var afterDone = false

    var zone: TimeZone {
        get throws {
            guard let tz else { return .current }
            return try TimeZone(identifier: Input.check("--tz") { try Validation.timeZone(tz, field: "--tz")! })!
        }
    }

    /// The start as typed, and its wall time when that is in a DST gap; the daemon moves an all-day
    /// one to its day's midnight. `dayNeedsTime`: a day without a time (`--at pt`) is refused rather
    /// than read as its midnight.
    func start(now: Date, dayNeedsTime: Bool) throws -> (instant: Date, skippedWall: String?)? {
        let zone = try zone
        return try at.map { text in
            try Input.check("--at") {
                try TimeExpression.parseGiven(
                    text, now: now, zone: zone, field: "--at", language: Input.language,
                    dayAlone: dayNeedsTime ? .refused : .midnight)
            }
        }
    }

    /// The series and the cycle as typed: --repeat, --every (a series, or with --after-done a cycle) and
    /// --except. The daemon makes them one; checking the same rules here first makes a typo exit 2.
    func repetition(now: Date) throws -> (
        recurrence: AppointmentRecurrence?, everySeconds: Int?, afterDone: Int?, exdates: [Date]?
    ) {
        if afterDone, every == nil {
            throw CLIFailure(.usage, Output.l.tr("--after-done goes with --every (e.g. --every 6w --after-done)"))
        }
        let recurrence = try `repeat`.map { rule in
            _ = try Input.check("--repeat") { try RecurrenceRule.parse(rule) }
            return AppointmentRecurrence(rule: rule)
        }
        let seconds = try every.map { try Input.duration($0, option: "--every") }
        let exdates = try except.map { try Input.time($0, option: "--except", now: now, zone: try zone) }
        let series = AppointmentDraft.Series(
            recurrence: recurrence, everySeconds: afterDone ? nil : seconds,
            repeatAfterDoneSeconds: afterDone ? seconds : nil,
            exdates: exdates, fields: .init(rule: "--repeat", every: "--every", cycle: "--every", exdates: "--except"))
        _ = try Input.check("") { try series.resolved() }
        return (recurrence, series.everySeconds, series.repeatAfterDoneSeconds, exdates.isEmpty ? nil : exdates)
    }

    func durationSeconds() throws -> Int? {
        try duration.map { duration in
            try Input.check("--duration") {
                try Validation.duration(try DurationParser.seconds(duration, field: "--duration"), field: "--duration")
            }
        }
    }

    func priceParam() throws -> PriceParam? {
        guard let price else { return nil }
        if price.trimmingCharacters(in: .whitespaces).hasPrefix("-") {
            throw CLIFailure(
                .usage,
                Output.l.tr(
                    "--price: '%s' is negative; a price is what the visit costs, 0 or more (a refund is an income: %s)",
                    price, Output.l.tr("beautyctl budget add Refund 20 --income")))
        }
        let money = try Input.money(price, option: "--price")
        return PriceParam(cents: money.cents, currency: money.currency.isEmpty ? nil : money.currency)
    }

    /// nil when neither --remind nor --remind-at was given.
    func reminders(now: Date) throws -> [Reminder]? {
        if remind.isEmpty, remindAt.isEmpty { return nil }
        let leads = try remind.map { Reminder.before(try Input.duration($0, option: "--remind")) }
        let absolute = try remindAt.map { Reminder.at(try Input.time($0, option: "--remind-at", now: now)) }
        return leads + absolute
    }

    func checkText() throws {
        _ = try Input.check("--address") { try Validation.optionalText(address, field: "--address") }
        _ = try Input.check("--notes") { try Validation.optionalText(notes, field: "--notes", multiline: true) }
        _ = try Input.check("--category") { try Validation.category(category, field: "--category") }
        _ = try Input.check("--color") { try Validation.color(colorCode, field: "--color") }
    }

    /// `--color` typed in any language ("różowy", "ružová") as its code ("pink").
    var colorCode: String? { color.map(TerminalColor.code(typed:)) }
}

extension AppointmentCommand {
    struct Add: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr("Add an appointment."),
                discussion: Output.l.tr(
                    """
                    Examples:
                      beautyctl appointment add Haircut --at 'fri 15:00' --duration 45m --remind 1d --remind 2h
                      beautyctl appointment add 'Manicure hybrydowy' --at '2026-12-01 14:00' --contact 'Salon Anna' --price 120,00 --category nails
                      beautyctl appointment add 'Spa day' --at 2026-12-24 --all-day --remind-at '2026-12-23 18:00'
                    """))
        }

        @Argument(help: ArgumentHelp(Output.l.tr("What it is, e.g. Haircut."))) var title: String
        @OptionGroup var fields: AppointmentFields
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let now = Date()
            guard let start = try fields.start(now: now, dayNeedsTime: fields.allDay != true) else {
                throw CLIFailure(
                    .usage, Output.l.tr("--at is required: when does it start? (e.g. --at 'tomorrow 9:30')"))
            }
            var params = AppointmentAddParams(title: try Input.name(title, option: "title"), start: start.instant)
            params.startWall = start.skippedWall
            try fields.checkText()
            params.durationSeconds = try fields.durationSeconds()
            params.allDay = fields.allDay
            params.address = fields.address
            params.notes = fields.notes
            params.category = fields.category.map(CategoryTitle.code(typed:))
            params.color = fields.colorCode
            params.price = try fields.priceParam()
            params.reminders = try fields.reminders(now: now)
            // As calendar programs do: booked in Warsaw, it stays at that hour in Warsaw wherever the
            // laptop goes, and servers index it by that zone. All-day visits stay floating (a date).
            params.timeZone =
                fields.tz ?? (fields.allDay == true ? nil : try? Validation.timeZone(TimeZone.current.identifier))
            (params.recurrence, params.everySeconds, params.repeatAfterDoneSeconds, params.exdates) =
                try fields.repetition(now: now)
            params.contact = fields.contact
            params.requireKnownCategory = params.category.map { _ in true }
            var client = global.client
            let detail = try fields.call(params.category, client: &client) { client, addedContactID in
                var params = params
                if let addedContactID { (params.contactID, params.contact) = (addedContactID, nil) }
                return try client.call(AppointmentRPC.add, params)
            }
            if output.json { return try Output.json(detail) }
            Output.line(Output.l.tr("Added appointment %s.", detail.appointment.id ?? 0))
            Output.describe(detail)
            Output.warnings(detail)
        }
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(abstract: Output.l.tr("List appointments by start time."))
        }

        @Option(help: ArgumentHelp(Output.l.tr("Only those starting at or after this time."), valueName: "time"))
        var from: String?
        @Option(help: ArgumentHelp(Output.l.tr("Only those starting before this time."), valueName: "time")) var to:
            String?
        @Option(
            help: ArgumentHelp(
                Output.l.tr("Only this status: scheduled, done or cancelled; may repeat."), valueName: "status"))
        var status: [String] = []
        @OptionGroup var order: SortOptions
        @OptionGroup var output: ListOutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let statuses = try status.map { raw in
                let codes = Appointment.Status.allCases.map(\.rawValue)
                guard
                    let s = TypedWord.code(raw, among: codes, word: StatusName.appointment).flatMap(
                        Appointment.Status.init(rawValue:))
                else {
                    throw CLIFailure(
                        .usage, Output.l.tr("--status: '%s' is not one of scheduled, done, cancelled", raw))
                }
                return s
            }
            var params = AppointmentListParams(
                from: try from.map { try Input.time($0, option: "--from") },
                to: try to.map { try Input.time($0, option: "--to") },
                status: statuses.isEmpty ? nil : statuses)
            (params.sort, params.reverse) = order.wire
            var client = global.client
            let list = try client.call(AppointmentRPC.list, params)
            if try output.printed(
                list,
                csv: [
                    "id", "title", "start", "end", "all_day", "status", "category", "color", "contact_id",
                    "price", "currency", "address", "notes",
                ],
                {
                    list.map { a in
                        [
                            String(a.id ?? 0), a.title, Output.iso(a.start), Output.iso(a.end), String(a.allDay),
                            a.status.rawValue,
                            a.category ?? "", a.color ?? "", a.contactID.map(String.init) ?? "",
                            a.price.map { BudgetInput.csv($0.cents) } ?? "",
                            a.price?.currency ?? "", a.address ?? "", a.notes ?? "",
                        ]
                    }
                })
            {
                return
            }
            if list.isEmpty { return Output.line(Output.l.tr("No appointments.")) }
            // Sorted by price, the prices are shown.
            let prices = order.wire.sort == .key(.price)
            Output.table(
                [Output.l.tr("ID"), Output.l.tr("WHEN"), Output.l.tr("STATUS")] + (prices ? [Output.l.tr("PRICE")] : [])
                    + [Output.l.tr("TITLE")],
                list.map { a in
                    [String(a.id ?? 0), Output.when(a), StatusName.appointment(a, Output.l)]
                        + (prices ? [a.price?.formatted(Output.l.language) ?? "—"] : []) + [a.title]
                })
        }
    }

    struct Show: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(abstract: Output.l.tr("Show one appointment with its reminders and their state."))
        }
        @Argument(help: ArgumentHelp(Output.l.tr("Appointment id."))) var id: Int64
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            var client = global.client
            let detail = try client.call(AppointmentRPC.show, IDParams(id: id))
            if output.json { return try Output.json(detail) }
            Output.describe(detail)
        }
    }

    struct Edit: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr("Change an appointment; options not given stay as they are."),
                discussion: Output.l.tr(
                    """
                    --remind/--remind-at replace the whole reminder list. Reminders already shown are never shown
                    again unless their time changes.
                    On a series, the changes apply to every occurrence; with --occurrence (the start that \
                    occurrence has in the series) only to that one, which then gets its own id (shown by \
                    'appointment show SERIES'). To change the series from one occurrence on, see 'appointment split'.
                    Examples:
                      beautyctl appointment edit 3 --at 'fri 16:00'
                      beautyctl appointment edit 3 --clear address --clear price
                      beautyctl appointment edit 12 --occurrence '2026-12-04 15:00' --at '2026-12-04 16:00'
                    """))
        }

        @Argument(help: ArgumentHelp(Output.l.tr("Appointment id."))) var id: Int64
        @OptionGroup var changes: AppointmentChanges
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            var client = global.client
            let params = try changes.params(id: id)
            let fields = changes.fields
            if params.occurrence != nil,
                fields.repeat != nil || fields.every != nil || !fields.except.isEmpty
                    || params.clear?.contains(where: { $0 == .recurrence || $0 == .cycle }) == true
            {
                throw CLIFailure(
                    .usage,
                    Output.l.tr(
                        "--occurrence: one occurrence does not repeat; to change the rule from this occurrence on, use '%s'",
                        "beautyctl appointment split \(id) --occurrence ... --repeat ..."))
            }
            let detail = try fields.call(params.category, client: &client) { client, addedContactID in
                try client.call(AppointmentRPC.edit, changes.sent(params, addedContactID: addedContactID))
            }
            if output.json { return try Output.json(detail) }
            if let original = params.occurrence {
                Output.line(
                    Output.l.tr(
                        "Updated the %s occurrence of series %s: now appointment %s.", Output.times.short(original), id,
                        detail.appointment.id ?? 0))
            } else {
                Output.line(Output.l.tr("Updated appointment %s.", id))
            }
            Output.describe(detail)
            Output.warnings(detail)
        }
    }

    struct Remove: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                commandName: "rm",
                abstract: Output.l.tr(
                    "Delete an appointment, or one occurrence of a series (asks first on a terminal)."),
                discussion: Output.l.tr(
                    """
                    Deleting a series deletes its changed occurrences too. Deleting a changed occurrence (its own id), \
                    or a series with --occurrence, takes that one occurrence out of the series for good (an EXDATE); \
                    the rest of the series stays.
                    Examples:
                      beautyctl appointment rm 3 --yes
                      beautyctl appointment rm 12 --occurrence '2026-12-11 15:00' --yes
                    """))
        }
        @Argument(help: ArgumentHelp(Output.l.tr("Appointment id."))) var id: Int64
        @OptionGroup var occurrence: OccurrenceOption
        @Flag(name: [.short, .long], help: ArgumentHelp(Output.l.tr("Do not ask for confirmation."))) var yes = false
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            var client = global.client
            let params = AppointmentOccurrenceParams(id: id, occurrence: try occurrence.instant(now: Date()))
            if !yes {
                let detail = try client.call(AppointmentRPC.show, IDParams(id: id))
                let question =
                    params.occurrence.map {
                        Output.l.tr(
                            "Delete the %s occurrence of series %s '%s'?", Output.times.short($0), id,
                            detail.appointment.title)
                    }
                    ?? Output.l.tr(
                        "Delete appointment %s '%s' (%s)?", id, detail.appointment.title,
                        Output.when(detail.appointment))
                guard try Input.confirm(question, yes: false) else {
                    return Output.line(Output.l.tr("Kept appointment %s.", id))
                }
            }
            let gone = try client.call(AppointmentRPC.remove, params)
            if output.json { return try Output.json(gone) }
            if let original = params.occurrence {
                Output.line(
                    Output.l.tr(
                        "Deleted the %s occurrence of series %s: %s.", Output.times.short(original), id,
                        gone.appointment.title))
            } else {
                Output.line(Output.l.tr("Deleted appointment %s: %s.", id, gone.appointment.title))
            }
        }
    }

    struct Done: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr(
                    "Mark an appointment, or one occurrence of a series, done (its remaining reminders are dropped)."),
                discussion: Output.l.tr(
                    """
                    Examples:
                      beautyctl appointment done 3
                      beautyctl appointment done 12 --occurrence '2026-12-04 15:00'
                    """))
        }
        @OptionGroup var marking: AppointmentMarking

        func run() throws {
            guard let detail = try marking.send(AppointmentRPC.done) else { return }
            Output.line(
                Output.l.tr(
                    "Appointment %s '%s' is done.", detail.appointment.id ?? marking.id, detail.appointment.title))
            if let next = detail.followUp {
                Output.line(
                    Output.l.tr("Next visit of the cycle: appointment %s, %s.", next.id ?? 0, Output.when(next)))
            }
        }
    }

    struct Cancel: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr(
                    "Cancel an appointment, or one occurrence of a series (kept in the list and agenda, no more reminders)."
                ),
                discussion: Output.l.tr(
                    """
                    Examples:
                      beautyctl appointment cancel 3
                      beautyctl appointment cancel 12 --occurrence '2026-12-11 15:00'
                    """))
        }
        @OptionGroup var marking: AppointmentMarking

        func run() throws {
            guard let detail = try marking.send(AppointmentRPC.cancel) else { return }
            Output.line(
                Output.l.tr(
                    "Appointment %s '%s' is cancelled.", detail.appointment.id ?? marking.id, detail.appointment.title))
        }
    }
}

extension AppointmentFields {
    /// Sends the request `send` makes with `--contact` and `--category` as typed (see `AppointmentReferenceInput`).
    func call<R>(
        _ category: String?, client: inout any RPCCalling,
        _ send: (inout any RPCCalling, _ addedContactID: Int64?) throws -> R
    ) throws -> R {
        try AppointmentReferenceInput.call(
            contact: contact, category: category, typedCategory: self.category, client: &client, send)
    }
}

/// What `appointment done` and `cancel` share: the appointment, or one occurrence of its series, and
/// `--json` and `--socket`.
struct AppointmentMarking: ParsableArguments {
    @Argument(help: ArgumentHelp(Output.l.tr("Appointment id."))) var id: Int64
    @OptionGroup var occurrence: OccurrenceOption
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    /// Sends `rpc` for the appointment; the answer to print as text, nil once printed as JSON.
    func send(_ rpc: RPC<AppointmentOccurrenceParams, AppointmentDetail>) throws -> AppointmentDetail? {
        var client = global.client
        let detail = try client.call(
            rpc, AppointmentOccurrenceParams(id: id, occurrence: try occurrence.instant(now: Date())))
        if output.json {
            try Output.json(detail)
            return nil
        }
        return detail
    }
}

/// What `edit` and `split` change: the options of `add`, a new title, fields to empty, and the occurrence.
struct AppointmentChanges: ParsableArguments {
    @OptionGroup var occurrence: OccurrenceOption
    @Option(help: ArgumentHelp(Output.l.tr("New title."), valueName: "text")) var title: String?
    @OptionGroup var fields: AppointmentFields
    @Option(
        help: ArgumentHelp(
            Output.l.tr(
                "Empty a field: %s; may repeat.",
                AppointmentEditParams.Clearable.allCases.map(\.rawValue).joined(separator: ", ")), valueName: "field"))
    var clear: [String] = []

    /// The changes typed, as `appointment.edit` and `appointment.split` take them.
    func params(id: Int64) throws -> AppointmentEditParams {
        let now = Date()
        var params = AppointmentEditParams(id: id, occurrence: try occurrence.instant(now: now, zone: try fields.zone))
        params.title = try title.map { try Input.name($0, option: "--title") }
        try fields.checkText()
        let start = try fields.start(now: now, dayNeedsTime: fields.allDay == false)
        (params.start, params.startWall) = (start?.instant, start?.skippedWall)
        params.durationSeconds = try fields.durationSeconds()
        params.allDay = fields.allDay
        params.address = fields.address
        params.notes = fields.notes
        params.category = fields.category.map(CategoryTitle.code(typed:))
        params.color = fields.colorCode
        params.price = try fields.priceParam()
        params.reminders = try fields.reminders(now: now)
        params.timeZone = fields.tz
        (params.recurrence, params.everySeconds, params.repeatAfterDoneSeconds, params.exdates) = try fields.repetition(
            now: now)
        params.clear = try clear.map { raw in
            let codes = AppointmentEditParams.Clearable.allCases.map(\.rawValue)
            guard
                let field = TypedWord.code(raw, among: codes, word: FieldName.appointment).flatMap(
                    AppointmentEditParams.Clearable.init(rawValue:))
            else {
                let names = AppointmentEditParams.Clearable.allCases.map(\.rawValue).joined(separator: ", ")
                throw CLIFailure(.usage, Output.l.tr("--clear: '%s' is not one of %s", raw, names))
            }
            return field
        }
        params.contact = fields.contact
        params.requireKnownCategory = params.category.map { _ in true }
        return params
    }

    /// `params` as sent: naming by its id the contact just added on the terminal, if any.
    func sent(_ params: AppointmentEditParams, addedContactID: Int64?) -> AppointmentEditParams {
        var params = params
        if let addedContactID { (params.contactID, params.contact) = (addedContactID, nil) }
        return params
    }
}
