import ArgumentParser
import BeautyCore
import BeautyLocalization
import BeautyProtocol
import Foundation

struct BudgetCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "budget",
            abstract: Output.l.tr("Income and expenses, and the balance per currency (it may go negative)."),
            discussion: Output.l.tr(
                """
                Amounts are kept exactly, in cents, with a currency (default: money.currency of the daemon's config).
                Marking a priced appointment done records its price as an expense, once.
                """),
            subcommands: [Add.self, List.self, Edit.self, Remove.self, Balance.self])
    }
}

/// `--from`/`--to` of `budget list` and `budget balance`: `from <= at < to`, either may be left out.
struct BudgetRangeOptions: ParsableArguments {
    @Option(help: ArgumentHelp(Output.l.tr("Only from this time on."), valueName: "time")) var from: String?
    @Option(help: ArgumentHelp(Output.l.tr("Only before this time."), valueName: "time")) var to: String?

    func params() throws -> BudgetRangeParams {
        let params = BudgetRangeParams(
            from: try from.map { try Input.time($0, option: "--from") },
            to: try to.map { try Input.time($0, option: "--to") })
        try Input.check("--to") {
            try Validation.range(from: params.from, to: params.to, .halfOpen, toField: "--to", fromName: "--from")
        }
        return params
    }
}

enum BudgetInput {
    /// AMOUNT as typed ("45", "45,50", "120 PLN", "-45") with --currency: the size, its currency ("" = the
    /// daemon's default) and whether it was typed negative.
    static func amount(_ text: String, option: String, currency: String?) throws -> (param: PriceParam, negative: Bool)
    {
        let money = try Input.check(option) {
            try MoneyParser.parse(
                text, defaultCurrency: "", allowNegative: true, field: option, language: Output.l.language)
        }
        var code = money.currency
        if let currency {
            let given = try Input.check("--currency") {
                try Validation.money(Money(cents: 0, currency: currency), field: "--currency")!.currency
            }
            if !code.isEmpty, code != given {
                throw CLIFailure(.usage, Output.l.tr("%s says %s but --currency says %s", option, code, given))
            }
            code = given
        }
        let size = try Input.check(option) {
            try BudgetRules.amount(cents: abs(money.cents), currency: code.isEmpty ? "EUR" : code).cents
        }
        return (PriceParam(cents: size, currency: code.isEmpty ? nil : code), money.cents < 0)
    }

    /// "between 2030-01-01 00:00 and 2030-02-01 00:00", "since …", "before …", or "" for all time.
    static func describe(_ range: BudgetRangeParams) -> String {
        let times = Output.times
        switch (range.from, range.to) {
        case let (from?, to?): return Output.l.tr(" between %s and %s", times.short(from), times.short(to))
        case let (from?, nil): return Output.l.tr(" since %s", times.short(from))
        case let (nil, to?): return Output.l.tr(" before %s", times.short(to))
        case (nil, nil): return ""
        }
    }

    /// "+1200.00 EUR" / "-45.00 EUR".
    static func signed(_ money: Money) -> String {
        (money.cents > 0 ? "+" : "") + money.formatted(Output.l.language)
    }

    /// "1200.00", "1 200,00" (no currency).
    static func plain(_ cents: Int64) -> String {
        LocaleFormat(Output.l.language).money(cents: cents, currency: "").trimmingCharacters(in: .whitespaces)
    }

    /// An amount in CSV: "4500.00" in every language, as a script or spreadsheet reads it.
    static func csv(_ cents: Int64) -> String {
        LocaleFormat(.english).money(cents: cents, currency: "").trimmingCharacters(in: .whitespaces)
    }

    static func describe(_ entry: BudgetEntry) -> String {
        let link = entry.appointmentID.map { Output.l.tr(" (appointment %s)", $0) } ?? ""
        let l = Output.l
        return (entry.isIncome ? l.tr("income %s", entry.id) : l.tr("expense %s", entry.id))
            + ": \(entry.name), \(signed(entry.amount)), \(Output.times.long(entry.at))\(link)"
    }
}

