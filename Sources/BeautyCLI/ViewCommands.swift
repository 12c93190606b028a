import ArgumentParser
import BeautyCore
import BeautyLocalization
import BeautyProtocol
import Foundation

struct AgendaCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "agenda",
            abstract: Output.l.tr("What is coming up: the next 7 days from the start of today, by default."),
            discussion: Output.l.tr(
                """
                Examples:
                  beautyctl agenda --days 14
                  beautyctl agenda --from 2026-12-01 --to 2027-01-01 --category hair --json
                """))
    }

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(Output.l.tr("Days to show from the start of today."), valueName: "n")) var days: Int?
    @Option(help: ArgumentHelp(Output.l.tr("Start of the range (a time or a date)."), valueName: "time")) var from:
        String?
    @Option(help: ArgumentHelp(Output.l.tr("End of the range, exclusive."), valueName: "time")) var to: String?
    @Option(
        help: ArgumentHelp(
            Output.l.tr("Only this kind: appointment, medication or water; may repeat (any of them)."),
            valueName: "kind"))
    var kind: [String] = []
    @Option(
        help: ArgumentHelp(
            Output.l.tr("Only this category (a parent includes its sub-categories); may repeat (any of them)."),
            valueName: "name"))
    var category: [String] = []
    @Option(
        help: ArgumentHelp(
            Output.l.tr("Only entries whose title, notes or address contain this text; may repeat (any of them)."),
            valueName: "text"))
    var search: [String] = []
    @Option(
        help: ArgumentHelp(
            Output.l.tr(
                "Only this status (scheduled, done, cancelled; doses: pending, taken, skipped, missed...); may repeat."),
            valueName: "status"))
    var status: [String] = []
    @Option(parsing: .unconditional, help: ArgumentHelp(Output.l.tr("At most this many entries."), valueName: "n"))
    var limit: Int?
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(Output.l.tr("Skip this many entries first (paging)."), valueName: "n")) var offset: Int?
    @Flag(
        help: ArgumentHelp(
            Output.l.tr("Each dose on its own line with its id (by default a day's doses share one line).")))
    var doses = false
    @OptionGroup var order: SortOptions
    @OptionGroup var output: ListOutputOptions
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if let days, days <= 0 || days > 3660 {
            throw ValidationError(Output.l.tr("--days: must be between 1 and 3660"))
        }
        if days != nil, from != nil || to != nil {
            throw ValidationError(Output.l.tr("--days cannot be combined with --from/--to"))
        }
        if let limit, limit < 0 { throw ValidationError(Output.l.tr("--limit: must not be negative")) }
        if let offset, offset < 0 { throw ValidationError(Output.l.tr("--offset: must not be negative")) }
        let statuses = Appointment.Status.allCases.map(\.rawValue) + Dose.State.allCases.map(\.rawValue)
        if let bad = status.first(where: { TypedWord.code($0, among: statuses, word: StatusName.appointment) == nil }) {
            throw ValidationError(Output.l.tr("--status: '%s' is not one of %s", bad, statuses.joined(separator: ", ")))
        }
    }

    func run() throws {
        let now = Date()
        let today = LocalTime.calendar(.current).startOfDay(for: now)
        let start = try from.map { try Input.time($0, option: "--from", now: now) } ?? today
        let end =
            try to.map { try Input.time($0, option: "--to", now: now) }
            ?? LocalTime.calendar(.current).date(byAdding: .day, value: days ?? 7, to: start)!
        try Input.check("--to") {
            try Validation.range(from: start, to: end, .halfOpen, toField: "--to", fromName: "--from")
        }
        var params = AgendaParams(from: start, to: end)
        let kinds = try kind.map { kind in
            let codes = [ItemKind.appointment, .medication, .water].map(\.rawValue)
            guard
                let k = TypedWord.code(kind, among: codes, word: { ItemKind(rawValue: $0)!.word($1) }).flatMap(
                    ItemKind.init(rawValue:))
            else {
                throw CLIFailure(.usage, Output.l.tr("--kind: '%s' is not one of appointment, medication, water", kind))
            }
            return k
        }
        let categories = try category.compactMap { name in
            try Input.check("--category") {
                try Validation.category(CategoryTitle.code(typed: name), field: "--category")
            }
        }
        (params.kind, params.kinds) = WireList.oneOrList(kinds)
        (params.category, params.categories) = WireList.oneOrList(categories)
        (params.search, params.searches) = WireList.oneOrList(search)
        let statuses = Appointment.Status.allCases.map(\.rawValue) + Dose.State.allCases.map(\.rawValue)
        params.status =
            status.isEmpty
            ? nil
            : status.compactMap {
                TypedWord.code($0, among: statuses, word: StatusName.appointment).map(AgendaStatus.init)
            }
        params.limit = limit
        params.offset = offset
        (params.sort, params.reverse) = order.wire
        var client = global.client
        for (category, typed) in zip(categories, category) {
            try CategoriesCommand.requireKnown(category, typed: typed, client: &client)
        }
        // JSON is printed as the daemon wrote it: a full-range agenda is tens of megabytes.
        if output.json { return Output.json(wire: try client.resultJSON(ViewRPC.agenda, params)) }
        let result = try client.call(ViewRPC.agenda, params)
        // Where a capped answer stopped, and the same range's rest: --to is given too, so a default or
        // --days range does not move along with --from.
        let cut = result.nextFrom.map { next in
            (
                next,
                Output.l.tr(
                    "go on with %s",
                    "--from '\(WireJSON.formatInstant(next))' --to '\(WireJSON.formatInstant(result.to))'")
            )
        }
        if try output.printed(
            result,
            csv: ["kind", "id", "title", "start", "end", "all_day", "status", "category", "address", "contact"],
            {
                result.entries.map { e in
                    [
                        e.kind.rawValue, String(e.id), e.title, Output.iso(e.start), Output.iso(e.end),
                        String(e.allDay), e.status,
                        e.category ?? "", e.address ?? "", e.contactName ?? "",
                    ]
                }
            })
        {
            // CSV has no place for where a capped answer stopped (JSON has nextFrom): say it beside it.
            if output.csv, let (next, onward) = cut {
                Output.warn(
                    Output.l.tr("the list stops at %s (%s); %s", WireJSON.formatInstant(next), Self.cutReason, onward))
            }
            return
        }
        let times = Output.times
        let l = Output.l
        guard !result.entries.isEmpty else {
            // A cut answer goes on past its cut, so an offset beyond what it holds is not the end.
            if cut == nil, let offset, offset > 0, result.total > 0 {
                return Output.line(
                    l.trn(
                        "--offset %s is past the end: there is %s entry.",
                        "--offset %s is past the end: there are %s entries.",
                        result.total, offset, result.total))
            }
            guard let (next, onward) = cut else {
                return Output.line(l.tr("Nothing between %s and %s.", times.short(result.from), times.short(result.to)))
            }
            return Output.line(
                l.tr(
                    "Nothing between %s and %s (%s); %s.", times.short(result.from), times.short(next), Self.cutReason,
                    onward))
        }
        // Doses one line a day unless asked for (--doses, or --kind medication alone): a fortnight's
        // visits are not buried in its doses.
        let dosesInFull = self.doses || kinds == [.medication]
        let pricesShown = order.wire.sort == .key(.price)
        var lastDay = ""
        var dayDoses: [String] = []
        func flushDoses() {
            if !dayDoses.isEmpty { Output.line("  " + l.tr("Doses: %s", dayDoses.joined(separator: ", "))) }
            dayDoses = []
        }
        for entry in result.entries {
            let day = times.day(entry.start)
            if day != lastDay {
                flushDoses()
                if !lastDay.isEmpty { Output.line() }
                Output.line(day)
                lastDay = day
            }
            if entry.kind == .medication, !dosesInFull {
                dayDoses.append(Self.compactDose(entry, times))
                continue
            }
            if entry.kind == .medication {
                Output.line("  \(times.clock(entry.start))        \(NowCommand.label(entry))")
                continue
            }
            let allDay = l.tr("all day")
            let clock =
                entry.allDay
                ? allDay.padding(toLength: max(11, allDay.count), withPad: " ", startingAt: 0)
                : "\(times.clock(entry.start))–\(times.clock(entry.end))"
            var extras: [String] = []
            // Sorted by price, the prices are shown: the order would make no sense without them.
            if pricesShown { extras.append(entry.price?.formatted(l.language) ?? l.tr("no price")) }
            if PastVisit.isUnconfirmed(status: entry.status, end: entry.end, now: now) {
                extras.append(l.trc("status", "past, not marked done"))
            } else if entry.status != "scheduled" {
                extras.append(StatusName.appointment(entry.status, l))
            }
            if let c = entry.category {
                extras.append(l.language == .english ? c : CategoryTitle.title(name: c, stored: c, l))
            }
            if let place = entry.address ?? entry.contactName { extras.append(place) }
            let suffix = extras.isEmpty ? "" : "  (\(extras.joined(separator: ", ")))"
            Output.line("  \(clock)  #\(entry.id) \(entry.title)\(suffix)")
        }
        flushDoses()
        if let planned = result.entries.first(where: { $0.kind == .medication && $0.id == 0 }),
            let med = planned.medicationID
        {
            Output.line()
            Output.line(
                l.tr(
                    "Doses marked 'planned' get their id 48 hours ahead; to answer one before: %s",
                    "beautyctl dose taken|skip --med \(med) --due '\(times.typed(planned.start))'"))
        }
        let visits = result.entries.filter { $0.kind == .appointment }.count,
            doses = result.entries.filter { $0.kind == .medication }.count
        let counted = [
            visits > 0 ? l.trn("%s visit", "%s visits", visits) : nil,
            doses > 0 ? l.trn("%s dose", "%s doses", doses) : nil,
        ]
        .compactMap { $0 }
        if !counted.isEmpty {
            Output.line()
            Output.line(counted.joined(separator: ", ") + ".")
        }
        if doses > 0, !dosesInFull { Output.line(l.tr("Each dose on its own line, with its id: %s", "--doses")) }
        if result.total > result.entries.count {
            // Which page this is, and where the next one starts; the last page names no next.
            let first = (offset ?? 0) + 1, last = (offset ?? 0) + result.entries.count
            Output.line(
                last < result.total
                    ? l.tr("Showing %s–%s of %s; the next page: %s.", first, last, result.total, "--offset \(last)")
                    : l.tr("Showing %s–%s of %s (the last page).", first, last, result.total))
        }
        if let (next, onward) = cut {
            Output.line()
            Output.line(l.tr("Cut short: %s; shown up to %s, %s.", Self.cutReason, times.short(next), onward))
        }
    }

    /// "8:00 Vitamin D ✓", "20:00 Magnesium (skipped)": a dose in a day's one line.
    static func compactDose(_ entry: AgendaEntry, _ times: Timestamps) -> String {
        let state =
            entry.id == 0 || entry.status == "pending"
            ? "" : entry.status == "taken" ? " ✓" : " (\(StatusName.dose(entry.status, Output.l)))"
        return "\(times.clock(entry.start)) \(entry.title)\(state)"
    }

    static var cutReason: String {
        Output.l.tr("a series has more than %s occurrences in the range", AppointmentOccurrences.limit)
    }
}

