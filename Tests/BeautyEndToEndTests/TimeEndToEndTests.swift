import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// Time, end to end: series reminders, treatment cycles, the user's zone followed live, and
// iCalendar import/export through beautyctl.

/// 08:00 on the wall clock of `zone`: today's if still to come after `now`, else tomorrow's.
func nextEight(in zone: TimeZone, after now: Date) -> Date { next(hour: 8, in: zone, after: now) }

/// `hour`:00 on the wall clock of `zone`: today's if still to come after `now`, else tomorrow's.
func next(hour: Int, in zone: TimeZone, after now: Date) -> Date {
    let calendar = LocalTime.calendar(zone)
    let today = calendar.dateComponents([.year, .month, .day], from: now)
    let atHour = LocalTime.instant(year: today.year!, month: today.month!, day: today.day!, hour: hour, in: zone)!
    if atHour > now { return atHour }
    let tomorrow = calendar.dateComponents(
        [.year, .month, .day], from: calendar.date(byAdding: .day, value: 1, to: now)!)
    return LocalTime.instant(year: tomorrow.year!, month: tomorrow.month!, day: tomorrow.day!, hour: hour, in: zone)!
}

extension Stack {
    var appointmentCount: Int {
        get throws { try client().status().counts.appointments }
    }

    /// `beautyctl import FILE` (or any arguments), as it ran.
    func importICS(_ path: String, json: Bool = false) async throws -> CommandResult {
        try await beautyctl(["import", path] + (json ? ["--json"] : []))
    }
}

/// Line 9 has a month 13.
let malformedICS = """
    BEGIN:VCALENDAR
    VERSION:2.0
    PRODID:-//test//EN
    BEGIN:VEVENT
    UID:fine@example.com
    DTSTART:20270301T100000Z
    END:VEVENT
    BEGIN:VEVENT
    DTSTART:2026-13-45
    UID:broken@example.com
    SUMMARY:Broken
    END:VEVENT
    END:VCALENDAR

    """

/// Well-formed iCalendar whose second event beautyd must refuse (`bad` is its extra line).
func refusedICS(_ bad: String) -> String {
    """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//test//EN\r
    BEGIN:VEVENT\r
    UID:new-and-fine@example.com\r
    DTSTART:20270301T100000Z\r
    SUMMARY:Would be new\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:7f3a9b2c5d8e1f4a6b0c@google.com\r
    DTSTART:20261215T093000Z\r
    DTEND:20261215T103000Z\r
    \(bad)\r
    END:VEVENT\r
    END:VCALENDAR\r

    """
}

extension EndToEndTiming {
    @Suite("Time: series, cycles, the user's zone, iCalendar", .serialized)
    struct TimeEndToEnd {
        @Test("--every 1d --after-done: done schedules the next visit a day after today, same time of day")
        func cycleAfterDone() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let calendar = LocalTime.calendar(testTimeZone)
            // The visit was three days ago at 10:30 (Warsaw); it is marked done only today.
            let past = calendar.dateComponents(
                [.year, .month, .day], from: calendar.date(byAdding: .day, value: -3, to: Date())!)
            let at = String(format: "%04d-%02d-%02d 10:30", past.year!, past.month!, past.day!)
            let added = try await stack.beautyctl([
                "appointment", "add", "Manicure", "--at", at, "--every", "1d", "--after-done",
                "--remind", "1h", "--json",
            ])
            try #require(added.status == .exited(0), "\(added)")
            let visit = try WireJSON.decoder().decode(AppointmentDetail.self, from: Data(added.stdout.utf8)).appointment
            #expect(visit.repeatAfterDoneSeconds == 86_400 && visit.recurrence == nil, "\(visit)")

