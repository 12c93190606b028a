import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension Stack {
    /// `beautyctl ARGS... --json` in a user's language (`LANG`, nothing overriding it), decoded.
    func beautyctlJSON<T: Decodable>(_ arguments: [String], lang: String, as: T.Type = T.self) async throws -> T {
        let result = try await beautyctl(arguments + ["--json"], lang: lang)
        guard result.status == .exited(0) else {
            throw HarnessError("LANG=\(lang) beautyctl \(arguments.joined(separator: " ")): \(result)")
        }
        return try WireJSON.decoder().decode(T.self, from: Data(result.stdout.utf8))
    }

    func beautyctl(_ arguments: [String], lang: String) async throws -> CommandResult {
        try await run(
            try Locations.built("beautyctl"), ["--socket", socketPath] + arguments,
            environment: ["LC_ALL": "", "LC_MESSAGES": "", "LANGUAGE": "", "LANG": lang])
    }
}

extension EndToEndBus {
    @Suite("Polish and Slovak input, searching without diacritics: real beautyctl and beautyd", .serialized)
    struct LanguageInput {
        /// The next `weekday` (1 = Sunday) at `hour:minute` in the test zone, from `now`.
        static func next(weekday: Int, _ hour: Int, _ minute: Int, after now: Date) -> Date {
            let cal = LocalTime.calendar(testTimeZone)
            for ahead in 0...7 {
                let day = cal.dateComponents(
                    [.year, .month, .day], from: cal.date(byAdding: .day, value: ahead, to: now)!)
                let start = LocalTime.instant(
                    year: day.year!, month: day.month!, day: day.day!, hour: hour, minute: minute, in: testTimeZone)!
                if cal.component(.weekday, from: start) == weekday, start > now { return start }
            }
            fatalError("a week has every weekday")
        }

        @Test(
            "appointments at 'jutro 10:00', 'pt 15:00', '25.11.2030 14.30', Slovak 'zajtra 9.15'; --days pon,śr,pt; zł and €; agenda --search krakow"
        )
        func polishAndSlovakInput() async throws {
            let stack = try await Stack.start(server: false, config: "[money]\ncurrency = \"PLN\"\n")
            defer { stack.shutdown() }
            let before = Date()
            let cal = LocalTime.calendar(testTimeZone)
            let day = cal.dateComponents([.year, .month, .day], from: cal.date(byAdding: .day, value: 1, to: before)!)
            let tomorrowAt = { (hour: Int, minute: Int) in
                LocalTime.instant(
                    year: day.year!, month: day.month!, day: day.day!, hour: hour, minute: minute, in: testTimeZone)!
            }

            let jutro = try await stack.beautyctlJSON(
                [
                    "appointment", "add", "Strzyżenie", "--at", "jutro 10:00",
                    "--address", "ul. Floriańska 3, Kraków",
                ], lang: "pl_PL.UTF-8", as: AppointmentDetail.self)
            #expect(jutro.appointment.start == tomorrowAt(10, 0), "\(jutro.appointment)")
            let friday = try await stack.beautyctlJSON(
                ["appointment", "add", "Manicure", "--at", "pt 15:00"], lang: "pl_PL.UTF-8",
                as: AppointmentDetail.self)
            #expect(friday.appointment.start == Self.next(weekday: 6, 15, 0, after: before), "\(friday.appointment)")
            let dotted = try await stack.beautyctlJSON(
                ["appointment", "add", "Pedicure", "--at", "25.11.2030 14.30"], lang: "pl_PL.UTF-8",
                as: AppointmentDetail.self)
            #expect(
                dotted.appointment.start
                    == LocalTime.instant(year: 2030, month: 11, day: 25, hour: 14, minute: 30, in: testTimeZone))
            let zajtra = try await stack.beautyctlJSON(
                ["appointment", "add", "Masáž", "--at", "zajtra 9.15"], lang: "sk_SK.UTF-8",
                as: AppointmentDetail.self)
            #expect(zajtra.appointment.start == tomorrowAt(9, 15), "\(zajtra.appointment)")
            // Other languages' forms work whatever the user's language: English here.
            let english = try await stack.beautyctlJSON(
                ["appointment", "add", "Brwi", "--at", "jutro 11.00"], as: AppointmentDetail.self)
            #expect(english.appointment.start == tomorrowAt(11, 0))

