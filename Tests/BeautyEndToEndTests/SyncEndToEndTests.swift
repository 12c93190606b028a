import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

/// CalDAV sync with the real daemon, beautyctl and real Radicale and Xandikos servers on loopback;
/// the test plays the phone with plain HTTP requests to the server.
extension Stack {
    /// A stack whose own sync waits an hour: only local changes and `sync now` start one.
    static func startForSync(server: Bool = false) async throws -> Stack {
        try await Stack.start(server: server, config: "[sync]\ninterval = \"1h\"\n")
    }

    /// Runs `body` with a `kind` server, a stack (with a notification server when `notifications`) and,
    /// when `follow`, `beautyctl sync add phone` following the server's ready calendar; stops both afterwards.
    static func withSync(
        _ kind: CalDAVTestServer.Kind, notifications: Bool = false, follow: Bool = true,
        _ body: (CalDAVTestServer, Stack) async throws -> Void
    ) async throws {
        let server = try await CalDAVTestServer.start(kind)
        let stack: Stack
        do { stack = try await startForSync(server: notifications) } catch { await server.stop(); throw error }
        defer { stack.shutdown() }
        do {
            if follow { try await stack.followCalendar(of: server) }
            try await body(server, stack)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// `beautyctl sync add phone` following the server's ready calendar.
    func followCalendar(of server: CalDAVTestServer, name: String = "phone") async throws {
        _ = try await beautyctlOK([
            "sync", "add", name, "--url", server.calendarURL.absoluteString, "--user", server.user,
            "--password-file", server.passwordFile,
        ])
    }

    /// `beautyctl sync now NAME --json`, waiting for it to end: a first sync of thousands of events
    /// in a debug build on a loaded machine takes long, and how long is a benchmark's question. The
    /// timeout is a safety net only.
    func syncNow(_ name: String = "phone") async throws -> SyncNowResult {
        let result = try await run(
            try Locations.built("beautyctl"), ["--socket", socketPath, "sync", "now", name, "--json"],
            timeout: .seconds(600))
        guard result.status == .exited(0) else { throw HarnessError("beautyctl sync now \(name): \(result)") }
        return try WireJSON.decoder().decode(SyncNowResult.self, from: Data(result.stdout.utf8))
    }

    func syncStatus(_ name: String = "phone") async throws -> SyncAccountInfo {
        let result: SyncAccountsResult = try await beautyctlJSON(["sync", "status", name])
        guard let account = result.accounts.first else { throw HarnessError("sync status \(name): no account") }
        return account
    }

    func agenda(around date: Date, days: Double = 1) async throws -> AgendaResult {
        try await beautyctlJSON([
            "agenda", "--from", iso(date.addingTimeInterval(-days * 86_400)), "--to",
            iso(date.addingTimeInterval(days * 86_400)),
        ])
    }
}

extension CalDAVTestServer {
    /// The server's events by UID (each resource's first UID).
    func eventsByUID() async throws -> [String: String] {
        var result: [String: String] = [:]
        for (_, text) in try await events() {
            guard let line = text.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix("UID:") }) else {
                continue
            }
            result[String(line.dropFirst(4))] = text
        }
        return result
    }

    /// Puts `count` events straight into the server's storage, as a large calendar already there
    /// (thousands of PUTs would take minutes): Radicale reads its folder, Xandikos its git tree.
    func load(_ count: Int, start: Date, stack: Stack) async throws {
        let events = (0..<count).map { index in
            (
                name: "bulk-\(index).ics",
                ics: Self.event(
                    uid: "bulk-\(index)@phone", summary: "Visit \(index)",
                    start: start.addingTimeInterval(Double(index) * 3600),
                    extra: ["LOCATION:Salon \(index % 7)", "DESCRIPTION:bulk event \(index)"])
            )
        }
        guard kind == .xandikos else { return try seedDirectly(events) }
        let folder = directory + "/data" + calendarURL.path
        for event in events {
            try event.ics.write(toFile: directory + "/data" + path(event.name), atomically: false, encoding: .utf8)
        }
        _ = try await stack.run("/usr/bin/git", ["-C", folder, "add", "-A"])
        let commit = try await stack.run(
            "/usr/bin/git", ["-C", folder, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "bulk"])
        guard commit.status == .exited(0) else { throw HarnessError("git commit: \(commit)") }
    }
}

