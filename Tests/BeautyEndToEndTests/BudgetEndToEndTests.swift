import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension Stack {
    /// `beautyctl ARGS...` that must succeed.
    func beautyctlOK(_ arguments: [String]) async throws -> CommandResult {
        let result = try await beautyctl(arguments)
        guard result.status == .exited(0) else {
            throw HarnessError("beautyctl \(arguments.joined(separator: " ")): \(result)")
        }
        return result
    }

    /// `beautyctl agenda` over March 2030 with these filters, as JSON.
    func agenda2030(_ filters: [String]) async throws -> AgendaResult {
        try await beautyctlJSON(["agenda", "--from", "2030-03-01", "--to", "2030-04-01"] + filters)
    }
}

extension EndToEndServing {
    @Suite("Budget, search and browse, the calendar view: real beautyctl", .serialized)
    struct BudgetAndBrowse {
        @Test("budget add/list/edit/rm/balance: cents and currencies, a negative balance, confirmation")
        func budgetThroughBeautyctl() async throws {
            let stack = try await Stack.start(server: false, config: "[money]\ncurrency = \"PLN\"\n")
            defer { stack.shutdown() }
            let salary = try await stack.beautyctlJSON(
                ["budget", "add", "Salary", "1200", "--income", "--at", "2030-01-05 09:00"],
                as: BudgetEntry.self)
            #expect(
                salary.amount == Money(cents: 120_000, currency: "PLN"),
                "the config's money.currency is the default: \(salary)")
            #expect(salary.at == LocalTime.instant(year: 2030, month: 1, day: 5, hour: 9, in: testTimeZone))
            let phone = try await stack.beautyctlJSON(
                ["budget", "add", "Phone", "1500,00", "--at", "2030-01-06 12:00"], as: BudgetEntry.self)
            #expect(phone.amount == Money(cents: -150_000, currency: "PLN"), "an expense by default, negative")
            let shampoo = try await stack.beautyctlJSON(
                ["budget", "add", "Szampon", "12.5 EUR", "--at", "2030-02-01 10:00"],
                as: BudgetEntry.self)
            #expect(shampoo.amount == Money(cents: -1_250, currency: "EUR"))
            let refund = try await stack.beautyctlJSON(
                [
                    "budget", "add", "Refund", "3", "--currency", "eur", "--at", "2030-02-02 10:00",
                    "--income",
                ], as: BudgetEntry.self)
            #expect(refund.amount == Money(cents: 300, currency: "EUR"))

            // Text: a table, oldest first, signed amounts.
            let text = try await stack.beautyctlOK(["budget", "list"]).stdout
            let lines = text.split(separator: "\n").map(String.init)
            #expect(
                lines.count == 5 && lines[0].hasPrefix("ID") && lines[1].contains("+1200.00 PLN")
                    && lines[1].contains("Salary")
                    && lines[2].contains("-1500.00 PLN") && lines[3].contains("Szampon"), "\(text)")