            let vitamin: MedicationDetail = try await stack.beautyctlJSON(
                ["med", "add", "Witamina D", "--at", "8.00", "--days", "pon,śr,pt"],
                lang: "pl_PL.UTF-8")
            #expect(vitamin.medication.schedule.weekdays == [.mon, .wed, .fri], "\(vitamin.medication.schedule)")
            #expect(vitamin.medication.schedule.times == [ClockTime(hour: 8, minute: 0)])

            let zloty = try await stack.beautyctlJSON(
                ["budget", "add", "Szampon", "1 234,50 zł", "--at", "2030-01-05 10:00"], as: BudgetEntry.self)
            #expect(zloty.amount == Money(cents: -123_450, currency: "PLN"), "\(zloty)")
            let euro = try await stack.beautyctlJSON(
                ["budget", "add", "Krém", "€10,50", "--income", "--at", "2030-01-06 10:00"], as: BudgetEntry.self)
            #expect(euro.amount == Money(cents: 1_050, currency: "EUR"), "\(euro)")

            let found = try await stack.beautyctlJSON(
                ["agenda", "--from", "today", "--to", "in 8d", "--search", "krakow"], as: AgendaResult.self)
            #expect(found.entries.map(\.title) == ["Strzyżenie"], "\(found.entries)")
            let foundSlovak = try await stack.beautyctlJSON(
                ["agenda", "--from", "today", "--to", "in 8d", "--search", "MASAZ"], as: AgendaResult.self)
            #expect(foundSlovak.entries.map(\.title) == ["Masáž"], "\(foundSlovak.entries)")
        }

        @Test(
            "refusals name the input and say what was understood, in the user's language; the user's language decides 'po'"
        )
        func refusals() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let cases: [([String], String, [String])] = [
                (
                    ["appointment", "add", "Manicure", "--at", "pt"], "pl_PL.UTF-8",
                    ["--at", "„pt” to dzień (piątek", "ale bez godziny", "„pt 15:00”"]
                ),
                (
                    ["appointment", "add", "Manicure", "--at", "1.2"], "pl_PL.UTF-8",
                    ["--at", "„1.2” jest niejednoznaczne", "01:02", "1 lutego"]
                ),
                (
                    ["appointment", "add", "Manicure", "--at", "po 15:00"], "pl_PL.UTF-8",
                    ["--at", "„po” to po polsku przyimek", "'pon'"]
                ),
                (
                    ["budget", "add", "Szampon", "10,500 zł"], "pl_PL.UTF-8",
                    ["„10,500 zł” jest niejednoznaczne", "10,50 czy 10500?"]
                ),
                (
                    ["med", "add", "Witamina", "--at", "8.00", "--days", "pon,xyz"], "sk_SK.UTF-8",
                    ["--days", "„xyz“ nie je deň v týždni", "po ut st št pi so ne"]
                ),
            ]
            for (arguments, lang, parts) in cases {
                let result = try await stack.beautyctl(arguments, lang: lang)
                #expect(result.status == .exited(2), "\(arguments): \(result)")
                for part in parts { #expect(result.stderr.contains(part), "\(arguments): \(result.stderr)") }
            }
            let monday = try await stack.beautyctlJSON(
                ["appointment", "add", "Masáž", "--at", "po 15:00"], lang: "sk_SK.UTF-8",
                as: AppointmentDetail.self)
            #expect(
                monday.appointment.start == Self.next(weekday: 2, 15, 0, after: Date().addingTimeInterval(-5)),
                "in Slovak 'po' is Monday")
            let allDay = try await stack.beautyctlJSON(
                ["appointment", "add", "Dzień SPA", "--at", "pt", "--all-day"], lang: "pl_PL.UTF-8",
                as: AppointmentDetail.self)
            #expect(allDay.appointment.allDay, "a day alone is fine for an all-day appointment")
            #expect(
                try await stack.beautyctlJSON(["appointment", "list"], as: [Appointment].self).count == 2,
                "refused commands added nothing")
        }
    }
}