extension EndToEndTiming {
    @Suite("CalDAV sync: a phone's event reminds once", .serialized)
    struct SyncReminders {
        @Test(
            "an event PUT on the server appears in the agenda after sync now and its VALARM fires once, also after it comes back changed",
            arguments: CalDAVTestServer.Kind.allCases)
        func serverEventRemindsOnce(_ kind: CalDAVTestServer.Kind) async throws {
            try await Stack.withSync(kind, notifications: true) { server, stack in
                let due = wholeSecond(after: 15)
                let start = due.addingTimeInterval(600)
                let alarm = [
                    "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Hairdresser", "TRIGGER:-PT10M", "END:VALARM",
                ]
                try await server.put(
                    server.path("hair.ics"),
                    ics: CalDAVTestServer.event(uid: "hair@phone", summary: "Hairdresser", start: start, extra: alarm))
                let first = try await stack.syncNow()
                #expect(first.fetched == 1 && first.accounts.first?.error == nil, "\(first.accounts)")
                let agenda = try await stack.agenda(around: start)
                #expect(agenda.entries.contains { $0.title == "Hairdresser" && $0.start == start }, "\(agenda.entries)")
                #expect(Date() < due, "the sync took too long to come before the reminder")

                let shown = await stack.waitForNotifications(1, timeout: .seconds(30))
                #expect(shown.first?.summary.contains("Hairdresser") == true, "\(shown)")
                // The phone changes the event's text; it comes back with the same time and reminder.
                try await server.put(
                    server.path("hair.ics"),
                    ics: CalDAVTestServer.event(
                        uid: "hair@phone", summary: "Hairdresser", start: start, extra: alarm + ["LOCATION:Salon Anna"])
                )
                let second = try await stack.syncNow()
                #expect(second.fetched == 1, "\(second.accounts)")
                try await Task.sleep(for: .seconds(2))
                #expect(stack.notifications().count == 1, "shown again after the round trip: \(stack.notifications())")
            }
        }
    }
}

extension EndToEndServing {
    @Suite("CalDAV sync against Radicale and Xandikos", .serialized)
    struct SyncBothWays {
        @Test(
            "beautyctl add reaches the server with its VALARM; edits and deletes travel both ways; unknown properties are kept",
            arguments: CalDAVTestServer.Kind.allCases)
        func bothWays(_ kind: CalDAVTestServer.Kind) async throws {
            try await Stack.withSync(kind) { server, stack in

                let added: AppointmentDetail = try await stack.beautyctlJSON([
                    "appointment", "add", "Manicure", "--at", "2030-03-05 15:00", "--remind", "1h",
                ])
                let id = try #require(added.appointment.id)
                _ = try await stack.syncNow()
                let uid = try #require(
                    try await stack.beautyctlJSON(["appointment", "show", "\(id)"], as: AppointmentDetail.self)
                        .appointment.uid)
                var onServer = try await server.eventsByUID()
                let text = try #require(onServer[uid], "not on the server: \(onServer.keys)")
                #expect(
                    text.contains("SUMMARY:Manicure") && text.contains("BEGIN:VALARM")
                        && text.contains("TRIGGER:-PT1H"), "\(text)")

                _ = try await stack.beautyctlOK(["appointment", "edit", "\(id)", "--title", "Gel manicure"])
                _ = try await stack.syncNow()
                onServer = try await server.eventsByUID()
                #expect(onServer[uid]?.contains("SUMMARY:Gel manicure") == true, "\(onServer[uid] ?? "gone")")