            func tomorrowAtTenThirty(_ now: Date) -> Date {
                let day = calendar.dateComponents(
                    [.year, .month, .day], from: calendar.date(byAdding: .day, value: 1, to: now)!)
                return LocalTime.instant(
                    year: day.year!, month: day.month!, day: day.day!, hour: 10, minute: 30, in: testTimeZone)!
            }
            let before = tomorrowAtTenThirty(Date())
            let done = try await stack.beautyctl(["appointment", "done", "\(visit.id!)", "--json"])
            let after = tomorrowAtTenThirty(Date())  // the same unless local midnight passed in between
            try #require(done.status == .exited(0), "\(done)")
            let detail = try WireJSON.decoder().decode(AppointmentDetail.self, from: Data(done.stdout.utf8))
            #expect(detail.appointment.status == .done)
            let next = try #require(detail.followUp, "no followUp in \(done.stdout)")
            #expect(
                next.start == before || next.start == after, "follow-up at \(iso(next.start)), expected \(iso(after))")
            #expect(next.title == "Manicure" && next.status == .scheduled && next.repeatAfterDoneSeconds == 86_400)
            #expect(next.id != visit.id && next.reminders == [.before(3600)])
            let stored = try stack.client().show(next.id!)
            #expect(
                stored.deliveries.map(\.trigger.fireAt) == [next.start.addingTimeInterval(-3600)],
                "\(stored.deliveries)")

            // The human form says so too; a done visit is not done twice.
            let text = try await stack.beautyctl(["appointment", "done", "\(next.id!)"])
            #expect(text.status == .exited(0) && text.stdout.contains("Next visit of the cycle"), "\(text)")
            #expect(try stack.appointmentCount == 3)
            let again = try await stack.beautyctl(["appointment", "done", "\(visit.id!)", "--json"])
            let repeated = try WireJSON.decoder().decode(AppointmentDetail.self, from: Data(again.stdout.utf8))
            #expect(repeated.followUp == nil, "marking a done visit done again must not add another")
            #expect(try stack.appointmentCount == 3)

            // A series through beautyctl: its rule, occurrences and reminders (when they fire: BeautyDaemonTests).
            let first = tomorrowOnTheHour()
            let series = try await stack.beautyctl([
                "appointment", "add", "Serum", "--at", iso(first),
                "--repeat", "FREQ=SECONDLY;INTERVAL=2;COUNT=3", "--remind", "0s", "--json",
            ])
            try #require(series.status == .exited(0), "\(series)")
            let seriesDetail = try WireJSON.decoder().decode(AppointmentDetail.self, from: Data(series.stdout.utf8))
            let due = (0..<3).map { first.addingTimeInterval(Double($0) * 2) }
            #expect(seriesDetail.appointment.recurrence?.rule == "FREQ=SECONDLY;INTERVAL=2;COUNT=3")
            #expect(seriesDetail.nextOccurrences == due, "\(String(describing: seriesDetail.nextOccurrences))")
            // Occurrences two seconds apart: a series reminds at most once a minute (README, "Time rules").
            #expect(seriesDetail.deliveries.map(\.trigger.fireAt) == [due[0]], "\(seriesDetail.deliveries)")
        }

        @Test("the zone link changes: a daily 08:00 dose moves to 08:00 in the new zone within a second or two")
        func zoneChangeReplansDoses() async throws {
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            let link = stack.directory + "/localtime"
            try FileManager.default.createSymbolicLink(
                atPath: link, withDestinationPath: "/usr/share/zoneinfo/Europe/Warsaw")
            let warsaw = TimeZone(identifier: "Europe/Warsaw")!, newYork = TimeZone(identifier: "America/New_York")!
            // Not within a minute of 08:00 in either zone, so "the next 08:00" cannot change under the test.
            for zone in [warsaw, newYork] {
                let wait = nextEight(in: zone, after: Date()).timeIntervalSinceNow
                if wait < 60 { try await Task.sleep(for: .seconds(wait + 1)) }
            }
            try await stack.startDaemon(environment: ["TZ": "", "BEAUTYD_LOCALTIME": link])

            let added = try await stack.beautyctl(["med", "add", "Iron", "--at", "08:00", "--json"])
            try #require(added.status == .exited(0), "\(added)")
            let med = try WireJSON.decoder().decode(MedicationDetail.self, from: Data(added.stdout.utf8))
            let id = try #require(med.medication.id)
            #expect(med.medication.timeZone == nil)
            let inWarsaw = nextEight(in: warsaw, after: Date())
            #expect(med.upcoming.first == inWarsaw, "followed the link to Warsaw? \(med.upcoming.prefix(2))")
            #expect(try stack.client().status().nextTrigger?.fireAt == inWarsaw)

            // Retarget the link the way timedatectl does: a new link renamed over the old one.
            try FileManager.default.createSymbolicLink(
                atPath: link + ".new", withDestinationPath: "/usr/share/zoneinfo/America/New_York")
            let changed = Date()
            guard rename(link + ".new", link) == 0 else {
                throw HarnessError("rename: \(String(cString: strerror(errno)))")
            }
            let inNewYork = nextEight(in: newYork, after: Date())

            // Re-planned when the stored dose (a real id, pending) and the armed trigger are New York's 08:00.
            let client = try stack.client()
            let replanned = try await eventually(timeout: .seconds(60), interval: .milliseconds(10)) {
                () -> AgendaEntry? in
                var params = AgendaParams(from: Date(), to: Date().addingTimeInterval(2 * 86_400))
                params.kind = .medication
                let agenda: AgendaResult = try client.call("agenda", params)
                guard let first = agenda.entries.first, first.start == inNewYork, first.id != 0,
                    try client.status().nextTrigger?.fireAt == inNewYork
                else { return nil }
                return first
            }
            let delay = Date().timeIntervalSince(changed)
            try #require(replanned != nil, "not re-planned for New York\n\(stack.logs)")
            report(String(format: "zone link renamed -> dose re-planned in the new zone: %.0f ms", delay * 1000))
            #expect(replanned?.status == "pending")
            let utcHour = LocalTime.calendar(TimeZone(identifier: "UTC")!).component(.hour, from: inNewYork)
            #expect(utcHour == (newYork.isDaylightSavingTime(for: inNewYork) ? 12 : 13))

            // What beautyctl shows.
            let agenda: AgendaResult = try await stack.beautyctlJSON([
                "agenda", "--kind", "medication", "--from", iso(Date()), "--to",
                iso(Date().addingTimeInterval(2 * 86_400)),
            ])
            #expect(
                agenda.entries.first?.start == inNewYork && agenda.entries.first?.title == "Iron", "\(agenda.entries)")
            #expect(!agenda.entries.contains { $0.start == inWarsaw }, "\(agenda.entries)")
            let shown: MedicationDetail = try await stack.beautyctlJSON(["med", "show", "\(id)"])
            #expect(shown.upcoming.first == inNewYork, "\(shown.upcoming.prefix(2))")
            let log = stack.daemon?.stderr ?? ""
            #expect(log.contains("America/New_York"), "the daemon log does not mention the new zone:\n\(stack.logs)")

            // Pinned with --tz, a medication stays on Warsaw's clock.
            let pinned: MedicationDetail = try await stack.beautyctlJSON([
                "med", "add", "Thyroid", "--at", "08:00", "--tz", "Europe/Warsaw",
            ])
            #expect(pinned.medication.timeZone == "Europe/Warsaw")
            let pinnedEight = nextEight(in: warsaw, after: Date())
            #expect(pinned.upcoming.first == pinnedEight, "\(pinned.upcoming.prefix(2))")
            let both: AgendaResult = try await stack.beautyctlJSON([
                "agenda", "--kind", "medication", "--from", iso(Date()), "--to",
                iso(Date().addingTimeInterval(86_400)),
            ])
            let thyroid = both.entries.filter { $0.title == "Thyroid" }
            #expect(
                thyroid.first?.start == pinnedEight && thyroid.first?.id != 0,
                "the pinned dose as stored: \(both.entries)")
        }

        @Test(
            "iCalendar: import a Google export, again (nothing new), export, round trip through a second daemon, refusals"
        )
        func iCalendarThroughTheCLI() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let google = stack.directory + "/google.ics"
            try ICalendarFixtures.googleSeries.write(toFile: google, atomically: true, encoding: .utf8)

            let first = try await stack.importICS(google)
            #expect(
                first.status == .exited(0) && first.stdout.contains("Imported 3 new, 0 updated, 0 unchanged"),
                "\(first)")
            let second = try await stack.importICS(google, json: true)
            #expect(second.status == .exited(0), "\(second)")
            let counts = try WireJSON.decoder().decode(AppointmentImportResult.self, from: Data(second.stdout.utf8))
            #expect(counts.inserted == 0 && counts.updated == 0 && counts.unchanged == 3, "\(second)")
            #expect(try stack.appointmentCount == 3)

            // At the right instants: the series on Warsaw's wall clock across the change to summer time.
            let agenda: AgendaResult = try await stack.beautyctlJSON([
                "agenda", "--from", "2026-12-01", "--to", "2027-05-01",
            ])
            let utc = TimeZone(identifier: "UTC")!
            func z(_ m: Int, _ d: Int, _ h: Int, _ min: Int = 0, year: Int = 2027) -> Date {
                LocalTime.instant(year: year, month: m, day: d, hour: h, minute: min, in: utc)!
            }
            #expect(
                agenda.entries.map(\.title) == [
                    "Manicure hybrydowy", "Spa day", "Fryzjer – koloryzacja", "Fryzjer – koloryzacja",
                    "Fryzjer – koloryzacja",
                ], "\(agenda.entries)")
            #expect(
                agenda.entries.map(\.start) == [
                    z(12, 15, 9, 30, year: 2026), z(12, 23, 23, year: 2026), z(1, 12, 14), z(2, 23, 14),
                    z(4, 6, 13),
                ], "\(agenda.entries.map { iso($0.start) })")
            #expect(agenda.entries.map(\.allDay) == [false, true, false, false, false])
            let list: [Appointment] = try await stack.beautyctlJSON([
                "appointment", "list", "--from", "2026-01-01", "--to", "2028-01-01",
            ])
            let series = try #require(list.first { $0.uid == "4k2h7c9q1v3m5n8p0r6s2t4u6w@google.com" }, "\(list)")
            #expect(
                series.notes == "Farbowanie + strzyżenie, zapytać o Olaplex.\nKod do bramy: 1234; parking od podwórza.")
            #expect(series.address == "Salon Anna, ul. Długa 5, Kraków")
            #expect(series.timeZone == "Europe/Warsaw" && series.durationSeconds == 5400)
            #expect(
                series.recurrence?.rule.contains("COUNT=6") == true
                    && series.recurrence?.rule.contains("INTERVAL=6") == true)
            #expect(series.reminders == [.before(1800)])
            #expect(list.first { $0.title == "Manicure hybrydowy" }?.reminders == [.before(1800)])

            // Export, and our own export imports back unchanged.
            let a = stack.directory + "/a.ics"
            let exported = try await stack.beautyctl(["export", "--ics", a])
            #expect(exported.status == .exited(0) && exported.stderr.contains("Exported 3"), "\(exported)")
            let back = try await stack.importICS(a)
            #expect(
                back.status == .exited(0) && back.stdout.contains("Imported 0 new, 0 updated, 3 unchanged"), "\(back)")

            // A second, empty daemon: import a.ics, export b.ics: the same bytes but DTSTAMP, the moment
            // of each export in UTC.
            let other = try await Stack.start(server: false)
            defer { other.shutdown() }
            let intoOther = try await other.importICS(a)
            #expect(intoOther.status == .exited(0) && intoOther.stdout.contains("Imported 3 new"), "\(intoOther)")
            let b = other.directory + "/b.ics"
            let exportedAgain = try await other.beautyctl(["export", "--ics", b])
            #expect(exportedAgain.status == .exited(0), "\(exportedAgain)")
            let textA = try String(contentsOfFile: a, encoding: .utf8),
                textB = try String(contentsOfFile: b, encoding: .utf8)
            let stamps = textA.components(separatedBy: "\r\n").filter { $0.hasPrefix("DTSTAMP:") }
            #expect(stamps.count == 3 && stamps.allSatisfy { $0.count == 24 && $0.hasSuffix("Z") }, "\(stamps)")
            let unstamped = { (text: String) in
                text.components(separatedBy: "\r\n").filter { !$0.hasPrefix("DTSTAMP:") }
            }
            #expect(
                unstamped(textA) == unstamped(textB),
                "export -> import -> export changed the file:\n\(textA)\n---\n\(textB)")
            other.shutdown()

            // A malformed file: exit 2, file:line, nothing imported.
            let broken = stack.directory + "/broken.ics"
            try malformedICS.write(toFile: broken, atomically: true, encoding: .utf8)
            let refused = try await stack.importICS(broken)
            #expect(refused.status == .exited(2), "\(refused)")
            #expect(
                refused.stderr.contains("broken.ics:9:") && refused.stderr.contains("nothing was imported"),
                "\(refused)")
            #expect(try stack.appointmentCount == 3)

            // Well-formed, but beautyd refuses one event: the whole file is refused (exit 1), the other
            // event is neither added nor is the existing one changed.
            let refusals = [
                // The daemon's appointments[1] is named by the file and the line of its BEGIN:VEVENT.
                (
                    "control", "SUMMARY:Manicure\u{1B}[31mhybrydowy",
                    "control.ics:9: title: contains a control character (U+001B) (Manicure?[31mhybrydowy)"
                ),
                ("rrule", "SUMMARY:Manicure hybrydowy\r\nRRULE:FREQ=FORTNIGHTLY", "rrule.ics:9: repeat"),
                (
                    "bidi", "SUMMARY:Invoice \u{202E}gnp.exe",
                    "bidi.ics:9: title: contains a bidirectional control character (U+202E)"
                ),
            ]
            for (name, bad, message) in refusals {
                let path = stack.directory + "/\(name).ics"
                try refusedICS(bad).write(toFile: path, atomically: true, encoding: .utf8)
                let result = try await stack.importICS(path)
                #expect(result.status == .exited(1), "\(name): \(result)")
                #expect(
                    result.stderr.contains(message),
                    "\(name): the message should name the event and the problem: \(result)")
                #expect(
                    !result.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.properties.isBidiControl },
                    "a control character reached the terminal: \(result)")
                #expect(try stack.appointmentCount == 3, "\(name): something was imported")
            }
            let unchanged: [Appointment] = try await stack.beautyctlJSON([
                "appointment", "list", "--from", "2026-01-01", "--to", "2028-01-01",
            ])
            #expect(unchanged == list, "a refused import changed stored appointments")
        }
    }
}