struct NowCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "now", abstract: Output.l.tr("Still to come today, and what should already have been done."))
    }
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        var client = global.client
        let result = try client.call(ViewRPC.now)
        if output.json { return try Output.json(result) }
        let times = Output.times
        let l = Output.l
        Output.line(l.tr("Now: %s", times.long(result.now)))
        if !result.overdue.isEmpty {
            Output.line(l.tr("Should have been taken:"))
            let today = times.isoDay(result.now)
            result.overdue.forEach { entry in
                // Yesterday's doses stay here a day longer: they need their date.
                let when = times.isoDay(entry.start) == today ? times.clock(entry.start) : times.short(entry.start)
                Output.line("  \(when)  \(Self.label(entry))")
            }
            Output.line(l.tr("  (answer with: beautyctl dose taken|skip ID; taken earlier: dose taken ID --at HH:MM)"))
        }
        if result.laterToday.isEmpty {
            Output.line(l.tr("Nothing more today."))
        } else {
            Output.line(l.tr("Later today:"))
            result.laterToday.forEach { Output.line("  \(times.clock($0.start))  \(Self.label($0))") }
        }
        if let water = result.water { Output.line(l.tr("Water today: %s.", WaterOutput.progress(water))) }
    }
}

extension NowCommand {
    /// "dose 12  Vitamin D (1 capsule)" or "#3 Haircut".
    static func label(_ entry: AgendaEntry) -> String {
        switch entry.kind {
        case .medication:
            // id 0: planned from the schedule further ahead than the stored rows, answered by --med/--due.
            let l = Output.l
            let planned = entry.id == 0
            let state =
                planned
                ? " — " + l.tr("planned (med %s)", entry.medicationID ?? 0)
                : entry.status == "pending" ? "" : " — \(StatusName.dose(entry.status, l))"
            return l.tr("dose %s", planned ? "-" : String(entry.id))
                + "  \(entry.title)\(entry.address.map { " (\($0))" } ?? "")\(state)"
        case .appointment, .water, .tip:
            return "#\(entry.id) \(entry.title)"
        }
    }
}

