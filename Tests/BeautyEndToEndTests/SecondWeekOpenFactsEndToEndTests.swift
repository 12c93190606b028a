import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndServing {
    @Suite(
        "A second week: the weight chart over months, prices and past visits in the agenda, zones pinned by edits",
        .serialized)
    struct SecondWeekOpenFacts {
        @Test(
            "measure chart --from/--to draws weekly averages over half a year (pl), --json gives the days and the columns, --months counts back from this month"
        )
        func aWeightChartOverARange() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            for (day, kg) in [("2025-01-06", "64"), ("2025-01-08", "65"), ("2025-03-20", "63,5"), ("2025-06-30", "62")]
            {
                _ = try await stack.beautyctlOK(["measure", "add", "--weight", kg, "--height", "168", "--date", day])
            }
            let chart: MeasurementRangeChart = try await stack.beautyctlJSON([
                "measure", "chart", "--from", "2025-01-01", "--to", "2025-06-30",
            ])
            #expect(
                chart.bucket == .week && chart.points.map(\.value) == [64, 65, 63.5, 62] && chart.columns.count == 27,
                "\(chart)")
            let january = try LocalDate(parsing: "2025-01-01")
            #expect(
                chart.columns.first?.value == nil && chart.columns.first?.first == january
                    && chart.columns[1].value == 64.5 && chart.columns[1].daysWithData == 2,
                "\(chart.columns.prefix(2))")

            let polish = try await stack.beautyctl(
                ["measure", "chart", "--from", "2025-01-01", "--to", "2025-06-30"], lang: "pl_PL.UTF-8")
            #expect(
                polish.status == .exited(0)
                    && polish.stdout.hasPrefix("Masa ciała [kg], 1.01.2025 – 30.06.2025 (średnie tygodniowe)")
                    && polish.stdout.filter { $0 == "●" }.count == 3 && polish.stdout.contains("4 dni z danymi"),
                "\(polish)")
            let bmi = try await stack.beautyctl(["measure", "chart", "--from", "01.01.2025", "--unit", "bmi"])
            #expect(
                bmi.status == .exited(0) && bmi.stdout.hasPrefix("BMI, 1 Jan 2025 – ")
                    && bmi.stdout.contains("(monthly averages)"), "\(bmi)")

            let today = LocalDate(Date(), in: testTimeZone)
            let recent: MeasurementRangeChart = try await stack.beautyctlJSON(["measure", "chart", "--months", "3"])
            let back = today.year * 12 + today.month - 1 - 2
            #expect(
                recent.from == LocalDate(year: back / 12, month: back % 12 + 1, day: 1) && recent.to == today
                    && recent.points.isEmpty, "\(recent)")

            let mixed = try await stack.beautyctl(["measure", "chart", "--month", "2025-01", "--from", "2025-01-01"])
            #expect(
                mixed.status == .exited(2)
                    && mixed.stderr.contains("--month cannot be combined with --from/--to or --months"), "\(mixed)")
            let file = stack.directory + "/w.svg"
            let svg = try await stack.beautyctl(
                ["measure", "chart", "--from", "2025-01-01", "--to", "2025-06-30", "--svg", file], lang: "sk_SK.UTF-8")
            #expect(svg.status == .exited(0) && svg.stdout.contains(file), "\(svg)")
            let drawn = try String(contentsOfFile: file, encoding: .utf8)
            #expect(
                drawn.components(separatedBy: "<circle class=\"point\"").count - 1 == 3
                    && drawn.contains("týždenné priemery")
                    && drawn.contains("priemer z 2 dní"), "\(drawn)")
            let nothing = try await stack.beautyctl([
                "measure", "chart", "--months", "1", "--svg", stack.directory + "/none.svg",
            ])
            #expect(
                nothing.status == .exited(0) && nothing.stdout.contains("no chart written")
                    && !FileManager.default.fileExists(atPath: stack.directory + "/none.svg"),
                "\(nothing)")
            let backwards = try await stack.beautyctl([
                "measure", "chart", "--from", "2025-07-01", "--to", "2025-06-01",
            ])
            #expect(
                backwards.status == .exited(2)
                    && backwards.stderr.contains("--from: 2025-07-01 is after --to (2025-06-01)"), "\(backwards)")
        }

        @Test(
            "agenda --sort price shows each visit's price (pl: zł, 'bez ceny'), and only then; JSON entries carry the price"
        )
        func theAgendaSortedByPriceShowsPrices() async throws {
            let stack = try await Stack.start(server: false, config: "[money]\ncurrency = \"PLN\"\n")
            defer { stack.shutdown() }
            _ = try await stack.beautyctlOK([
                "appointment", "add", "Henna", "--at", "2030-03-01 10:00", "--price", "45,50",
            ])
            _ = try await stack.beautyctlOK([
                "appointment", "add", "Manicure", "--at", "2030-03-02 10:00", "--price", "120",
            ])
            _ = try await stack.beautyctlOK(["appointment", "add", "Konsultacja", "--at", "2030-03-03 10:00"])
            let range = ["agenda", "--from", "2030-03-01", "--to", "2030-03-04"]
            let sorted = try await stack.beautyctl(range + ["--sort", "price", "--reverse"], lang: "pl_PL.UTF-8")
            let lines = sorted.stdout.split(separator: "\n").map(String.init).filter { $0.contains("#") }
            #expect(sorted.status == .exited(0) && lines.count == 3, "\(sorted)")
            #expect(
                lines.count == 3
                    && lines[0].contains("Manicure  (\(Money(cents: 12_000, currency: "PLN").formatted(.polish))")
                    && lines[1].contains("Henna  (\(Money(cents: 4_550, currency: "PLN").formatted(.polish))")
                    && lines[2].contains("Konsultacja  (bez ceny"), "\(lines)")
            let plain = try await stack.beautyctl(range)
            #expect(
                plain.status == .exited(0) && !plain.stdout.contains("PLN") && !plain.stdout.contains("no price"),
                "\(plain)")
            let json: AgendaResult = try await stack.beautyctlJSON(range)
            #expect(
                json.entries.map(\.price) == [
                    Money(cents: 4_550, currency: "PLN"), Money(cents: 12_000, currency: "PLN"), nil,
                ], "\(json.entries)")
        }

        @Test(
            "the agenda shows a visit that ended unmarked as 'past, not marked done' (en, pl, sk); a done one as done; --json keeps 'scheduled'"
        )
        func theAgendaMarksPastVisits() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let start = Date(
                timeIntervalSince1970: ((Date().timeIntervalSince1970 - 3 * 3600) / 60).rounded(.down) * 60)
            let past: AppointmentDetail = try await stack.beautyctlJSON([
                "appointment", "add", "Henna brwi", "--at", iso(start),
            ])
            let done: AppointmentDetail = try await stack.beautyctlJSON([
                "appointment", "add", "Peeling", "--at", iso(start.addingTimeInterval(-1800)), "--duration", "30m",
            ])
            _ = try await stack.beautyctlOK(["appointment", "done", String(done.appointment.id!)])
            _ = try await stack.beautyctlOK([
                "appointment", "add", "Manicure", "--at", iso(start.addingTimeInterval(2 * 86_400)),
            ])
            let range = [
                "agenda", "--from", iso(start.addingTimeInterval(-86_400)), "--to",
                iso(start.addingTimeInterval(3 * 86_400)),
            ]
            func line(_ output: String, _ title: String) -> String {
                output.split(separator: "\n").first { $0.contains(title) }.map(String.init) ?? ""
            }
            let english = try await stack.beautyctl(range)
            #expect(
                line(english.stdout, "Henna brwi").hasSuffix("(past, not marked done)")
                    && line(english.stdout, "Peeling").hasSuffix("(done)")
                    && !line(english.stdout, "Manicure").contains("("), "\(english)")
            let polish = try await stack.beautyctl(range, lang: "pl_PL.UTF-8")
            #expect(line(polish.stdout, "Henna brwi").hasSuffix("(minęła, nieoznaczona jako odbyta)"), "\(polish)")
            let slovak = try await stack.beautyctl(range, lang: "sk_SK.UTF-8")
            #expect(
                !line(slovak.stdout, "Henna brwi").isEmpty && !line(slovak.stdout, "Henna brwi").hasSuffix("brwi"),
                "\(slovak)")
            let json: AgendaResult = try await stack.beautyctlJSON(range)
            #expect(json.entries.first { $0.id == past.appointment.id }?.status == "scheduled", "\(json.entries)")
        }

        @Test(
            "edits that give a floating or all-day visit a time pin it to beautyd's zone (export writes TZID); occurrences and --clear tz stay floating"
        )
        func editsPinTheZone() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let spa: AppointmentDetail = try await stack.beautyctlJSON([
                "appointment", "add", "Spa", "--at", "2030-03-07", "--all-day",
            ])
            let id = String(spa.appointment.id!)
            let timed: AppointmentDetail = try await stack.beautyctlJSON([
                "appointment", "edit", id, "--no-all-day", "--at", "2030-03-07 10:00",
            ])
            #expect(timed.appointment.timeZone == "Europe/Warsaw" && !timed.appointment.allDay, "\(timed.appointment)")

            let file = stack.directory + "/floating.ics"
            try """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//test//floating//EN\r
            BEGIN:VEVENT\r
            UID:floating-1@test\r
            DTSTAMP:20300101T000000Z\r
            DTSTART:20300308T090000\r
            DTEND:20300308T100000\r
            SUMMARY:Floating\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:floating-2@test\r
            DTSTAMP:20300101T000000Z\r
            DTSTART:20300309T090000\r
            DTEND:20300309T100000\r
            SUMMARY:Kept floating\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:floating-series@test\r
            DTSTAMP:20300101T000000Z\r
            DTSTART:20300311T090000\r
            DTEND:20300311T100000\r
            RRULE:FREQ=WEEKLY;COUNT=4\r
            SUMMARY:Weekly\r
            END:VEVENT\r
            END:VCALENDAR\r

            """.write(toFile: file, atomically: true, encoding: .utf8)
            _ = try await stack.beautyctlOK(["import", file])
            let all: [Appointment] = try await stack.beautyctlJSON(["appointment", "list", "--from", "2030-03-01"])
            func idOf(_ title: String) throws -> String { String(try #require(all.first { $0.title == title }?.id)) }
            #expect(
                all.filter { $0.title != "Spa" }.allSatisfy { $0.timeZone == nil }, "the file said floating: \(all)")

            let retitled: AppointmentDetail = try await stack.beautyctlJSON([
                "appointment", "edit", try idOf("Floating"), "--title", "Floating visit",
            ])
            #expect(retitled.appointment.timeZone == nil, "a new title alone keeps it floating")
            let moved: AppointmentDetail = try await stack.beautyctlJSON([
                "appointment", "edit", try idOf("Floating"), "--at", "2030-03-08 11:00",
            ])
            #expect(moved.appointment.timeZone == "Europe/Warsaw", "\(moved.appointment)")
            let kept: AppointmentDetail = try await stack.beautyctlJSON([
                "appointment", "edit", try idOf("Kept floating"), "--at", "2030-03-09 11:00", "--clear", "tz",
            ])
            #expect(kept.appointment.timeZone == nil, "\(kept.appointment)")
            let occurrence: AppointmentDetail = try await stack.beautyctlJSON([
                "appointment", "edit", try idOf("Weekly"), "--occurrence", "2030-03-18 09:00",
                "--at", "2030-03-18 10:00",
            ])
            #expect(
                occurrence.appointment.timeZone == nil && occurrence.appointment.seriesID != nil,
                "an occurrence keeps its series' zone: \(occurrence.appointment)")

            let out = stack.directory + "/out.ics"
            _ = try await stack.beautyctlOK(["export", "--ics", out])
            let text = try String(contentsOfFile: out, encoding: .utf8)
            #expect(
                text.contains("DTSTART;TZID=Europe/Warsaw:20300307T100000")
                    && text.contains("DTSTART;TZID=Europe/Warsaw:20300308T110000")
                    && text.contains("BEGIN:VTIMEZONE") && text.contains("DTSTART:20300309T110000")
                    && text.contains("DTSTART:20300311T090000"), "\(text)")
        }

        @Test(
            "sync: a visit an edit makes timed goes to Radicale with TZID and its VTIMEZONE; a phone's floating event stays floating until its time is edited here"
        )
        func pushedEditsCarryTheirZone() async throws {
            try await Stack.withSync(.radicale) { server, stack in
                let spa: AppointmentDetail = try await stack.beautyctlJSON([
                    "appointment", "add", "Spa", "--at", "2030-03-07", "--all-day",
                ])
                _ = try await stack.beautyctlOK([
                    "appointment", "edit", String(spa.appointment.id!), "--no-all-day", "--at", "2030-03-07 10:00",
                ])
                try await server.put(
                    server.path("floating.ics"),
                    ics: """
                        BEGIN:VCALENDAR\r
                        VERSION:2.0\r
                        PRODID:-//phone//EN\r
                        BEGIN:VEVENT\r
                        UID:floating@phone\r
                        DTSTAMP:20300101T000000Z\r
                        DTSTART:20300308T090000\r
                        DTEND:20300308T100000\r
                        SUMMARY:Brows\r
                        END:VEVENT\r
                        END:VCALENDAR\r

                        """)
                _ = try await stack.syncNow()
                let pulled: [Appointment] = try await stack.beautyctlJSON([
                    "appointment", "list", "--from", "2030-03-01",
                ])
                let brows = try #require(pulled.first { $0.title == "Brows" }, "\(pulled)")
                #expect(brows.timeZone == nil, "the server's event is floating: \(brows)")
                _ = try await stack.beautyctlOK(["appointment", "edit", String(brows.id!), "--at", "2030-03-08 11:00"])
                _ = try await stack.syncNow()
                let onServer = try await server.eventsByUID()
                let pushed = try #require(
                    onServer[spa.appointment.uid ?? ""] ?? onServer.values.first { $0.contains("SUMMARY:Spa") },
                    "\(onServer.keys)")
                #expect(
                    pushed.contains("DTSTART;TZID=Europe/Warsaw:20300307T100000") && pushed.contains("BEGIN:VTIMEZONE")
                        && pushed.contains("TZID:Europe/Warsaw"), "\(pushed)")
                let moved = try #require(onServer["floating@phone"])
                #expect(
                    moved.contains("DTSTART;TZID=Europe/Warsaw:20300308T110000") && moved.contains("BEGIN:VTIMEZONE"),
                    "\(moved)")
            }
        }
    }
}
