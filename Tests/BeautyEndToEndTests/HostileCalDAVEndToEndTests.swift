import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension HostileCalDAVServer {
    /// `beautyctl sync add NAME` following this server's calendar.
    func follow(in stack: Stack, as name: String) async throws {
        _ = try await stack.beautyctlOK([
            "sync", "add", name, "--url", calendarURL.absoluteString, "--user", "anna", "--password-file", passwordFile,
        ])
    }
}

extension EndToEndServing {
    @Suite("CalDAV sync against a hostile server", .serialized)
    struct HostileCalDAV {
        @Test(
            "hrefs to another host, port or outside the calendar are ignored and reported; nothing, least the password, reaches them"
        )
        func hrefsOutsideTheCalendarGetNothing() async throws {
            let stack = try await Stack.startForSync()
            defer { stack.shutdown() }
            let server = try await HostileCalDAVServer(stack: stack)

            // Discovery that names a principal and home on another host finds nothing there to follow.
            let discovery = try await stack.beautyctl([
                "sync", "add", "found", "--url", "http://127.0.0.1:\(server.port)/", "--user", "anna",
                "--password-file", server.passwordFile,
            ])
            #expect(discovery.status != .exited(0), "\(discovery)")

            try await server.follow(in: stack, as: "evil")
            _ = try await stack.beautyctlOK(["appointment", "add", "Good", "--at", "2030-03-02T10:00:00+01:00"])
            let first = try await stack.syncNow("evil")
            #expect(first.accounts.first?.error == nil, "\(first.accounts)")
            let status = try await stack.syncStatus("evil")
            let warning = status.warnings?.map(\.english).joined() ?? ""
            #expect(warning.contains("5 item(s) outside the calendar"), "\(String(describing: status.warnings))")
            let shown = try await stack.beautyctlOK(["sync", "status", "evil"]).stdout
            #expect(
                shown.contains("warning:") && shown.contains("127.0.0.2:\(server.trapPort)/steal/a.ics"), "\(shown)")

            // Whatever the sync brought, the user deletes it all: deletions go back to the server.
            let listed: [Appointment] = try await stack.beautyctlJSON([
                "appointment", "list", "--from", "2030-01-01", "--to", "2031-01-01",
            ])
            #expect(listed.map(\.title) == ["Good"], "planted events were imported: \(listed.map(\.title))")
            for appointment in listed {
                _ = try await stack.beautyctlOK(["appointment", "rm", String(appointment.id ?? 0), "--yes"])
            }
            let second = try? await stack.syncNow("evil")
            #expect(second?.accounts.first?.error == nil, "\(String(describing: second?.accounts))")