                // The phone edits it, adding a property of its own; beautyd takes the change and keeps the property.
                let href = try #require(try await server.events().first { $0.value.contains("UID:\(uid)") }?.key)
                let phoneText = try #require(onServer[uid]).replacingOccurrences(
                    of: "SUMMARY:Gel manicure", with: "SUMMARY:Gel manicure at Ola\r\nX-PHONE-APP-COLOUR:7")
                try await server.put(href, ics: phoneText)
                _ = try await stack.syncNow()
                let shown: AppointmentDetail = try await stack.beautyctlJSON(["appointment", "show", "\(id)"])
                #expect(shown.appointment.title == "Gel manicure at Ola")
                _ = try await stack.beautyctlOK(["appointment", "edit", "\(id)", "--notes", "bring photos"])
                _ = try await stack.syncNow()
                onServer = try await server.eventsByUID()
                let edited = try #require(onServer[uid])
                #expect(
                    edited.contains("X-PHONE-APP-COLOUR:7") && edited.contains("bring photos"), "stripped: \(edited)")

                // Deleted here: gone there.
                _ = try await stack.beautyctlOK(["appointment", "rm", "\(id)", "--yes"])
                _ = try await stack.syncNow()
                #expect(try await server.eventsByUID()[uid] == nil)

                // Deleted there: gone here.
                let start = try #require(LocalTime.instant(year: 2030, month: 3, day: 6, hour: 10, in: testTimeZone))
                try await server.put(
                    server.path("brows.ics"),
                    ics: CalDAVTestServer.event(uid: "brows@phone", summary: "Brows", start: start))
                _ = try await stack.syncNow()
                #expect(try await stack.agenda(around: start).entries.map(\.title) == ["Brows"])
                try await server.delete(server.path("brows.ics"))
                let removal = try await stack.syncNow()
                #expect(removal.removed == 1, "\(removal.accounts)")
                #expect(try await stack.agenda(around: start).entries.isEmpty)
                let status = try await stack.syncStatus()
                #expect(status.pending == 0 && status.lastError == nil && status.conflicts.isEmpty, "\(status)")
            }
        }

        @Test(
            "appointments stored before the first account go to its server, a series with its changed occurrence in one event",
            arguments: CalDAVTestServer.Kind.allCases)
        func storedAppointmentsGoUp(_ kind: CalDAVTestServer.Kind) async throws {
            try await Stack.withSync(kind, follow: false) { server, stack in
                _ = try await stack.beautyctlOK([
                    "appointment", "add", "Pedicure", "--at", "2030-05-02 10:00", "--remind", "1d",
                ])
                let series: AppointmentDetail = try await stack.beautyctlJSON([
                    "appointment", "add", "Lashes", "--at", "2030-05-06 12:00",
                    "--repeat", "FREQ=WEEKLY;COUNT=4",
                ])
                _ = try await stack.beautyctlOK([
                    "appointment", "cancel", "\(series.appointment.id!)", "--occurrence", "2030-05-13 12:00",
                ])
                try await stack.followCalendar(of: server)
                // (The daemon may have begun this by itself: a new account with appointments to send syncs soon.)
                let report = try await stack.syncNow()
                #expect(report.accounts.first?.error == nil, "\(report.accounts)")
                let events = try await server.events()
                #expect(events.count == 2, "\(events.keys)")
                let lashes = try #require(events.values.first { $0.contains("SUMMARY:Lashes") })
                #expect(
                    lashes.contains("RRULE:FREQ=WEEKLY;COUNT=4") && lashes.contains("RECURRENCE-ID")
                        && lashes.contains("STATUS:CANCELLED"), "\(lashes)")
                #expect(events.values.contains { $0.contains("SUMMARY:Pedicure") && $0.contains("TRIGGER:-P1D") })
            }
        }

        @Test(
            "one occurrence moved on the server moves in beautyd; one moved here goes to the server",
            arguments: CalDAVTestServer.Kind.allCases)
        func occurrenceMoved(_ kind: CalDAVTestServer.Kind) async throws {
            try await Stack.withSync(kind) { server, stack in
                let first = try #require(LocalTime.instant(year: 2030, month: 3, day: 4, hour: 9, in: testTimeZone))
                let series = CalDAVTestServer.event(
                    uid: "yoga@phone", summary: "Massage", start: first, extra: ["RRULE:FREQ=WEEKLY;COUNT=3"])
                try await server.put(server.path("yoga.ics"), ics: series)
                _ = try await stack.syncNow()
                let second = first.addingTimeInterval(7 * 86_400), moved = second.addingTimeInterval(2 * 3600)
                let utc = { (date: Date) in
                    let formatter = DateFormatter()
                    formatter.locale = Locale(identifier: "en_US_POSIX")
                    formatter.timeZone = TimeZone(identifier: "UTC")
                    formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
                    return formatter.string(from: date)
                }
                let occurrence = [
                    "BEGIN:VEVENT", "UID:yoga@phone", "DTSTAMP:20300101T000000Z", "RECURRENCE-ID:\(utc(second))",
                    "DTSTART:\(utc(moved))", "DTEND:\(utc(moved.addingTimeInterval(3600)))", "SUMMARY:Massage (later)",
                    "END:VEVENT",
                ]
                let withMove = series.replacingOccurrences(
                    of: "END:VCALENDAR\r\n", with: occurrence.joined(separator: "\r\n") + "\r\nEND:VCALENDAR\r\n")
                try await server.put(server.path("yoga.ics"), ics: withMove)
                let report = try await stack.syncNow()
                #expect(report.fetched == 1, "\(report.accounts)")
                let agenda = try await stack.agenda(around: second, days: 14)
                let starts = agenda.entries.filter { $0.title.hasPrefix("Massage") }.map(\.start)
                #expect(
                    starts == [first, moved, second.addingTimeInterval(7 * 86_400)],
                    "\(agenda.entries.map { ($0.title, iso($0.start)) })")
                #expect(agenda.entries.contains { $0.title == "Massage (later)" && $0.start == moved })

                // And back: the third occurrence moved here goes to the server as one more RECURRENCE-ID.
                let third = second.addingTimeInterval(7 * 86_400)
                let seriesID = try #require(agenda.entries.first { $0.start == first }?.id)
                let local = DateFormatter()
                local.locale = Locale(identifier: "en_US_POSIX")
                local.timeZone = testTimeZone
                local.dateFormat = "yyyy-MM-dd HH:mm"
                let edited = try await stack.beautyctl([
                    "appointment", "edit", "\(seriesID)", "--occurrence", local.string(from: third),
                    "--at", local.string(from: third.addingTimeInterval(3600)),
                ])
                #expect(edited.status == .exited(0), "\(edited)")
                _ = try await stack.syncNow()
                let text = try #require(try await server.eventsByUID()["yoga@phone"])
                #expect(
                    text.components(separatedBy: "RECURRENCE-ID").count == 3
                        && text.contains("SUMMARY:Massage (later)"), "\(text)")
            }
        }

        @Test(
            "both sides change an event between two syncs: the server's version wins, the local one is a conflict copy",
            arguments: CalDAVTestServer.Kind.allCases)
        func conflictKeepsBoth(_ kind: CalDAVTestServer.Kind) async throws {
            try await Stack.withSync(kind) { server, stack in
                let start = try #require(LocalTime.instant(year: 2030, month: 3, day: 10, hour: 12, in: testTimeZone))
                try await server.put(
                    server.path("facial.ics"),
                    ics: CalDAVTestServer.event(uid: "facial@phone", summary: "Facial", start: start))
                _ = try await stack.syncNow()
                let id = try #require(try await stack.agenda(around: start).entries.first?.id)

                try await server.put(
                    server.path("facial.ics"),
                    ics: CalDAVTestServer.event(uid: "facial@phone", summary: "Facial (phone)", start: start))
                _ = try await stack.beautyctlOK(["appointment", "edit", "\(id)", "--title", "Facial (desktop)"])
                _ = try await stack.syncNow()
                let shown: AppointmentDetail = try await stack.beautyctlJSON(["appointment", "show", "\(id)"])
                #expect(shown.appointment.title == "Facial (phone)")
                let status = try await stack.syncStatus()
                #expect(
                    status.conflicts.count == 1
                        && status.conflicts.first?.ics?.contains("SUMMARY:Facial (desktop)") == true,
                    "\(status.conflicts)")
                #expect(status.pending == 0)
                #expect(try await server.eventsByUID()["facial@phone"]?.contains("SUMMARY:Facial (phone)") == true)
                let text = try await stack.beautyctlOK(["sync", "status"])
                #expect(
                    text.stdout.contains("conflicts:       1") && text.stdout.contains("Facial (desktop)"),
                    "\(text.stdout)")
            }
        }

        @Test(
            "the server stopped while three local changes are made: after its restart all three arrive, once each",
            arguments: CalDAVTestServer.Kind.allCases)
        func offlineChangesArrive(_ kind: CalDAVTestServer.Kind) async throws {
            try await Stack.withSync(kind) { server, stack in
                _ = try await stack.syncNow()
                await server.stop()
                for (title, day) in [("Pedicure", 11), ("Waxing", 12), ("Spa", 13)] {
                    _ = try await stack.beautyctlOK(["appointment", "add", title, "--at", "2030-03-\(day) 10:00"])
                }
                let failed = try await stack.beautyctl(["sync", "now", "phone"])
                #expect(failed.status == .exited(1) && failed.stderr.contains("cannot be reached"), "\(failed)")
                let waiting = try await stack.syncStatus()
                #expect(waiting.pending == 3 && waiting.lastError?.contains("cannot be reached") == true, "\(waiting)")

                try await server.restart()
                let report = try await stack.syncNow()
                #expect(report.pushed == 3, "\(report.accounts)")
                _ = try await stack.syncNow()
                let events = try await server.events()
                #expect(events.count == 3, "\(events.keys)")
                let titles = events.values.compactMap { text in
                    text.split(whereSeparator: \.isNewline).first { $0.hasPrefix("SUMMARY:") }
                }.sorted()
                #expect(titles == ["SUMMARY:Pedicure", "SUMMARY:Spa", "SUMMARY:Waxing"])
                #expect(try await stack.syncStatus().pending == 0)
            }
        }

        @Test(
            "a 2,000-event calendar: the first sync fetches all, one change later fetches one event in a few requests",
            arguments: CalDAVTestServer.Kind.allCases)
        func largeCalendarIncremental(_ kind: CalDAVTestServer.Kind) async throws {
            try await Stack.withSync(kind) { server, stack in
                let start = try #require(LocalTime.instant(year: 2030, month: 1, day: 1, hour: 8, in: testTimeZone))
                try await server.load(2000, start: start, stack: stack)
                let first = try await stack.syncNow()
                #expect(first.fetched == 2000 && first.accounts.first?.error == nil, "\(first.accounts)")
                #expect(try stack.appointmentCount == 2000)
                report(
                    "sync \(kind) first 2000: \(first.requests) requests, \(first.bytesReceived) bytes in, \(String(format: "%.2f", first.seconds)) s"
                )

                try await server.put(
                    server.path("bulk-1234.ics"),
                    ics: CalDAVTestServer.event(
                        uid: "bulk-1234@phone", summary: "Visit moved",
                        start: start.addingTimeInterval(1234 * 3600 + 1800)))
                let second = try await stack.syncNow()
                #expect(second.fetched == 1 && second.pushed == 0, "\(second.accounts)")
                #expect(second.requests <= 3, "requests for one change: \(second.requests)")
                report(
                    "sync \(kind) one change of 2000: \(second.requests) requests, \(second.bytesReceived) bytes in, \(String(format: "%.3f", second.seconds)) s"
                )
                #expect(try stack.appointmentCount == 2000)
            }
        }
    }
}