struct StatusCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "status",
            abstract: Output.l.tr("Is the daemon running, what is next, can it reach the notification server."))
    }
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        var client = global.client
        let s = try client.call(ViewRPC.status)
        if output.json { return try Output.json(s) }
        let times = Output.times
        Output.line(
            Output.l.tr("beautyd %s, pid %s, up %s", s.version, s.pid, DurationParser.format(s.uptimeSeconds, Output.l))
        )
        Output.line(Output.l.tr("  database:      %s", s.database))
        Output.line(Output.l.tr("  socket:        %s", s.socket))
        Output.line(
            Output.l.tr(
                "  appointments:  %s   contacts: %s   medications: %s", s.counts.appointments, s.counts.contacts,
                s.counts.medications))
        Output.line(Output.l.tr("  reminders:     %s pending", s.counts.pendingDeliveries))
        if let next = s.nextTrigger {
            Output.line(
                Output.l.tr(
                    "  next:          %s %s (%s)", times.short(next.fireAt),
                    Self.itemTitle(next.itemKind, next.itemID, next.title),
                    Self.itemLabel(next.itemKind, next.itemID)))
        } else {
            Output.line(Output.l.tr("  next:          nothing scheduled"))
        }
        let server = s.notificationServer
        if server.reachable {
            let name = [server.name, server.version].compactMap { $0 }.joined(separator: " ")
            let problem = Self.shown(server.lastError, server.lastErrorText).map { " — \($0)" } ?? ""
            Output.line(
                Output.l.tr(
                    "  notifications: %s (%s)%s", name.isEmpty ? Output.l.trc("notification server", "server") : name,
                    server.capabilities.joined(separator: ", "), problem))
        } else {
            Output.line(
                Output.l.tr(
                    "  notifications: NO SERVER REACHABLE — %s",
                    Self.shown(server.lastError, server.lastErrorText) ?? Output.l.trc("notification server", "unknown")
                ))
        }
        if s.notificationsEnabled == false {
            Output.line(
                Output.l.tr(
                    "  switched off:  nothing is shown; doses are still recorded as due (beautyctl notifications on)"))
        }
        if s.counts.waitingDeliveries > 0 {
            if let reason = Self.shown(s.waitingFor, s.waitingForText) {
                Output.line(
                    Output.l.tr("  waiting:       %s due reminder(s) wait for %s", s.counts.waitingDeliveries, reason))
            } else {
                Output.line(
                    Output.l.tr(
                        "  waiting:       %s due reminder(s) are due and about to be shown", s.counts.waitingDeliveries)
                )
            }
        }
    }
}

