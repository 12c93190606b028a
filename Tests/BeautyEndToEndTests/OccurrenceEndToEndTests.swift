import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndTiming {
    @Suite("One occurrence of a series: real beautyctl, daemon and notification server", .serialized)
    struct OccurrenceChanges {
        @Test(
            "a moved occurrence reminds at its new time and not the old one; a cancelled one does not remind; the agenda shows both"
        )
        func movedAndCancelledOccurrences() async throws {
            let stack = try await Stack.start()
            defer { stack.shutdown() }
            // Daily series whose first visit is a day after `due`, reminded a day before: `due` is the one
            // reminder near. Both series' first occurrences are changed before it comes.
            let due = wholeSecond(after: 8)
            let first = due.addingTimeInterval(86_400)
            let nails: AppointmentDetail = try await stack.beautyctlJSON([
                "appointment", "add", "Nails", "--at", iso(first),
                "--repeat", "FREQ=DAILY", "--remind", "1d",
            ])
            let brows: AppointmentDetail = try await stack.beautyctlJSON([
                "appointment", "add", "Brows", "--at", iso(first),
                "--repeat", "FREQ=DAILY", "--remind", "1d",
            ])
            let nailsID = try #require(nails.appointment.id), browsID = try #require(brows.appointment.id)

            let later = first.addingTimeInterval(5)
            let moved: AppointmentDetail = try await stack.beautyctlJSON([
                "appointment", "edit", "\(nailsID)", "--occurrence", iso(first),
                "--at", iso(later),
            ])
            #expect(
                moved.appointment.seriesID == nailsID && moved.appointment.recurrenceID == first
                    && moved.appointment.start == later)
            #expect(moved.deliveries.map(\.trigger.fireAt) == [due.addingTimeInterval(5)], "\(moved.deliveries)")
            let cancelled = try await stack.beautyctlOK([
                "appointment", "cancel", "\(browsID)", "--occurrence", iso(first),
            ])
            #expect(cancelled.stdout.contains("'Brows' is cancelled"), "\(cancelled)")
            #expect(Date() < due, "the changes took too long to come before the reminder")

            let calls = await stack.waitForNotifications(1, timeout: .seconds(20))
            await sleep(until: due.addingTimeInterval(8))
            let all = stack.notifications()
            #expect(all.count == 1 && calls.first?.summary.contains("Nails") == true, "\(all)")
            if let shown = all.first {
                #expect(shown.date >= due.addingTimeInterval(5), "shown at the old time: \(shown)")
            }

            let agenda: AgendaResult = try await stack.beautyctlJSON([
                "agenda", "--from", iso(first.addingTimeInterval(-60)),
                "--to", iso(first.addingTimeInterval(60)),
            ])
            let nailsEntries = agenda.entries.filter { $0.title == "Nails" },
                browsEntries = agenda.entries.filter { $0.title == "Brows" }
            #expect(
                nailsEntries.map(\.start) == [later] && nailsEntries.map(\.id) == [moved.appointment.id!],
                "\(agenda.entries)")
            #expect(browsEntries.map(\.status) == ["cancelled"], "\(agenda.entries)")
            let text = try await stack.beautyctlOK([
                "agenda", "--from", iso(first.addingTimeInterval(-60)), "--to", iso(first.addingTimeInterval(60)),
            ])
            #expect(
                text.stdout.split(separator: "\n").contains { $0.contains("Brows") && $0.contains("cancelled") },
                "\(text.stdout)")
            let series = try await stack.beautyctlOK(["appointment", "show", "\(nailsID)"])
            #expect(
                series.stdout.contains("changed:")
                    && series.stdout.contains("(appointment \(moved.appointment.id ?? 0))"), "\(series)")
        }

        @Test(
            "split a counted series with a move, a wrong occurrence refused with the nearest, rm of one occurrence and of the series"
        )
        func splitRefusalAndRemoval() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            func at(_ day: Int, _ hour: Int) -> Date {
                LocalTime.instant(year: 2030, month: 3, day: day, hour: hour, in: testTimeZone)!
            }
            let added: AppointmentDetail = try await stack.beautyctlJSON([
                "appointment", "add", "Laser", "--at", "2030-03-01 15:00",
                "--repeat", "FREQ=WEEKLY;COUNT=5",
            ])
            let id = try #require(added.appointment.id)

            let wrong = try await stack.beautyctl([
                "appointment", "edit", "\(id)", "--occurrence", "2030-03-09 15:00", "--title", "x",
            ])
            #expect(
                wrong.status == .exited(1)
                    && wrong.stderr.contains("2030-03-09 15:00 is not an occurrence of appointment \(id)")
                    && wrong.stderr.contains("2030-03-08 15:00, 2030-03-15 15:00"), "\(wrong)")

            let split: AppointmentDetail = try await stack.beautyctlJSON([
                "appointment", "split", "\(id)", "--occurrence", "2030-03-15 15:00",
                "--at", "2030-03-15 16:00",
            ])
            #expect(
                split.appointment.recurrence?.rule == "FREQ=WEEKLY;COUNT=3" && split.appointment.start == at(15, 16))
            let head: AppointmentDetail = try await stack.beautyctlJSON(["appointment", "show", "\(id)"])
            #expect(head.appointment.recurrence?.rule == "FREQ=WEEKLY;COUNT=2")
            #expect(
                try await stack.agenda2030([]).entries.map(\.start) == [
                    at(1, 15), at(8, 15), at(15, 16), at(22, 16), at(29, 16),
                ])

            let removed = try await stack.beautyctlOK([
                "appointment", "rm", "\(split.appointment.id!)", "--occurrence", "2030-03-22 16:00", "--yes",
            ])
            #expect(removed.stdout.contains("Deleted the 2030-03-22 16:00 occurrence"), "\(removed)")
            _ = try await stack.beautyctlOK(["appointment", "done", "\(id)", "--occurrence", "2030-03-08 15:00"])
            let agenda = try await stack.agenda2030([])
            #expect(agenda.entries.map(\.start) == [at(1, 15), at(8, 15), at(15, 16), at(29, 16)])
            #expect(agenda.entries.map(\.status) == ["scheduled", "done", "scheduled", "scheduled"])
            _ = try await stack.beautyctlOK(["appointment", "rm", "\(id)", "--yes"])
            #expect(try stack.appointmentCount == 1, "the series' done occurrence went with it")
        }

        @Test(
            "import a series with two changed occurrences, again (nothing new), export: RECURRENCE-ID components with the series' UID"
        )
        func importAndExportChangedOccurrences() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let file = stack.directory + "/series.ics"
            try crlf(
                """
                BEGIN:VCALENDAR
                VERSION:2.0
                BEGIN:VEVENT
                UID:hair@example.org
                DTSTART;TZID=Europe/Warsaw:20301204T150000
                DURATION:PT1H
                RRULE:FREQ=WEEKLY;COUNT=4
                SUMMARY:Hairdresser
                END:VEVENT
                BEGIN:VEVENT
                UID:hair@example.org
                RECURRENCE-ID;TZID=Europe/Warsaw:20301211T150000
                DTSTART;TZID=Europe/Warsaw:20301211T170000
                DURATION:PT1H
                SUMMARY:Hairdresser (later)
                END:VEVENT
                BEGIN:VEVENT
                UID:hair@example.org
                RECURRENCE-ID;TZID=Europe/Warsaw:20301218T150000
                DTSTART;TZID=Europe/Warsaw:20301218T150000
                DURATION:PT1H
                SUMMARY:Hairdresser
                STATUS:CANCELLED
                END:VEVENT
                END:VCALENDAR
                """
            ).write(toFile: file, atomically: true, encoding: .utf8)
            let first = try await stack.importICS(file)
            #expect(
                first.status == .exited(0) && first.stdout.contains("Imported 3 new, 0 updated, 0 unchanged"),
                "\(first)")
            let again = try await stack.importICS(file)
            #expect(again.stdout.contains("Imported 0 new, 0 updated, 3 unchanged"), "\(again)")
            let december: AgendaResult = try await stack.beautyctlJSON([
                "agenda", "--from", "2030-12-01", "--to", "2031-01-01",
            ])
            #expect(
                december.entries.map(\.start)
                    == ["2030-12-04 15:00", "2030-12-11 17:00", "2030-12-18 15:00", "2030-12-25 15:00"].map {
                        instant($0)
                    },
                "\(december.entries)")
            #expect(december.entries.map(\.status) == ["scheduled", "scheduled", "cancelled", "scheduled"])

            let out = stack.directory + "/out.ics"
            _ = try await stack.beautyctlOK(["export", "--ics", out])
            let text = try String(contentsOfFile: out, encoding: .utf8)
            #expect(text.components(separatedBy: "UID:hair@example.org\r\n").count == 4, "\(text)")
            #expect(
                text.contains("RECURRENCE-ID;TZID=Europe/Warsaw:20301211T150000")
                    && text.contains("RECURRENCE-ID;TZID=Europe/Warsaw:20301218T150000"), "\(text)")
            #expect(!text.contains("EXDATE") && !text.contains("#"), "\(text)")
            let back = try await stack.importICS(out)
            #expect(back.stdout.contains("Imported 0 new, 0 updated, 3 unchanged"), "\(back)")

            // A changed occurrence alone, carrying its series' RRULE: one appointment, not a new series.
            let alone = stack.directory + "/alone.ics"
            try crlf(
                """
                BEGIN:VCALENDAR
                VERSION:2.0
                BEGIN:VEVENT
                UID:brows@example.org
                RECURRENCE-ID:20301203T090000Z
                DTSTART:20301203T100000Z
                DURATION:PT30M
                RRULE:FREQ=DAILY
                SUMMARY:Brows
                END:VEVENT
                END:VCALENDAR
                """
            ).write(toFile: alone, atomically: true, encoding: .utf8)
            let single = try await stack.importICS(alone)
            #expect(
                single.stdout.contains("Imported 1 new")
                    && single.stdout.contains("has an RRULE: the rule was not imported"), "\(single)")
            let brows: AgendaResult = try await stack.beautyctlJSON([
                "agenda", "--from", "2030-12-01", "--to", "2031-12-01", "--search", "Brows",
            ])
            #expect(brows.entries.count == 1, "\(brows.entries.count) entries")
        }
    }
}