extension EndToEndServing {
    @Suite("CalDAV sync: setting up an account", .serialized)
    struct SyncSetUp {
        @Test(
            "sync add from the base URL discovers the calendar; a readable password file is refused; several calendars are listed until one is chosen; list and rm",
            arguments: CalDAVTestServer.Kind.allCases)
        func discoveryAndChoice(_ kind: CalDAVTestServer.Kind) async throws {
            try await Stack.withSync(kind, follow: false) { server, stack in
                let base = server.baseURL.absoluteString
                let login = ["--url", base, "--user", server.user]

                let readable = stack.directory + "/readable.pw"
                try server.password.write(toFile: readable, atomically: true, encoding: .utf8)
                chmod(readable, 0o644)
                let refused = try await stack.beautyctl(
                    ["sync", "add", "phone"] + login + ["--password-file", readable])
                #expect(refused.status == .exited(1) && refused.stderr.contains("chmod 600"), "\(refused)")
                // A wrong password names the password file, not the URL (Xandikos as tested checks no password).
                if kind == .radicale {
                    let wrong = stack.directory + "/wrong.pw"
                    try "not-it\n".write(toFile: wrong, atomically: true, encoding: .utf8)
                    chmod(wrong, 0o600)
                    let unauthorized = try await stack.beautyctl(
                        ["sync", "add", "phone"] + login + ["--password-file", wrong])
                    #expect(
                        unauthorized.status == .exited(1) && !unauthorized.stderr.contains("url:")
                            && unauthorized.stderr.contains(
                                "passwordFile: the CalDAV server refused the user name '\(server.user)' or the password in \(wrong)"
                            ), "\(unauthorized)")
                }

                let found: SyncAccountInfo = try await stack.beautyctlJSON(
                    ["sync", "add", "phone"] + login + ["--password-file", server.passwordFile])
                #expect(URL(string: found.calendarURL)?.path == server.calendarURL.path, "\(found)")
                let made: SyncAccountInfo = try await stack.beautyctlJSON(
                    ["sync", "add", "salon"] + login
                        + ["--password-file", server.passwordFile, "--create", "Salon"])
                #expect(made.calendarName == "Salon" && made.calendarURL != found.calendarURL, "\(made)")

                let several = try await stack.beautyctl(
                    ["sync", "add", "third"] + login + ["--password-file", server.passwordFile])
                #expect(
                    several.status == .exited(1) && several.stderr.contains("--calendar")
                        && several.stderr.contains("\"Salon\"")
                        && several.stderr.contains(found.calendarURL), "\(several)")
                let chosen: SyncAccountInfo = try await stack.beautyctlJSON(
                    ["sync", "add", "third"] + login
                        + ["--password-file", server.passwordFile, "--calendar", "Salon"])
                #expect(chosen.calendarURL == made.calendarURL)
                let again = try await stack.beautyctl(
                    ["sync", "add", "third"] + login + ["--password-file", server.passwordFile])
                #expect(again.status == .exited(1) && again.stderr.contains("exists already"), "\(again)")

