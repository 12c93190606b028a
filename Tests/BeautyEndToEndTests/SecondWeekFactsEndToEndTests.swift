import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension Stack {
    /// `beautyctl ARGS...` in a user's language and zone (`TZ`), as a laptop set to them runs it.
    func beautyctl(_ arguments: [String], lang: String, zone: TimeZone) async throws -> CommandResult {
        try await run(
            try Locations.built("beautyctl"), ["--socket", socketPath] + arguments,
            environment: ["LC_ALL": "", "LC_MESSAGES": "", "LANGUAGE": "", "LANG": lang, "TZ": zone.identifier])
    }
}

extension EndToEndServing {
    @Suite(
        "A second week in Polish and Slovak: doses answered late, yesterday, water amounts and the app's export",
        .serialized)
    struct SecondWeekFacts {
        /// A whole-hour zone where it is now between 08:00 and 16:59, so an hour later is still today.
        static func zoneAtMidday(_ now: Date) -> TimeZone {
            for hours in -12...14 {
                let zone = TimeZone(
                    identifier: hours == 0 ? "Etc/GMT" : "Etc/GMT\(hours > 0 ? "-" : "+")\(abs(hours))")!
                if (8...16).contains(LocalTime.calendar(zone).component(.hour, from: now)) { return zone }
            }
            fatalError("some whole-hour zone has its day's middle now")
        }

        static func clock(_ date: Date, _ zone: TimeZone) -> String {
            let calendar = LocalTime.calendar(zone)
            return String(
                format: "%02d:%02d", calendar.component(.hour, from: date), calendar.component(.minute, from: date))
        }

        /// The dose, due about two hours from `now`, of a new medication taken once a day.
        static func doseDueSoon(_ stack: Stack, _ name: String, now: Date) async throws -> AgendaEntry {
            let due = Date(timeIntervalSince1970: ((now.timeIntervalSince1970 + 2 * 3600) / 60).rounded(.down) * 60)
            let added: MedicationDetail = try await stack.beautyctlJSON(["med", "add", name, "--at", localClock(due)])
            let medication = try #require(added.medication.id)
            let agenda = try await stack.doseAgenda(from: iso(now), to: iso(now.addingTimeInterval(86_400)))
            return try #require(agenda.first { $0.start == due && $0.medicationID == medication }, "agenda: \(agenda)")
        }

        /// When the dose was answered, as history has it (nil: not answered); the dose may be due tomorrow.
        static func answeredAt(_ stack: Stack, _ doseID: Int64) async throws -> Date? {
            let history: HistoryResult = try await stack.beautyctlJSON([
                "history", "--to", iso(Date().addingTimeInterval(2 * 86_400)),
            ])
            return history.entries.first { $0.kind == .dose && $0.id == doseID }?.confirmedAt
        }

        @Test(
            "dose taken --at a time still to come today is refused naming 'wczoraj'; over 12 h before the dose was due asks first; the reply names the time recorded"
        )
        func aLateDoseAnswerIsNotBookedOnTheDayBefore() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let now = Date()
            let dose = try await Self.doseDueSoon(stack, "Witamina D", now: now)
            let due = dose.start
            let zone = Self.zoneAtMidday(now), polish = "pl_PL.UTF-8"

            // 19:45 typed at 19:13 for 18:45: once booked yesterday at 19:45 without a word.
            let later = Self.clock(now.addingTimeInterval(3600), zone)
            let slip = try await stack.beautyctl(
                ["dose", "taken", String(dose.id), "--at", later], lang: polish, zone: zone)
            #expect(
                slip.status == .exited(2) && slip.stderr.contains("„\(later)” dziś jeszcze nie nadeszła")
                    && slip.stderr.contains("„wczoraj \(later)”"), "\(slip)")
            #expect(try await Self.answeredAt(stack, dose.id) == nil, "nothing recorded")