extension BudgetCommand {
    struct Add: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr("Record an expense (default) or an income (--income)."),
                usage: "beautyctl budget add <name> <amount> [--income] [--at <time>] [--currency <code>] [--json]",
                discussion: Output.l.tr(
                    """
                    A negative amount is an expense too (-20 is the same as 20); an income cannot be negative.
                    Examples:
                      beautyctl budget add 'Shampoo' 12,99
                      beautyctl budget add Zwrot -20
                      beautyctl budget add Salary 3200 --income --at 2026-12-01
                      beautyctl budget add 'Nail polish' '35 PLN'
                    """))
        }

        @Argument(help: ArgumentHelp(Output.l.tr("What it was."))) var name: String
        @Argument(
            parsing: .allUnrecognized,
            help: ArgumentHelp(
                Output.l.tr(
                    "How much: 45, 45.50, 45,50, -20, '120 PLN', '10 zł', '10,50 €' (a negative amount is an expense too)."
                ), valueName: "amount"))
        var amount: [String] = []
        @Flag(help: ArgumentHelp(Output.l.tr("It is an income (default: an expense)."))) var income = false
        @Option(help: ArgumentHelp(Output.l.tr("When (default now)."), valueName: "time")) var at: String?
        @Option(
            help: ArgumentHelp(
                Output.l.tr("Currency code such as EUR or PLN (default from the daemon's config)."), valueName: "code"))
        var currency: String?
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let name = try Input.name(name, option: "name")
            let amount = try Input.single(amount, what: .amount, example: Output.l.tr("budget add Shampoo 12,99"))
            let (size, negative) = try BudgetInput.amount(amount, option: "amount", currency: currency)
            if negative, income {
                throw CLIFailure(
                    .usage, Output.l.tr("amount: an income cannot be negative ('%s' with --income)", amount))
            }
            let params = BudgetAddParams(
                name: name, amount: size, income: income, at: try at.map { try Input.time($0, option: "--at") })
            var client = global.client
            let entry = try client.call(BudgetRPC.add, params)
            if output.json { return try Output.json(entry) }
            Output.line(Output.l.tr("Added %s.", BudgetInput.describe(entry)))
        }
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(abstract: Output.l.tr("List income and expenses, oldest first."))
        }
        @OptionGroup var range: BudgetRangeOptions
        @OptionGroup var order: SortOptions
        @OptionGroup var output: ListOutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            var range = try self.range.params()
            (range.sort, range.reverse) = order.wire
            var client = global.client
            let list = try client.call(BudgetRPC.list, range)
            if try output.printed(
                list, csv: ["id", "at", "kind", "amount", "currency", "name", "appointment_id"],
                {
                    list.map { e in
                        [
                            String(e.id), Output.iso(e.at), e.isIncome ? "income" : "expense",
                            BudgetInput.csv(e.amount.cents), e.amount.currency,
                            e.name, e.appointmentID.map(String.init) ?? "",
                        ]
                    }
                })
            {
                return
            }
            if list.isEmpty { return Output.line(Output.l.tr("No budget entries%s.", BudgetInput.describe(range))) }
            Output.table(
                [Output.l.tr("ID"), Output.l.tr("WHEN"), Output.l.tr("AMOUNT"), Output.l.tr("NAME")],
                list.map { e in
                    [
                        String(e.id), Output.times.short(e.at), BudgetInput.signed(e.amount),
                        e.name + (e.appointmentID.map { Output.l.tr(" (appointment %s)", $0) } ?? ""),
                    ]
                })
        }
    }

    struct Edit: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr("Change an income or expense; options not given stay as they are."),
                discussion: Output.l.tr(
                    """
                    A new --amount keeps the entry an income or an expense unless --income or --expense is given.
                    Examples:
                      beautyctl budget edit 4 --amount 14,50
                      beautyctl budget edit 4 --income
                    """))
        }
        @Argument(help: ArgumentHelp(Output.l.tr("Budget entry id."))) var id: Int64
        @Option(help: ArgumentHelp(Output.l.tr("New name."), valueName: "text")) var name: String?
        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                Output.l.tr("New amount (45.50, -20, '120 PLN', '10 zł'); a negative one makes it an expense."),
                valueName: "amount"))
        var amount: String?
        @Flag(help: ArgumentHelp(Output.l.tr("Make it an income."))) var income = false
        @Flag(help: ArgumentHelp(Output.l.tr("Make it an expense."))) var expense = false
        @Option(help: ArgumentHelp(Output.l.tr("New time."), valueName: "time")) var at: String?
        @Option(help: ArgumentHelp(Output.l.tr("New currency code."), valueName: "code")) var currency: String?
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            if income, expense { throw CLIFailure(.usage, Output.l.tr("--income and --expense: choose one")) }
            var params = BudgetEditParams(id: id)
            params.name = try name.map { try Input.name($0, option: "--name") }
            if let amount {
                let (size, negative) = try BudgetInput.amount(amount, option: "--amount", currency: currency)
                if negative, income { throw CLIFailure(.usage, Output.l.tr("--amount: an income cannot be negative")) }
                params.amount = size
                if negative { params.income = false }
            } else if let currency {
                throw CLIFailure(
                    .usage, Output.l.tr("--currency goes with --amount (e.g. --amount '45 %s')", currency.uppercased()))
            }
            if income { params.income = true }
            if expense { params.income = false }
            params.at = try at.map { try Input.time($0, option: "--at") }
            var client = global.client
            let entry = try client.call(BudgetRPC.edit, params)
            if output.json { return try Output.json(entry) }
            Output.line(Output.l.tr("Updated %s.", BudgetInput.describe(entry)))
        }
    }

    struct Remove: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                commandName: "rm", abstract: Output.l.tr("Delete an income or expense (asks first on a terminal)."))
        }
        @Argument(help: ArgumentHelp(Output.l.tr("Budget entry id."))) var id: Int64
        @OptionGroup var removal: RemovalOptions

        func run() throws {
            let removed = try removal.remove(Output.l.tr("budget entry"), id: id, BudgetRPC.remove) { client in
                Output.l.tr("Delete %s?", BudgetInput.describe(try client.call(BudgetRPC.show, IDParams(id: id))))
            }
            guard let gone = removed else { return }
            Output.line(Output.l.tr("Deleted %s.", BudgetInput.describe(gone)))
        }
    }

    struct Balance: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr(
                    "Income, expenses and the balance per currency (all time, or --from/--to), with a bar chart."),
                discussion: Output.l.tr(
                    """
                    Below the table, income and expenses are drawn as bars, each currency on its own scale. --svg writes \
                    the same chart to a file for a browser instead.
                    Examples:
                      beautyctl budget balance
                      beautyctl budget balance --from 2026-11-01 --to 2026-12-01 --svg budget.svg
                    """))
        }
        @OptionGroup var range: BudgetRangeOptions
        @Option(
            help: ArgumentHelp(
                Output.l.tr("Write the chart as an SVG file instead of drawing it in the terminal."), valueName: "file")
        )
        var svg: String?
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let range = try self.range.params()
            var client = global.client
            let balance = try client.call(BudgetRPC.balance, range)
            if output.json { return try Output.json(balance) }
            let l = Output.l
            if balance.totals.isEmpty {
                return Output.line(
                    l.tr("No budget entries%s", BudgetInput.describe(range))
                        + (svg == nil ? "." : l.tr(": no chart written.")))
            }
            let title =
                range.from == nil && range.to == nil
                ? l.tr("Balance, all time") : l.tr("Balance%s", BudgetInput.describe(range))
            let rows = balance.totals.map {
                BudgetChart.Row(currency: $0.currency, incomeCents: $0.incomeCents, expenseCents: $0.expenseCents)
            }
            if let svg {
                try Output.write(BudgetChart.svg(rows, title: title, localizer: l), to: svg, option: "--svg")
                return Output.line(
                    l.tr(
                        "Wrote %s: %s, %s.", svg, title.prefix(1).lowercased() + title.dropFirst(),
                        l.trn("%s currency", "%s currencies", rows.count)))
            }
            Output.line(title + ":")
            Output.table(
                [l.tr("CURRENCY"), l.tr("INCOME"), l.tr("EXPENSES"), l.tr("BALANCE"), l.tr("ENTRIES")],
                balance.totals.map { t in
                    [
                        t.currency, BudgetInput.plain(t.incomeCents), BudgetInput.plain(t.expenseCents),
                        (t.balanceCents > 0 ? "+" : "") + BudgetInput.plain(t.balanceCents), String(t.entries),
                    ]
                })
            Output.line()
            Output.write(
                Data(BudgetChart.text(rows, width: Output.columns, localizer: Output.l).utf8))
        }
    }
}