                _ = try await stack.beautyctlOK(["sync", "rm", "third"])
                let listed: SyncAccountsResult = try await stack.beautyctlJSON(["sync", "list"])
                #expect(listed.accounts.map(\.name) == ["phone", "salon"])
                let unknown = try await stack.beautyctl(["sync", "now", "third"])
                #expect(
                    unknown.status == .exited(1) && unknown.stderr.contains("no sync account named 'third'"),
                    "\(unknown)")
            }
        }

        @Test("a [sync.NAME] table in config.toml is added at start and syncs like one added with beautyctl")
        func accountFromTheConfiguration() async throws {
            let server = try await CalDAVTestServer.start(.radicale)
            let stack = try await Stack.start(
                server: false,
                config: """
                    [sync]
                    interval = "1h"
                    [sync.salon]
                    url = "\(server.calendarURL.absoluteString)"
                    user = "\(server.user)"
                    password_file = "\(server.passwordFile)"
                    """)
            defer { stack.shutdown() }
            let start = try #require(LocalTime.instant(year: 2030, month: 4, day: 2, hour: 11, in: testTimeZone))
            try await server.put(
                server.path("cut.ics"), ics: CalDAVTestServer.event(uid: "cut@phone", summary: "Haircut", start: start))
            let added = await eventually(timeout: .seconds(20), interval: .milliseconds(100)) {
                () -> SyncAccountsResult? in
                guard let result = try? stack.client().call("sync.list", NoParams(), as: SyncAccountsResult.self),
                    !result.accounts.isEmpty
                else { return nil }
                return result
            }
            #expect(added?.accounts.map(\.name) == ["salon"], "\(stack.logs)")
            let report = try await stack.syncNow("salon")
            #expect(report.fetched == 1 && report.accounts.first?.error == nil, "\(report.accounts)")
            #expect(try await stack.agenda(around: start).entries.map(\.title) == ["Haircut"])
            await server.stop()
        }
    }
}