extension StatusCommand {
    /// A detail of the daemon's in the user's language when it came as a template, else as it came (English).
    static func shown(_ english: String?, _ text: TranslatableText?) -> String? {
        text.map { Validation.quotable($0.rendered(Output.l)) } ?? english
    }

    /// A trigger's title in the reader's language: the daemon names water reminders and tips in English.
    static func itemTitle(_ kind: ItemKind?, _ id: Int64, _ title: String) -> String {
        switch kind {
        case .water: Output.l.tr("Drink water")
        case .tip: Tips.tip(id: Int(id)).map { TipText($0, Output.l).title } ?? title
        default: title
        }
    }

    /// "dose 65" for a medication trigger or event (its id is the dose's, what `dose taken` wants), else "appointment 3".
    static func itemLabel(_ kind: ItemKind?, _ id: Int64) -> String {
        let l = Output.l
        return switch kind {
        case .medication: l.tr("dose %s", id)
        case .appointment: l.tr("appointment %s", id)
        case .water: l.tr("water %s", id)
        case .tip: l.tr("tip %s", id)
        case nil: l.tr("item %s", id)
        }
    }
}

struct WatchCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "watch",
            abstract: Output.l.tr("Print daemon events (fired, snoozed, dismissed, missed) as they happen."))
    }
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let times = Output.times
        try global.client.watch { event, raw in
            if output.json { return Output.line(String(decoding: raw, as: UTF8.self)) }
            let title = event.title.map { title in
                event.itemID.map { StatusCommand.itemTitle(event.itemKind, $0, title) } ?? title
            }
            let what = [title, event.detail.map(Self.detail)].compactMap { $0 }.joined(separator: " — ")
            let item = event.itemID.map { " " + StatusCommand.itemLabel(event.itemKind, $0) } ?? ""
            Output.line(
                "\(times.short(event.at))  \(StatusName.reminder(event.type, Output.l))\(item)\(what.isEmpty ? "" : ": \(what)")"
            )
        }
        throw CLIFailure(.unreachable, Output.l.tr("beautyd closed the event stream (stopped?)"))
    }

    /// An event's detail in the reader's language: the daemon writes a snooze's end as an instant and
    /// its few notes in English.
    static func detail(_ text: String) -> String {
        // English shows the wire's words and instant as they are, as it always has.
        guard Output.l.language != .english else { return text }
        if let until = RFC3339.parse(text) { return Output.l.tr("until %s", Output.times.short(until)) }
        return switch text {
        case "item deleted": Output.l.tr("item deleted")
        case "missed while away": Output.l.tr("missed while away")
        case "shown when the notification server answered late":
            Output.l.tr("shown when the notification server answered late")
        default: text
        }
    }
}