            // Yesterday's time is a day before the dose was due: asked first, so refused without a terminal.
            let yesterday = "wczoraj \(Self.clock(now, zone))"
            let early = try await stack.beautyctl(
                ["dose", "taken", String(dose.id), "--at", yesterday], lang: polish, zone: zone)
            #expect(
                early.status == .exited(2) && early.stderr.contains("--yes")
                    && early.stderr.contains("ponad 12 godzin wcześniej"), "\(early)")
            #expect(try await Self.answeredAt(stack, dose.id) == nil, "nothing recorded")

            let confirmed = try await stack.beautyctl(
                ["dose", "taken", String(dose.id), "--at", yesterday, "--yes"], lang: polish, zone: zone)
            let recorded = try #require(try await Self.answeredAt(stack, dose.id))
            #expect(
                recorded < due.addingTimeInterval(-12 * 3600) && recorded > now.addingTimeInterval(-86_460),
                "\(recorded)")
            let shown = Timestamps(zone: zone, language: .polish).short(recorded)
            #expect(
                confirmed.status == .exited(0) && confirmed.stdout.contains("zapisano stan: przyjęta, czas: \(shown)."),
                "\(confirmed)")
        }

        @Test("dose skip --at 10 minutes ago is recorded at once and says when, in English too")
        func anAnswerWithinTwelveHoursNamesItsTime() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let now = Date()
            let dose = try await Self.doseDueSoon(stack, "Magnesium", now: now)
            let zone = Self.zoneAtMidday(now)
            let at = now.addingTimeInterval(-600)
            let skipped = try await stack.beautyctl(
                ["dose", "skip", String(dose.id), "--at", Self.clock(at, zone)], lang: "C", zone: zone)
            let recorded = try #require(try await Self.answeredAt(stack, dose.id))
            #expect(
                skipped.status == .exited(0)
                    && skipped.stdout.contains("as skipped at \(Timestamps(zone: zone).short(recorded))."), "\(skipped)"
            )
        }

        @Test("wczoraj, przedwczoraj, včera, predvčerom, yesterday: water, weight, budget and doses take them")
        func yesterdayIsATime() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let calendar = LocalTime.calendar(testTimeZone)
            let today = calendar.startOfDay(for: Date())
            func day(_ offset: Int, _ hour: Int, _ minute: Int) -> Date {
                let c = calendar.dateComponents(
                    [.year, .month, .day], from: calendar.date(byAdding: .day, value: offset, to: today)!)
                return LocalTime.instant(
                    year: c.year!, month: c.month!, day: c.day!, hour: hour, minute: minute, in: testTimeZone)!
            }
            let water: WaterAddResult = try await stack.beautyctlJSON(
                ["water", "add", "250 ml", "--at", "včera 8.30"], lang: "sk_SK.UTF-8")
            #expect(water.record.start == day(-1, 8, 30), "\(water.record)")
            let earlier: WaterAddResult = try await stack.beautyctlJSON(
                ["water", "add", "300ml", "--at", "predvčerom 21:00"], lang: "sk_SK.UTF-8")
            #expect(earlier.record.start == day(-2, 21, 0), "\(earlier.record)")
            let weight: MeasurementAddResult = try await stack.beautyctlJSON(
                ["measure", "add", "--weight", "62,5", "--date", "przedwczoraj"], lang: "pl_PL.UTF-8")
            #expect(weight.measurement.day == LocalDate(day(-2, 12, 0), in: testTimeZone), "\(weight.measurement)")
            let spent: BudgetEntry = try await stack.beautyctlJSON(
                ["budget", "add", "Szampon", "12,99", "--at", "wczoraj 18:00"], lang: "pl_PL.UTF-8")
            #expect(spent.at == day(-1, 18, 0), "\(spent)")
            let english: BudgetEntry = try await stack.beautyctlJSON([
                "budget", "add", "Mask", "9", "--at", "day before yesterday 10:00",
            ])
            #expect(english.at == day(-2, 10, 0), "\(english)")
            let med: MedicationDetail = try await stack.beautyctlJSON(["med", "add", "Horčík", "--as-needed"])
            let logged: DoseResult = try await stack.beautyctlJSON([
                "dose", "log", String(med.medication.id!), "--at", "yesterday 22:15",
            ])
            #expect(logged.dose.scheduledAt == day(-1, 22, 15), "\(logged.dose)")
        }

        @Test("water add 2,5 (sk) is refused naming 2,5 l and 3 ml; 2,5 l and 250 ml are stored as said")
        func anAmbiguousWaterAmountIsRefused() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let refused = try await stack.beautyctl(["water", "add", "2,5"], lang: "sk_SK.UTF-8")
            #expect(
                refused.status == .exited(2) && refused.stderr.contains("„2,5“ je 2,5 l alebo 2,5 ml?")
                    && refused.stderr.contains("„2,5 l“ alebo „3 ml“"), "\(refused)")
            let litres: WaterAddResult = try await stack.beautyctlJSON(["water", "add", "2,5 l"], lang: "sk_SK.UTF-8")
            #expect(litres.record.amountMl == 2500)
            let glass: WaterAddResult = try await stack.beautyctlJSON(["water", "add", "250 ml"], lang: "sk_SK.UTF-8")
            #expect(glass.record.amountMl == 250)
            let list: [WaterRecord] = try await stack.beautyctlJSON(["water", "list"])
            #expect(list.map(\.amountMl).sorted() == [250, 2500], "the refused amount stored nothing: \(list)")
            let goal = try await stack.beautyctl(["water", "goal", "1.5"])
            #expect(goal.status == .exited(2) && goal.stderr.contains("'1.5' could be 1.5 l or 1.5 ml"), "\(goal)")
        }

        @Test(
            "backup FILE onto an existing file asks first: refused without a terminal, the file kept; --yes replaces it"
        )
        func backupDoesNotOverwriteWithoutAsking() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let file = stack.directory + "/kopia.sqlite"
            try "moja stara kopia\n".write(toFile: file, atomically: false, encoding: .utf8)
            let refused = try await stack.beautyctl(["backup", file], lang: "pl_PL.UTF-8")
            #expect(
                refused.status == .exited(2) && refused.stderr.contains("--yes") && refused.stderr.contains(file),
                "\(refused)")
            #expect(
                try String(contentsOfFile: file, encoding: .utf8) == "moja stara kopia\n",
                "the existing file was overwritten")
            let replaced = try await stack.beautyctl(["backup", file, "--yes"])
            #expect(replaced.status == .exited(0) && replaced.stdout.contains("Backed up the database"), "\(replaced)")
            #expect(try String(contentsOfFile: file, encoding: .isoLatin1).hasPrefix("SQLite format 3"))
            let fresh = try await stack.beautyctl(["backup", stack.directory + "/nowa.sqlite"])
            #expect(fresh.status == .exited(0), "a new file needs no question: \(fresh)")
        }

        @Test(
            "contact edit/show/rm take a unique name; rm asks naming the visits it unlinks, and says how many it unlinked"
        )
        func contactsByNameAndWhatRemovingUnlinks() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let jana: Contact = try await stack.beautyctlJSON([
                "contact", "add", "Salon Jana", "--phone", "+421 900 111 222",
            ])
            _ = try await stack.beautyctlOK(["contact", "add", "Spa Ewa", "--phone", "22 123 45 67"])
            var visits: [Int64] = []
            for day in ["2030-03-01 10:00", "2030-03-08 10:00"] {
                let added: AppointmentDetail = try await stack.beautyctlJSON([
                    "appointment", "add", "Strih", "--at", day, "--contact", "Salon Jana",
                ])
                visits.append(try #require(added.appointment.id))
            }
            let edited: Contact = try await stack.beautyctlJSON([
                "contact", "edit", "salon", "--address", "Hlavná 1, Košice",
            ])
            #expect(edited.id == jana.id && edited.address == "Hlavná 1, Košice", "\(edited)")
            let shown = try await stack.beautyctl(["contact", "show", "Salon Jana"])
            #expect(shown.status == .exited(0) && shown.stdout.contains("  visits:  2"), "\(shown)")
            _ = try await stack.beautyctlOK(["contact", "add", "Salon Anna", "--phone", "+48 600 100 200"])
            let ambiguous = try await stack.beautyctl(["contact", "edit", "Salon", "--address", "x"])
            #expect(ambiguous.status == .exited(2) && ambiguous.stderr.contains("matches 2 contacts"), "\(ambiguous)")

            let asked = try await stack.beautyctl(["contact", "rm", "Salon Jana"], lang: "sk_SK.UTF-8")
            #expect(
                asked.status == .exited(2) && asked.stderr.contains("--yes")
                    && asked.stderr.contains("odpojiť 2 návštevy"), "\(asked)")
            let removed = try await stack.beautyctl(["contact", "rm", "Salon Jana", "--yes"])
            #expect(
                removed.status == .exited(0)
                    && removed.stdout.contains("2 appointments keep their data without the link"), "\(removed)")
            for id in visits {
                let visit: AppointmentDetail = try await stack.beautyctlJSON(["appointment", "show", String(id)])
                #expect(visit.appointment.contactID == nil && visit.appointment.title == "Strih")
            }
            let missing = try await stack.beautyctl(["contact", "show", "99"])
            #expect(missing.status == .exited(4) && missing.stderr.contains("no contact with id 99"), "\(missing)")
        }

        @Test(
            "a visit booked in the past is warned of and listed as not marked done; done ahead books the price at the visit"
        )
        func pastVisitsAndDoneAhead() async throws {
            let stack = try await Stack.start(server: false, config: "[money]\ncurrency = \"PLN\"\n")
            defer { stack.shutdown() }
            let yesterday = Date(
                timeIntervalSince1970: ((Date().timeIntervalSince1970 - 86_400) / 60).rounded(.down) * 60)
            let past = try await stack.beautyctl(
                ["appointment", "add", "Henna brwi", "--at", iso(yesterday)], lang: "pl_PL.UTF-8")
            #expect(past.status == .exited(0) && past.stderr.contains("zaczyna się w przeszłości"), "\(past)")
            let listed = try await stack.beautyctl([
                "appointment", "list", "--from", iso(yesterday.addingTimeInterval(-3600)),
            ])
            #expect(
                listed.stdout.contains("past, not marked done") && !listed.stdout.contains("scheduled"), "\(listed)")
            let json: [Appointment] = try await stack.beautyctlJSON([
                "appointment", "list", "--from", iso(yesterday.addingTimeInterval(-3600)),
            ])
            #expect(json.map(\.status) == [.scheduled], "scripts still read the stored status")

            let ahead: AppointmentDetail = try await stack.beautyctlJSON([
                "appointment", "add", "Manicure", "--at", "2030-01-10 10:00", "--price", "120",
            ])
            _ = try await stack.beautyctlOK(["appointment", "done", String(ahead.appointment.id!)])
            let entries: [BudgetEntry] = try await stack.beautyctlJSON(["budget", "list"])
            #expect(entries.map(\.at) == [ahead.appointment.start], "booked when the command ran: \(entries)")
        }

        @Test(
            "appointment add pins a timed visit to the zone it was made in: JSON, show and export carry Europe/Warsaw; all-day stays a date"
        )
        func aNewVisitIsPinnedToItsZone() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let visit: AppointmentDetail = try await stack.beautyctlJSON([
                "appointment", "add", "Strzyżenie", "--at", "2030-03-05 10:00",
            ])
            #expect(
                visit.appointment.timeZone == "Europe/Warsaw"
                    && visit.appointment.start
                        == LocalTime.instant(year: 2030, month: 3, day: 5, hour: 10, minute: 0, in: testTimeZone),
                "\(visit.appointment)")
            let london = try await stack.beautyctl(
                ["appointment", "add", "Call", "--at", "2030-03-06 09:00", "--json"], lang: "C",
                zone: TimeZone(identifier: "Europe/London")!)
            let call = try WireJSON.decoder().decode(AppointmentDetail.self, from: Data(london.stdout.utf8))
            #expect(call.appointment.timeZone == "Europe/London", "\(call.appointment)")
            let spa: AppointmentDetail = try await stack.beautyctlJSON([
                "appointment", "add", "Spa", "--at", "2030-03-07", "--all-day",
            ])
            #expect(spa.appointment.timeZone == nil, "an all-day visit is a date: \(spa.appointment)")
            let file = stack.directory + "/out.ics"
            _ = try await stack.beautyctlOK(["export", "--ics", file])
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(
                text.contains("DTSTART;TZID=Europe/Warsaw:20300305T100000") && text.contains("TZID:Europe/Warsaw")
                    && text.contains("DTSTART;TZID=Europe/London:20300306T090000")
                    && text.contains("DTSTART;VALUE=DATE:20300307"), "\(text)")
        }

        @Test("water import takes the original app's '25-11-2026 18:00:00' times (local)")
        func theSeedAppsExportFormatImports() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let csv = stack.directory + "/health.csv"
            try """
            uuid,amount_ml,start,end
            B1D3A4C2-0000-4000-8000-000000000001,250,25-11-2026 18:00:00,25-11-2026 18:05:00
            B1D3A4C2-0000-4000-8000-000000000002,"330,5",26-11-2026 07:30:00,

            """.write(toFile: csv, atomically: true, encoding: .utf8)
            let imported = try await stack.beautyctl(["water", "import", csv])
            #expect(imported.status == .exited(0) && imported.stdout.contains("Imported 2 new"), "\(imported)")
            let list: [WaterRecord] = try await stack.beautyctlJSON([
                "water", "list", "--from", "2026-11-25", "--to", "2026-11-27",
            ])
            let at = { (day: Int, hour: Int, minute: Int) in
                LocalTime.instant(year: 2026, month: 11, day: day, hour: hour, minute: minute, in: testTimeZone)!
            }
            #expect(
                list.map(\.start) == [at(25, 18, 0), at(26, 7, 30)] && list.first?.end == at(25, 18, 5)
                    && list.map(\.amountMl) == [250, 331], "\(list)")
        }
    }
}