            // The balance goes negative in PLN; EUR is its own line.
            let all = try await stack.beautyctlJSON(["budget", "balance"], as: BudgetBalance.self)
            #expect(
                all.totals == [
                    BudgetTotal(currency: "EUR", incomeCents: 300, expenseCents: 1_250, balanceCents: -950, entries: 2),
                    BudgetTotal(
                        currency: "PLN", incomeCents: 120_000, expenseCents: 150_000, balanceCents: -30_000, entries: 2),
                ], "\(all)")
            let balanceText = try await stack.beautyctlOK(["budget", "balance"]).stdout
            #expect(
                balanceText.contains("-300.00") && balanceText.contains("-9.50") && balanceText.contains("1200.00"),
                "\(balanceText)")
            // A range: January only.
            let january = try await stack.beautyctlJSON(
                ["budget", "balance", "--from", "2030-01-01", "--to", "2030-02-01"], as: BudgetBalance.self)
            #expect(january.totals.map(\.currency) == ["PLN"] && january.totals.first?.balanceCents == -30_000)
            let listed = try await stack.beautyctlJSON(
                ["budget", "list", "--from", "2030-02-01", "--to", "2030-03-01"], as: [BudgetEntry].self)
            #expect(listed.map(\.name) == ["Szampon", "Refund"])

            // Edit: a new size keeps the direction; --income flips it; --name and --at.
            let resized = try await stack.beautyctlJSON(
                ["budget", "edit", "\(phone.id)", "--amount", "1000"], as: BudgetEntry.self)
            #expect(resized.amount == Money(cents: -100_000, currency: "PLN"))
            let flipped = try await stack.beautyctlJSON(
                [
                    "budget", "edit", "\(refund.id)", "--expense", "--name", "Not a refund",
                    "--at", "2030-02-03 08:00",
                ], as: BudgetEntry.self)
            #expect(flipped.amount == Money(cents: -300, currency: "EUR") && flipped.name == "Not a refund")
            #expect(flipped.at == LocalTime.instant(year: 2030, month: 2, day: 3, hour: 8, in: testTimeZone))
            let after = try await stack.beautyctlJSON(["budget", "balance"], as: BudgetBalance.self)
            #expect(after.totals.map(\.balanceCents) == [-1_550, 20_000])

            // rm asks first; with no terminal it refuses unless --yes, and deletes nothing.
            let refused = try await stack.beautyctl(["budget", "rm", "\(salary.id)"])
            #expect(refused.status == .exited(2) && refused.stderr.contains("--yes"), "\(refused)")
            let removed = try await stack.beautyctlOK(["budget", "rm", "\(salary.id)", "--yes"])
            #expect(removed.stdout.contains("Deleted income \(salary.id): Salary"), "\(removed)")
            let debt = try await stack.beautyctlJSON(
                ["budget", "balance", "--from", "2030-01-01", "--to", "2030-02-01"], as: BudgetBalance.self)
            #expect(
                debt.totals == [
                    BudgetTotal(
                        currency: "PLN", incomeCents: 0, expenseCents: 100_000, balanceCents: -100_000, entries: 1)
                ],
                "the seed's story: the income deleted, the balance is in debt")
            let gone = try await stack.beautyctl(["budget", "rm", "\(salary.id)", "--yes"])
            #expect(gone.status == .exited(4), "\(gone)")

            // Nothing in a range is success with an empty answer.
            let none = try await stack.beautyctlOK(["budget", "list", "--from", "2031-01-01", "--to", "2031-02-01"])
            #expect(none.stdout.hasPrefix("No budget entries between"), "\(none)")
            let noneJSON = try await stack.beautyctlJSON(
                ["budget", "list", "--from", "2031-01-01"], as: [BudgetEntry].self)
            #expect(noneJSON.isEmpty)
            let noBalance = try await stack.beautyctlJSON(
                ["budget", "balance", "--from", "2031-01-01"], as: BudgetBalance.self)
            #expect(noBalance.totals.isEmpty)
        }

        @Test("bad budget input: a clear message, exit 2 or 4, nothing stored")
        func badBudgetInput() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let cases: [(arguments: [String], code: Int32, mentions: [String])] = [
                (["budget", "add", "", "12"], 2, ["name", "empty"]),
                (["budget", "add", "   ", "12"], 2, ["name", "empty"]),
                (["budget", "add", "Shampoo", "12,3,4"], 2, ["amount", "12,3,4"]),
                (["budget", "add", "Shampoo", "12.345"], 2, ["amount", "12.345"]),
                (["budget", "add", "Shampoo", "0"], 2, ["amount", "zero"]),
                (["budget", "add", "Shampoo", "abc"], 2, ["amount", "abc"]),
                (["budget", "add", "Shampoo", "2000000000"], 2, ["amount", "too large"]),
                (["budget", "add", "--income", "Refund", "--", "-5"], 2, ["negative"]),
                (["budget", "add", "Shampoo", "12", "--currency", "EURO"], 2, ["--currency", "EURO"]),
                (["budget", "add", "Shampoo", "12 PLN", "--currency", "EUR"], 2, ["PLN", "EUR"]),
                (["budget", "add", "Shampoo", "12", "--at", "someday"], 2, ["--at", "someday"]),
                (["budget", "add", "Shampoo"], 2, ["amount"]),
                (["budget", "edit", "1", "--income", "--expense"], 2, ["--income", "--expense"]),
                (["budget", "edit", "1", "--currency", "PLN"], 2, ["--currency", "--amount"]),
                (["budget", "edit", "999", "--amount", "5"], 4, ["999"]),
                (["budget", "rm", "999", "--yes"], 4, ["999"]),
                (["budget", "rm", "999"], 4, ["999"]),
                (["budget", "list", "--from", "2030-02-01", "--to", "2030-01-01"], 2, ["--to"]),
                (["budget", "balance", "--from", "yesterday-ish"], 2, ["--from"]),
            ]
            for (arguments, code, mentions) in cases {
                let result = try await stack.beautyctl(arguments)
                #expect(result.status == .exited(code), "beautyctl \(arguments): \(result)")
                for word in mentions {
                    #expect(result.stderr.contains(word), "beautyctl \(arguments) should mention \(word): \(result)")
                }
            }
            // The daemon checks too, whatever the client: JSON-RPC errors naming the field.
            let client = try stack.client()
            let bad: [(String, String)] = [
                (
                    #"{"jsonrpc":"2.0","id":1,"method":"budget.add","params":{"name":" ","amount":{"cents":100}}}"#,
                    "name"
                ),
                (
                    #"{"jsonrpc":"2.0","id":2,"method":"budget.add","params":{"name":"Gift","amount":{"cents":0}}}"#,
                    "amount"
                ),
                (
                    #"{"jsonrpc":"2.0","id":3,"method":"budget.add","params":{"name":"Gift","amount":{"cents":-100}}}"#,
                    "amount"
                ),
                (
                    #"{"jsonrpc":"2.0","id":4,"method":"budget.add","params":{"name":"Gift","amount":{"cents":100,"currency":"euro"}}}"#,
                    "amount"
                ),
                (
                    #"{"jsonrpc":"2.0","id":5,"method":"budget.balance","params":{"from":"2030-02-01T00:00:00Z","to":"2030-01-01T00:00:00Z"}}"#,
                    "to"
                ),
            ]
            for (line, field) in bad {
                let answer = try client.roundTrip(line)
                #expect(answer.errorCode == RPCErrorCode.invalidParams, "\(line) -> \(answer)")
                #expect(
                    ((answer["error"] as? [String: Any])?["data"] as? [String: Any])?["field"] as? String == field,
                    "\(line) -> \(answer)")
            }
            let typed = try client.roundTrip(
                #"{"jsonrpc":"2.0","id":6,"method":"budget.add","params":{"name":"Gift","amount":"12,3,4"}}"#)
            #expect(
                typed.errorCode == RPCErrorCode.invalidParams && typed.errorMessage?.contains("params.amount") == true,
                "\(typed)")
            let stored = try await stack.beautyctlJSON(["budget", "list"], as: [BudgetEntry].self)
            #expect(stored.isEmpty, "a refused command stored something: \(stored)")
        }

        @Test("marking a priced appointment done records its expense once; the expense survives the appointment")
        func doneRecordsOneExpense() async throws {
            let stack = try await Stack.start(server: false, config: "[money]\ncurrency = \"PLN\"\n")
            defer { stack.shutdown() }
            let added = try await stack.beautyctlJSON(
                [
                    "appointment", "add", "Manicure hybrydowy", "--at", "2030-01-10 10:00",
                    "--price", "120,00", "--category", "nails/manicure",
                ], as: AppointmentDetail.self)
            let id = try #require(added.appointment.id)
            let free = try await stack.beautyctlJSON(
                ["appointment", "add", "Consultation", "--at", "2030-01-11 10:00"], as: AppointmentDetail.self)
            for _ in 0..<2 {
                _ = try await stack.beautyctlOK(["appointment", "done", "\(id)"])
                _ = try await stack.beautyctlOK(["appointment", "done", "\(free.appointment.id!)"])
            }
            var entries = try await stack.beautyctlJSON(["budget", "list"], as: [BudgetEntry].self)
            #expect(entries.count == 1, "done twice must record one expense, an unpriced visit none: \(entries)")
            let expense = try #require(entries.first)
            #expect(
                expense.amount == Money(cents: -12_000, currency: "PLN") && expense.name == "Manicure hybrydowy"
                    && expense.appointmentID == id, "\(expense)")
            let listed = try await stack.beautyctlOK(["budget", "list"]).stdout
            #expect(listed.contains("(appointment \(id))"), "\(listed)")

            // Editing the expense is allowed; the link stays. Deleting the appointment keeps the expense.
            _ = try await stack.beautyctlOK(["budget", "edit", "\(expense.id)", "--amount", "100"])
            _ = try await stack.beautyctlOK(["appointment", "rm", "\(id)", "--yes"])
            entries = try await stack.beautyctlJSON(["budget", "list"], as: [BudgetEntry].self)
            #expect(
                entries.map(\.amount) == [Money(cents: -10_000, currency: "PLN")]
                    && entries.first?.appointmentID == nil, "\(entries)")
        }

        @Test(
            "done is one change: when setting the status fails, no next visit of the cycle and no expense stay behind")
        func aFailedDoneLeavesNothingHalfDone() async throws {
            let stack = try await Stack.start(server: false, config: "[money]\ncurrency = \"PLN\"\n")
            defer { stack.shutdown() }
            let added = try await stack.beautyctlJSON(
                [
                    "appointment", "add", "Manicure hybrydowy", "--at", "2030-01-10 10:00",
                    "--price", "120,00", "--every", "4w", "--after-done",
                ], as: AppointmentDetail.self)
            let id = try #require(added.appointment.id)
            // The status is written after the next visit and the expense: refusing it makes the last step fail.
            try await stack.sqlite(
                stack.databasePath,
                """
                CREATE TRIGGER refuseDone BEFORE UPDATE OF status ON appointment WHEN NEW.status = 'done'
                BEGIN SELECT RAISE(ABORT, 'refused for the test'); END;
                """)
            let failed = try await stack.beautyctl(["appointment", "done", "\(id)"])
            #expect(failed.status != .exited(0), "\(failed)")
            let appointments = try await stack.beautyctlJSON(["appointment", "list"], as: [Appointment].self)
            #expect(appointments.map(\.status) == [.scheduled], "no next visit booked: \(appointments)")
            let entries = try await stack.beautyctlJSON(["budget", "list"], as: [BudgetEntry].self)
            #expect(entries.isEmpty, "no expense recorded: \(entries)")

            // Once the status can be written again, done does all of it once.
            try await stack.sqlite(stack.databasePath, "DROP TRIGGER refuseDone")
            let done = try await stack.beautyctlJSON(["appointment", "done", "\(id)"], as: AppointmentDetail.self)
            #expect(done.appointment.status == .done && done.followUp != nil, "\(done)")
            #expect(try await stack.beautyctlJSON(["appointment", "list"], as: [Appointment].self).count == 2)
            #expect(try await stack.beautyctlJSON(["budget", "list"], as: [BudgetEntry].self).count == 1)
        }

        @Test(
            "agenda: filters combine, a parent category includes its children, paging with a stable order, empty is success"
        )
        func agendaFiltersAndPaging() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let specs: [[String]] = [
                [
                    "Haircut", "--at", "2030-03-04 10:00", "--category", "hair/cut", "--notes", "short bob",
                    "--address", "ul. Piękna 1",
                ],
                ["Hair colour", "--at", "2030-03-04 10:00", "--category", "hair/colour"],
                [
                    "Manicure", "--at", "2030-03-05 12:00", "--category", "nails/manicure", "--address", "ul. Piękna 1",
                    "--color", "red",
                ],
                ["Facial", "--at", "2030-03-06 09:00", "--category", "face/facial", "--notes", "and a hair mask"],
                ["Hair styling", "--at", "2030-03-07 16:00", "--category", "hair"],
            ]
            var ids: [String: Int64] = [:]
            for spec in specs {
                let detail = try await stack.beautyctlJSON(["appointment", "add"] + spec, as: AppointmentDetail.self)
                ids[spec[0]] = detail.appointment.id
            }
            _ = try await stack.beautyctlOK(["appointment", "done", "\(ids["Manicure"]!)"])
            _ = try await stack.beautyctlOK(["appointment", "cancel", "\(ids["Facial"]!)"])

            func titles(_ filters: [String]) async throws -> [String] {
                try await stack.agenda2030(filters).entries.map(\.title)
            }
            // Same start: by title. The whole month in order.
            #expect(try await titles([]) == ["Hair colour", "Haircut", "Manicure", "Facial", "Hair styling"])
            #expect(
                try await titles(["--category", "hair"]) == ["Hair colour", "Haircut", "Hair styling"],
                "a parent includes its children")
            #expect(try await titles(["--category", "hair/cut"]) == ["Haircut"])
            #expect(try await titles(["--category", "HAIR/CUT"]) == ["Haircut"])
            #expect(try await titles(["--search", "PIĘKNA"]) == ["Haircut", "Manicure"], "search covers the address")
            #expect(
                try await titles(["--search", "hair"]) == ["Hair colour", "Haircut", "Facial", "Hair styling"],
                "and notes")
            #expect(try await titles(["--search", "piękna", "--category", "nails"]) == ["Manicure"])
            #expect(try await titles(["--status", "done"]) == ["Manicure"])
            #expect(
                try await titles(["--status", "scheduled", "--status", "cancelled"]) == [
                    "Hair colour", "Haircut", "Facial", "Hair styling",
                ])
            #expect(try await titles(["--search", "hair", "--status", "cancelled"]) == ["Facial"])
            #expect(
                try await titles([
                    "--search", "hair", "--category", "hair", "--status", "scheduled", "--kind", "appointment",
                ])
                    == ["Hair colour", "Haircut", "Hair styling"])

            // Paging: total counts every match; pages join up to the whole list, in the same order.
            let page1 = try await stack.agenda2030(["--limit", "2"])
            let page2 = try await stack.agenda2030(["--limit", "2", "--offset", "2"])
            let page3 = try await stack.agenda2030(["--limit", "2", "--offset", "4"])
            #expect(page1.total == 5 && page2.total == 5 && page3.total == 5)
            #expect(
                (page1.entries + page2.entries + page3.entries).map(\.title) == [
                    "Hair colour", "Haircut", "Manicure", "Facial", "Hair styling",
                ])
            let past = try await stack.agenda2030(["--offset", "10"])
            #expect(past.entries.isEmpty && past.total == 5)
            let pagedText = try await stack.beautyctlOK([
                "agenda", "--from", "2030-03-01", "--to", "2030-04-01", "--limit", "2",
            ]).stdout
            #expect(pagedText.contains("Showing 1–2 of 5; the next page: --offset 2."), "\(pagedText)")

            // No results: exit 0 with an empty list, not an error.
            let empty = try await stack.agenda2030(["--category", "body"])
            #expect(empty.entries.isEmpty && empty.total == 0)
            let emptyText = try await stack.beautyctlOK([
                "agenda", "--from", "2030-03-01", "--to", "2030-04-01", "--search", "pedicure",
            ])
            #expect(emptyText.stdout.hasPrefix("Nothing between"), "\(emptyText)")
            // A category outside the tree is refused, with the tree.
            let typo = try await stack.beautyctl([
                "agenda", "--from", "2030-03-01", "--to", "2030-04-01", "--category", "hiar",
            ])
            #expect(
                typo.status == .exited(2) && typo.stderr.contains("'hiar' is no category")
                    && typo.stderr.contains("hair/cut"), "\(typo)")
            // An error is not "no results": a bad status is a usage error.
            let badStatus = try await stack.beautyctl(["agenda", "--status", "finished"])
            #expect(badStatus.status == .exited(2) && badStatus.stderr.contains("finished"), "\(badStatus)")
            let rpc = try stack.client().roundTrip(
                #"{"jsonrpc":"2.0","id":1,"method":"agenda","params":{"status":["finished"]}}"#)
            #expect(
                rpc.errorCode == RPCErrorCode.invalidParams && rpc.errorMessage?.contains("finished") == true, "\(rpc)")

            // categories: the two-level tree.
            let tree = try await stack.beautyctlJSON(["categories"], as: [CategoryNode].self)
            #expect(tree.map(\.name) == ["body", "face", "hair", "nails"])
            let hair = try #require(tree.first { $0.name == "hair" })
            #expect(hair.title == "Hair" && hair.children.map(\.name) == ["hair/colour", "hair/cut", "hair/styling"])
            #expect(
                hair.children.map(\.title) == ["Colouring", "Haircut", "Styling"]
                    && tree.allSatisfy { $0.children.allSatisfy(\.children.isEmpty) })
            let treeText = try await stack.beautyctlOK(["categories"]).stdout
            #expect(treeText.contains("  hair/cut") && treeText.contains("Haircut"), "\(treeText)")

            // A word of a title names its category; an unknown category on an appointment is refused.
            let lashes = try await stack.beautyctlJSON(
                ["appointment", "add", "Lashes", "--at", "2030-03-20 10:00", "--category", "lashes"],
                as: AppointmentDetail.self)
            #expect(lashes.appointment.category == "face/brows")
            let odd = try await stack.beautyctl([
                "appointment", "add", "Odd", "--at", "2030-03-20 10:00", "--category", "zzz",
            ])
            #expect(odd.status == .exited(2) && odd.stderr.contains("'zzz' is no category"), "\(odd)")
            let known = try await stack.beautyctl([
                "appointment", "add", "Waxing", "--at", "2030-03-21 10:00", "--category", "body/waxing",
            ])
            #expect(known.status == .exited(0) && !known.stderr.contains("warning"), "\(known)")
        }

        @Test("calendar --day/--week draws the grid: blocks, all-day row, no colour off a terminal unless asked")
        func calendarView() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            for spec in [
                ["Haircut", "--at", "2030-03-04 09:00", "--duration", "90m", "--color", "pink"],
                ["Manicure", "--at", "2030-03-04 10:00", "--color", "red"],
                ["Spa day", "--at", "2030-03-04", "--all-day", "--color", "teal"],
                ["Cancelled facial", "--at", "2030-03-05 09:00"],
                ["Late massage", "--at", "2030-03-05 21:00"],
            ] {
                _ = try await stack.beautyctlOK(["appointment", "add"] + spec)
            }
            let list = try await stack.beautyctlJSON(["appointment", "list"], as: [Appointment].self)
            _ = try await stack.beautyctlOK([
                "appointment", "cancel", "\(list.first { $0.title == "Cancelled facial" }!.id!)",
            ])

            let day = try await stack.beautyctlOK(["calendar", "--day", "2030-03-04", "--width", "60"]).stdout
            #expect(!day.contains("\u{1B}["), "no colour when stdout is not a terminal: \(day)")
            let lines = day.split(separator: "\n").map(String.init)
            #expect(lines.first == "Mon 4 Mar 2030")
            #expect(lines.contains("all-day│■ Spa day"), "\(day)")
            #expect(lines.contains("09:00  │┏ Haircut"), "\(day)")
            #expect(
                lines.contains { $0.hasPrefix("10:00  │┗") && $0.contains("┏ Manicure") },
                "overlapping blocks side by side:\n\(day)")
            #expect(lines.contains("08:00  │") && lines.last == "       │", "\(day)")

            let week = try await stack.beautyctlOK(["calendar", "--week", "2030-03-06", "--width", "200"]).stdout
            #expect(week.hasPrefix("Mon 4 Mar 2030 – Sun 10 Mar 2030\n"), "\(week)")
            #expect(
                week.contains("Late massage") && !week.contains("Cancelled facial"),
                "cancelled appointments are not drawn:\n\(week)")
            #expect(week.contains("21:00  │"), "the hours widen to the late appointment:\n\(week)")

            let coloured = try await stack.beautyctlOK(["calendar", "--day", "2030-03-04", "--color"]).stdout
            #expect(coloured.contains("\u{1B}[48;5;211;30m┏ Haircut") && coloured.contains("\u{1B}[0m"), "\(coloured)")
            let plain = try await stack.beautyctlOK(["calendar", "--day", "2030-03-04", "--no-color"]).stdout
            #expect(!plain.contains("\u{1B}"))

            let today = try await stack.beautyctlOK(["calendar"]).stdout
            #expect(today.split(separator: "\n").first?.hasSuffix("(today)") == true, "\(today)")
            #expect(today.contains("▶│"), "today has the now-line:\n\(today)")

            let json = try await stack.beautyctlJSON(["calendar", "--day", "2030-03-04"], as: AgendaResult.self)
            #expect(json.entries.map(\.title) == ["Spa day", "Haircut", "Manicure"])

            let both = try await stack.beautyctl(["calendar", "--day", "2030-03-04", "--week", "2030-03-04"])
            #expect(both.status == .exited(2), "\(both)")
            let badDay = try await stack.beautyctl(["calendar", "--day", "2030-02-30"])
            #expect(badDay.status == .exited(2) && badDay.stderr.contains("2030-02-30"), "\(badDay)")
        }
    }
}