            #expect(server.trapped.isEmpty, "requests reached another host or port: \(server.trapped)")
            #expect(
                server.writes.allSatisfy { $0.hasPrefix("PUT /cal/") || $0.hasPrefix("DELETE /cal/") }
                    && !server.writes.contains { $0.contains("..") || $0.contains("%") },
                "writes outside /cal/: \(server.writes)")
            #expect(
                server.writes.contains { $0.hasPrefix("DELETE /cal/") },
                "the deletion did not reach the server: \(server.writes)")
        }

        @Test(
            "a server that forgets its token and lists nothing cannot delete every appointment; --allow-deletions does, and sync trash keeps them"
        )
        func anEmptiedServerDoesNotEmptyTheCalendar() async throws {
            let stack = try await Stack.startForSync()
            defer { stack.shutdown() }
            let server = try await HostileCalDAVServer(stack: stack)
            try await server.control("hostile-off")
            try await server.follow(in: stack, as: "evil")
            for day in 1...8 {
                var arguments = ["appointment", "add", "Visit \(day)", "--at", "2030-04-0\(day)T10:00:00+02:00"]
                if day == 1 { arguments += ["--remind-at", "2030-04-01T09:00:00+02:00"] }
                _ = try await stack.beautyctlOK(arguments)
            }
            let pushed = try await stack.syncNow("evil")
            #expect(pushed.accounts.first?.error == nil, "\(pushed.accounts)")
            let settled = await eventually(timeout: .seconds(60)) { () -> Bool? in
                server.writes.filter { $0.hasPrefix("PUT /cal/") }.count >= 8 ? true : nil
            }
            #expect(settled == true, "\(server.writes)")

            try await server.control("forget")
            let held = try await stack.syncNow("evil")
            #expect(held.accounts.first?.heldBack == 8 && held.removed == 0, "\(held.accounts)")
            func visits() async throws -> [Appointment] {
                try await stack.beautyctlJSON(["appointment", "list", "--from", "2030-04-01", "--to", "2030-05-01"])
            }
            #expect(try await visits().count == 8)
            let status = try await stack.syncStatus("evil")
            #expect(
                status.warnings?.map(\.english).joined().contains("would delete 8 of 8 appointments") == true,
                "\(String(describing: status.warnings))")
            let shown = try await stack.beautyctlOK(["sync", "status", "evil"]).stdout
            #expect(shown.contains("--allow-deletions"), "\(shown)")

            let allowed = try await stack.run(
                try Locations.built("beautyctl"),
                ["--socket", stack.socketPath, "sync", "now", "evil", "--allow-deletions", "--json"])
            let applied = try WireJSON.decoder().decode(SyncNowResult.self, from: Data(allowed.stdout.utf8))
            #expect(applied.removed == 8, "\(allowed)")
            #expect(try await visits().isEmpty)

            let trash: SyncTrashResult = try await stack.beautyctlJSON(["sync", "trash", "evil"])
            #expect(
                Set(trash.entries.map(\.title)) == Set((1...8).map { "Visit \($0)" }), "\(trash.entries.map(\.title))")
            let first = try #require(trash.entries.first { $0.title == "Visit 1" })
            #expect(first.ics.contains("BEGIN:VALARM"), "\(first.ics)")
            let listing = try await stack.beautyctlOK(["sync", "trash"]).stdout
            #expect(listing.contains("Visit 1"), "\(listing)")

            let restored: SyncRestoreDeletedResult = try await stack.beautyctlJSON([
                "sync", "restore-deleted", String(first.id),
            ])
            #expect(restored.title == "Visit 1" && restored.restored == 1)
            let back = try await visits()
            #expect(back.map(\.title) == ["Visit 1"] && back.first?.reminders.count == 1, "\(back)")
            let again: SyncTrashResult = try await stack.beautyctlJSON(["sync", "trash"])
            #expect(again.entries.count == 7)
            let unknown = try await stack.beautyctl(["sync", "restore-deleted", String(first.id)])
            #expect(unknown.status != .exited(0) && unknown.stderr.contains("sync trash"), "\(unknown)")
            // It goes to the server again.
            _ = try await stack.syncNow("evil")
            let items = await eventually(timeout: .seconds(60)) { () -> Bool? in
                server.writes.filter { $0.hasPrefix("PUT /cal/") }.count >= 9 ? true : nil
            }
            #expect(items == true, "\(server.writes)")
        }

        @Test(
            "two accounts' servers serving one UID: each account has its own appointment, B's changes and deletion never reach A's, each edit goes to its own server and the outbox drains; twins in one calendar: the first is kept, the other reported"
        )
        func aUIDBelongsToOneAccount() async throws {
            let stack = try await Stack.startForSync()
            defer { stack.shutdown() }
            let first = try await HostileCalDAVServer(stack: stack),
                second = try await HostileCalDAVServer(stack: stack)
            try await first.control("hostile-off")
            try await second.control("hostile-off")
            try await first.follow(in: stack, as: "a")
            try await second.follow(in: stack, as: "b")
            _ = try await stack.beautyctlOK(["appointment", "add", "Mine", "--at", "2030-05-01T10:00:00+02:00"])
            _ = try await stack.syncNow("a")
            func may() async throws -> [Appointment] {
                try await stack.beautyctlJSON(["appointment", "list", "--from", "2030-05-01", "--to", "2030-06-01"])
            }
            let mine = try #require(try await may().first?.uid)
            let mineHref = try #require(first.writes.first { $0.hasPrefix("PUT /cal/") }).dropFirst(4)
            // B's server serves A's UID; A's server has one event twice.
            let start = instant("2030-05-02 10:00")
            try await second.control(
                "put?/cal/stolen.ics", body: CalDAVTestServer.event(uid: mine, summary: "Theirs", start: start))
            try await first.control(
                "put?/cal/twin-1.ics", body: CalDAVTestServer.event(uid: "twin@phone", summary: "Twin", start: start))
            try await first.control(
                "put?/cal/twin-2.ics",
                body: CalDAVTestServer.event(uid: "twin@phone", summary: "Twin again", start: start))

            func syncAll() async throws -> SyncNowResult {
                let result = try await stack.run(
                    try Locations.built("beautyctl"), ["--socket", stack.socketPath, "sync", "now", "--json"])
                return try WireJSON.decoder().decode(SyncNowResult.self, from: Data(result.stdout.utf8))
            }
            let synced = try await syncAll()
            #expect(synced.accounts.count == 2 && synced.accounts.allSatisfy { $0.error == nil }, "\(synced.accounts)")
            let titles = try await may().map(\.title).sorted()
            #expect(
                titles.count == 3 && titles.contains("Mine") && titles.contains("Theirs")
                    && titles.filter { $0.hasPrefix("Twin") }.count == 1,
                "\(titles)")
            #expect(try await may().filter { $0.uid == mine }.count == 2)
            #expect(
                try await stack.syncStatus("a").warnings?.map(\.english).joined().contains(
                    "1 item(s) whose UID another item of this calendar") == true)
            #expect(try await stack.syncStatus("b").warnings == nil)

            // B's server changes its event: A's stays as it was.
            try await second.control(
                "put?/cal/stolen.ics",
                body: CalDAVTestServer.event(uid: mine, summary: "Theirs, moved", start: instant("2030-05-03 10:00")))
            let moved = try await stack.syncNow("b")
            #expect(moved.accounts.first?.error == nil && moved.fetched == 1, "\(moved.accounts)")
            #expect(
                try await may().map(\.title).sorted()
                    == ["Mine", "Theirs, moved", titles.first { $0.hasPrefix("Twin") }!].sorted())

            // Each local edit goes to its own account's server, at its own href.
            let now = try await may()
            let ours = try #require(now.first { $0.title == "Mine" }),
                theirs = try #require(now.first { $0.title == "Theirs, moved" })
            let firstBefore = first.writes.count, secondBefore = second.writes.count
            _ = try await stack.beautyctlOK(["appointment", "edit", String(ours.id ?? 0), "--title", "Mine (edited)"])
            _ = try await stack.beautyctlOK([
                "appointment", "edit", String(theirs.id ?? 0), "--title", "Theirs (edited)",
            ])
            let pushed = try await syncAll()
            #expect(pushed.accounts.allSatisfy { $0.error == nil }, "\(pushed.accounts)")
            #expect(Array(first.writes.dropFirst(firstBefore)) == ["PUT " + mineHref], "\(first.writes)")
            #expect(Array(second.writes.dropFirst(secondBefore)) == ["PUT /cal/stolen.ics"], "\(second.writes)")
            let pendingA = try await stack.syncStatus("a").pending, pendingB = try await stack.syncStatus("b").pending
            #expect(pendingA == 0 && pendingB == 0)

            // B's server deletes what it served: only B's appointment goes, nothing is sent to A's server.
            try await second.control("forget")
            let firstWrites = first.writes.count
            _ = try await stack.run(
                try Locations.built("beautyctl"),
                ["--socket", stack.socketPath, "sync", "now", "b", "--allow-deletions"])
            let left = try await may().map(\.title)
            #expect(left.contains("Mine (edited)") && !left.contains("Theirs (edited)"), "\(left)")
            _ = try await syncAll()
            #expect(first.writes.count == firstWrites, "\(first.writes)")
            #expect(try await first.control("items").contains(String(mineHref.dropFirst())))
            // A local change of the twin drains from the outbox.
            let twin = try #require(try await may().first { $0.title.hasPrefix("Twin") })
            _ = try await stack.beautyctlOK(["appointment", "edit", String(twin.id ?? 0), "--title", "Twin (edited)"])
            let again = try await syncAll()
            #expect(again.accounts.count == 2 && again.accounts.allSatisfy { $0.error == nil }, "\(again.accounts)")
            let drainedA = try await stack.syncStatus("a").pending, drainedB = try await stack.syncStatus("b").pending
            #expect(drainedA == 0 && drainedB == 0)
        }

        @Test(
            "a new event refused with 412 although the server shows nothing there goes under another name: no conflict copy, nothing left queued"
        )
        func aTakenNameIsNotADeletion() async throws {
            let stack = try await Stack.startForSync()
            defer { stack.shutdown() }
            let server = try await HostileCalDAVServer(stack: stack)
            try await server.control("hostile-off")
            try await server.follow(in: stack, as: "evil")
            _ = try await stack.syncNow("evil")
            try await server.control("refuse-new")
            _ = try await stack.beautyctlOK(["appointment", "add", "Brows", "--at", "2030-06-01T10:00:00+02:00"])
            let synced = try await stack.syncNow("evil")
            #expect(synced.accounts.first?.error == nil, "\(synced.accounts)")
            let status = try await stack.syncStatus("evil")
            #expect(status.conflicts.isEmpty, "\(status.conflicts.map(\.reason))")
            #expect(status.pending == 0)
            let puts = server.writes.filter { $0.hasPrefix("PUT /cal/") }
            #expect(puts.count == 2 && Set(puts).count == 2, "\(puts)")
            let held = try await server.control("items")
            #expect(held.split(separator: "\n").count == 1, "\(held)")
        }

        @Test(
            "a server trickling its answer a byte a second is cut off at [sync] request_timeout, and another account syncs meanwhile"
        )
        func aTricklingServerHoldsBackOnlyItsOwnAccount() async throws {
            let stack = try await Stack.start(
                server: false, config: "[sync]\ninterval = \"1h\"\nrequest_timeout = \"20s\"\n")
            defer { stack.shutdown() }
            let slow = try await HostileCalDAVServer(stack: stack), fast = try await HostileCalDAVServer(stack: stack)
            try await slow.control("hostile-off")
            try await fast.control("hostile-off")
            try await slow.follow(in: stack, as: "slow")
            try await fast.follow(in: stack, as: "fast")
            try await slow.control("trickle")
            let held = try stack.spawn(
                "sync-slow", try Locations.built("beautyctl"), ["--socket", stack.socketPath, "sync", "now", "slow"])
            defer { held.killNow() }
            let trickling = await eventually(timeout: .seconds(60)) {
                slow.lines.contains("TRICKLE start") ? true : nil
            }
            try #require(trickling == true, "\(slow.lines)")

            let other = try await stack.syncNow("fast")
            #expect(other.accounts.first?.error == nil, "\(other.accounts)")
            #expect(held.isRunning, "the slow account's sync ended before the other one's: \(held.outputTail)")

            let ended = await held.waitForExit(timeout: .seconds(120))
            #expect(ended != nil && ended != .exited(0), "\(String(describing: ended))")
            #expect(held.output.contains("took longer than 20 s"), "\(held.output)")
            let status = try await stack.syncStatus("slow")
            #expect(
                status.lastError?.contains("took longer than 20 s") == true, "\(String(describing: status.lastError))")
        }

        @Test(
            "a server whose every answer comes within request_timeout but whose listing never ends is stopped by [sync] sync_timeout"
        )
        func anEndlessListingIsStoppedByTheSyncTimeout() async throws {
            // Each page comes 6 s after it is asked for, well inside request_timeout (10 s): only the
            // whole sync's bound (15 s) can end it.
            let stack = try await Stack.start(
                server: false, config: "[sync]\ninterval = \"1h\"\nrequest_timeout = \"10s\"\nsync_timeout = \"15s\"\n")
            defer { stack.shutdown() }
            let server = try await HostileCalDAVServer(stack: stack)
            try await server.control("hostile-off")
            try await server.follow(in: stack, as: "endless")
            try await server.control("endless?6")
            let held = try stack.spawn(
                "sync-endless", try Locations.built("beautyctl"),
                ["--socket", stack.socketPath, "sync", "now", "endless"])
            defer { held.killNow() }
            // A safety net only: without the bound the listing goes on for [sync] sync_timeout's default, 10 minutes.
            let ended = await held.waitForExit(timeout: .seconds(180))
            #expect(ended != nil && ended != .exited(0), "\(String(describing: ended)) \(held.outputTail)")
            #expect(held.output.contains("the sync took longer than 15 s"), "\(held.output)")
            #expect(!held.output.contains("the request took longer"), "\(held.output)")
            #expect(server.lines.filter { $0.hasPrefix("ENDLESS page") }.count >= 2, "\(server.lines)")
            let status = try await stack.syncStatus("endless")
            #expect(
                status.lastError?.contains("the sync took longer than 15 s") == true,
                "\(String(describing: status.lastError))")
        }

        @Test(
            "stopping beautyd during a sync ends the sync at once: no request is sent after the stop, and beautyd exits cleanly"
        )
        func stoppingTheDaemonStopsItsSync() async throws {
            // Each page comes 3 s after it is asked for and the listing never ends: only the stop can end
            // this sync before [sync] sync_timeout's 10 minutes.
            let stack = try await Stack.startForSync()
            defer { stack.shutdown() }
            let server = try await HostileCalDAVServer(stack: stack)
            try await server.control("hostile-off")
            try await server.follow(in: stack, as: "endless")
            try await server.control("endless?3")
            // A local change starts the sync by itself, as the daemon's own loop does.
            _ = try await stack.beautyctlOK(["appointment", "add", "Peel", "--at", "2030-08-01T10:00:00+02:00"])
            func listings() -> Int { server.lines.filter { $0.hasPrefix("MAIN REPORT /cal/") }.count }
            let paging = await eventually(timeout: .seconds(120)) {
                server.lines.contains { $0.hasPrefix("ENDLESS page") } ? true : nil
            }
            try #require(paging == true, "\(server.lines)")
            let daemon = try #require(stack.daemon)
            let before = listings()
            daemon.signal(SIGINT)
            // A safety net only: a sync that goes on holds the daemon for [sync] sync_timeout.
            let ended = await daemon.waitForExit(timeout: .seconds(90))
            #expect(ended == .exited(0), "\(String(describing: ended)) \(daemon.outputTail)")
            // One listing may have been on its way as the signal came; none after it.
            #expect(listings() <= before + 1, "\(server.lines)")
            #expect(daemon.output.contains("sync endless: stopped before it finished"), "\(daemon.outputTail)")
        }

        @Test(
            "discovery that leads to another host sends nothing there and names it; with --trust-host the account moves there and signs in there alone"
        )
        func discoveryOnAnotherHostNeedsTheUsersWord() async throws {
            let stack = try await Stack.startForSync()
            defer { stack.shutdown() }
            // The provider's other host: a real CalDAV server on another port (another origin).
            let shard = try await CalDAVTestServer.start(.radicale)
            let server = try await HostileCalDAVServer(stack: stack)
            try await server.control("hostile-off")
            try await server.control("elsewhere?\(shard.principalURL.absoluteString)")
            let start = "http://127.0.0.1:\(server.port)/", host = "127.0.0.1:\(shard.port)"
            let add = [
                "sync", "add", "shard", "--url", start, "--user", shard.user, "--password-file", shard.passwordFile,
            ]

            let before = shard.requestCount
            let refused = try await stack.beautyctl(add)
            #expect(refused.status != .exited(0), "\(refused)")
            #expect(
                refused.stderr.contains("another host, http://\(host)")
                    && refused.stderr.contains("--trust-host \(host)"), "\(refused)")
            #expect(
                shard.requestCount == before, "a request reached the other host without the user's word: \(shard.log)")
            let wrongHost = try await stack.beautyctl(add + ["--trust-host", "127.0.0.2:\(shard.port)"])
            #expect(wrongHost.status != .exited(0) && wrongHost.stderr.contains("--trust-host \(host)"), "\(wrongHost)")
            #expect(shard.requestCount == before, "\(shard.log)")

            let moved: SyncAccountInfo = try await stack.beautyctlJSON(add + ["--trust-host", host])
            #expect(
                moved.url.hasPrefix("http://\(host)/") && moved.calendarURL.hasPrefix("http://\(host)/"), "\(moved)")
            #expect(moved.calendarURL.contains(shard.calendarURL.path), "\(moved.calendarURL) \(shard.calendarURL)")

            // From now on the account's password goes to the other host alone.
            let asked = server.lines.count
            _ = try await stack.beautyctlOK(["appointment", "add", "Lashes", "--at", "2030-09-01T10:00:00+02:00"])
            let synced = try await stack.syncNow("shard")
            #expect(synced.accounts.first?.error == nil && synced.pushed == 1, "\(synced.accounts)")
            #expect(try await shard.events().values.contains { $0.contains("SUMMARY:Lashes") })
            #expect(server.lines.count == asked, "the first host was asked again: \(server.lines.suffix(5))")

            // /.well-known/caldav sending the client to another host is one more way there: the same rule.
            try await server.control("redirect?\(shard.baseURL.absoluteString)")
            let redirected = [
                "sync", "add", "again", "--url", start, "--user", shard.user, "--password-file", shard.passwordFile,
            ]
            let stopped = try await stack.beautyctl(redirected)
            #expect(stopped.status != .exited(0) && stopped.stderr.contains("--trust-host \(host)"), "\(stopped)")
            let followed: SyncAccountInfo = try await stack.beautyctlJSON(redirected + ["--trust-host", host])
            #expect(followed.calendarURL.hasPrefix("http://\(host)/"), "\(followed)")
            #expect(server.trapped.isEmpty, "\(server.trapped)")
            await shard.stop()
        }

        @Test(
            "an appointment restored from the trash goes back to the account whose server deleted it, not to the first account"
        )
        func aRestoredAppointmentGoesHome() async throws {
            let stack = try await Stack.startForSync()
            defer { stack.shutdown() }
            let first = try await HostileCalDAVServer(stack: stack),
                second = try await HostileCalDAVServer(stack: stack)
            try await first.control("hostile-off")
            try await second.control("hostile-off")
            try await first.follow(in: stack, as: "a")
            try await second.follow(in: stack, as: "b")
            try await second.control(
                "put?/cal/nails.ics",
                body: CalDAVTestServer.event(uid: "nails@phone", summary: "Nails", start: instant("2030-07-01 10:00")))
            #expect(try await stack.syncNow("b").fetched == 1)
            try await second.control("forget")
            #expect(try await stack.syncNow("b").removed == 1)
            let trash: SyncTrashResult = try await stack.beautyctlJSON(["sync", "trash", "b"])
            let entry = try #require(trash.entries.first)
            let _: SyncRestoreDeletedResult = try await stack.beautyctlJSON([
                "sync", "restore-deleted", String(entry.id),
            ])
            let result = try await stack.run(
                try Locations.built("beautyctl"), ["--socket", stack.socketPath, "sync", "now", "--json"])
            #expect(result.status == .exited(0), "\(result)")
            #expect(try await second.control("items").contains("nails"), "\(second.writes)")
            #expect(first.writes.isEmpty, "\(first.writes)")
            let pendingA = try await stack.syncStatus("a").pending, pendingB = try await stack.syncStatus("b").pending
            #expect(pendingA == 0 && pendingB == 0)
        }

        @Test(
            "restore-deleted is one write: when a step of bringing an appointment back fails, it stays in the trash and nothing of it is restored"
        )
        func restoreDeletedIsOneWrite() async throws {
            let stack = try await Stack.startForSync()
            defer { stack.shutdown() }
            let server = try await HostileCalDAVServer(stack: stack)
            try await server.control("hostile-off")
            try await server.follow(in: stack, as: "b")
            try await server.control(
                "put?/cal/nails.ics",
                body: CalDAVTestServer.event(uid: "nails@phone", summary: "Nails", start: instant("2030-07-01 10:00")))
            #expect(try await stack.syncNow("b").fetched == 1)
            try await server.control("forget")
            #expect(try await stack.syncNow("b").removed == 1)
            let trash: SyncTrashResult = try await stack.beautyctlJSON(["sync", "trash", "b"])
            let entry = try #require(trash.entries.first)
            func nails() async throws -> [Appointment] {
                try await stack.beautyctlJSON(["appointment", "list", "--from", "2030-07-01", "--to", "2030-07-02"])
            }
            // Each step in turn cannot be written (as on a failing disk): marking the entry restored, storing the appointment.
            for (table, step) in [("syncTrash", "UPDATE"), ("appointment", "INSERT")] {
                try await stack.sqlite(
                    stack.databasePath,
                    "PRAGMA busy_timeout = 30000; CREATE TRIGGER fail_restore BEFORE \(step) ON \(table) BEGIN SELECT RAISE(ABORT, 'no room'); END;"
                )
                let failed = try await stack.beautyctl(["sync", "restore-deleted", String(entry.id)])
                try await stack.sqlite(stack.databasePath, "PRAGMA busy_timeout = 30000; DROP TRIGGER fail_restore;")
                #expect(failed.status != .exited(0), "\(step) \(table): \(failed)")
                #expect(try await nails().isEmpty, "\(step) \(table) failed, yet the appointment is back")
                let left: SyncTrashResult = try await stack.beautyctlJSON(["sync", "trash", "b"])
                #expect(
                    left.entries.map(\.id) == [entry.id],
                    "\(step) \(table) failed, yet the entry left the trash: \(left.entries)")
            }
            let restored: SyncRestoreDeletedResult = try await stack.beautyctlJSON([
                "sync", "restore-deleted", String(entry.id),
            ])
            #expect(restored.restored == 1)
            #expect(try await nails().map(\.title) == ["Nails"])
            let emptied: SyncTrashResult = try await stack.beautyctlJSON(["sync", "trash", "b"])
            #expect(emptied.entries.isEmpty)
        }
    }
}