extension EndToEndTiming {
    @Suite("A series' reminder names the occurrence it announces", .serialized)
    struct SeriesReminderDate {
        @Test(
            "a DAILY series begun yesterday: show lists today's reminder, not yesterday's as passed; the reminder names today"
        )
        func aSeriesReminderNamesTheNextOccurrence() async throws {
            let stack = try await Stack.start()
            defer { stack.shutdown() }
            let today = wholeSecond(after: 15)
            let first = today.addingTimeInterval(-86_400)
            let added: AppointmentDetail = try await stack.beautyctlJSON([
                "appointment", "add", "Maseczka", "--at", iso(first),
                "--repeat", "FREQ=DAILY", "--remind", "0s",
            ])
            let id = try #require(added.appointment.id)
            let times = Timestamps(zone: testTimeZone)
            let shown = try await stack.beautyctl(["appointment", "show", String(id)])
            #expect(Date() < today, "the show came after the reminder: the machine is too slow for this test")
            #expect(
                shown.status == .exited(0) && shown.stdout.contains("reminder:  \(times.short(today))")
                    && !shown.stdout.contains("time already passed"), "\(shown)")

            let calls = await stack.waitForNotifications(1, timeout: .seconds(60))
            let call = try #require(calls.first, "no reminder\n\(stack.logs)")
            #expect(
                call.summary == "Maseczka"
                    && call.body.hasPrefix("\(times.long(today))–\(times.clock(today.addingTimeInterval(3600)))"),
                "the reminder names another day: \(call.body)")
        }
    }
}
