import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

/// `beautyctl sync add --doses` and `beautyctl sync doses` with the real daemon and beautyctl against
/// real Radicale and Xandikos servers (and a server of our own whose lists take no tasks): which task
/// list the doses go to, what is refused, and what `--json` says.
extension CalDAVTestServer {
    /// `displayname` and whether `supported-calendar-component-set` names VTODO, as the server
    /// answers a PROPFIND of the collection at `path` (read with plain text matching, not beautyd's parser).
    func collection(_ path: String) async throws -> (name: String?, todo: Bool) {
        let answer = try await request(
            "PROPFIND", path, headers: ["Depth": "0", "Content-Type": "application/xml"],
            body: """
                <?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">\
                <d:prop><d:displayname/><c:supported-calendar-component-set/></d:prop></d:propfind>
                """)
        guard answer.status == 207 else { throw HarnessError("PROPFIND \(path) answered \(answer)") }
        let name = answer.body.range(of: #"displayname>([^<]*)<"#, options: .regularExpression).map {
            String(answer.body[$0].dropFirst("displayname>".count).dropLast())
        }
        return (name, answer.body.contains(#"name="VTODO""#))
    }

    /// A task list made as a phone app makes one (MKCALENDAR for VTODO); its path.
    func makeTaskList(_ name: String) async throws -> String {
        let home = kind == .radicale ? "/\(user)/" : "/\(user)/calendars/"
        let path = home + name.lowercased() + "/"
        let made = try await request(
            "MKCALENDAR", path, headers: ["Content-Type": "application/xml"],
            body: """
                <?xml version="1.0" encoding="utf-8"?><c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">\
                <d:set><d:prop><d:displayname>\(name)</d:displayname><c:supported-calendar-component-set>\
                <c:comp name="VTODO"/></c:supported-calendar-component-set></d:prop></d:set></c:mkcalendar>
                """)
        guard made.status == 201 else { throw HarnessError("MKCALENDAR \(path) answered \(made)") }
        return path
    }
}

extension Stack {
    /// `beautyctl sync add phone` for `server`'s ready calendar with `flags`, as it ended.
    func addAccount(_ server: CalDAVTestServer, _ flags: [String]) async throws -> CommandResult {
        try await run(
            try Locations.built("beautyctl"),
            [
                "--socket", socketPath, "sync", "add", "phone", "--url", server.calendarURL.absoluteString, "--user",
                server.user, "--password-file", server.passwordFile,
            ] + flags, timeout: .seconds(90))
    }

    func accounts() async throws -> [SyncAccountInfo] {
        let result: SyncAccountsResult = try await beautyctlJSON(["sync", "list"])
        return result.accounts
    }
}

extension EndToEndServing {
    @Suite("Doses on the phone: the task list sync add --doses and sync doses choose", .serialized)
    struct PhoneDoseSetup {
        @Test(
            "sync add --doses makes a task list for VTODO in the calendar home, named in the daemon's language",
            arguments: CalDAVTestServer.Kind.allCases)
        func listNamedInTheLanguage(_ kind: CalDAVTestServer.Kind) async throws {
            let server = try await CalDAVTestServer.start(kind)
            for (locale, name) in [("pl_PL.UTF-8", "Leki"), (nil, "Medications")] {
                let stack = try await Stack.start(server: false, daemon: false, config: "[sync]\ninterval = \"1h\"\n")
                defer { stack.shutdown() }
                stack.locale = locale
                try await stack.startDaemon()
                let added = try await stack.addAccount(server, ["--doses", "--json"])
                #expect(added.status == .exited(0), "\(added)")
                let account = try WireJSON.decoder().decode(SyncAccountInfo.self, from: Data(added.stdout.utf8))
                let doses = try #require(account.doses, "\(added.stdout)")
                #expect(doses.listName == name && !doses.private && !doses.paused, "\(doses)")
                #expect(doses.listURL != account.calendarURL)
                let list = try await server.collection(try #require(URL(string: doses.listURL)).path)
                #expect(list.name == name && list.todo, "\(list)")
                // The list as the add told it (the run fields move with the dose loop's first run meanwhile).
                let listed = try #require(try await stack.accounts().first?.doses)
                #expect(
                    listed.listURL == doses.listURL && listed.listName == doses.listName
                        && listed.private == doses.private && listed.paused == doses.paused,
                    "\(listed) against \(doses)")
            }
            await server.stop()
        }

        @Test(
            "sync add --doses says where the doses go and that their names leave the machine; --private-doses that none do",
            arguments: CalDAVTestServer.Kind.allCases)
        func whatLeavesTheMachine(_ kind: CalDAVTestServer.Kind) async throws {
            try await Stack.withSync(kind, follow: false) { server, stack in
                let named = try await stack.addAccount(server, ["--doses"])
                #expect(named.status == .exited(0), "\(named)")
                #expect(
                    named.stdout.contains("Doses go to the task list \"Medications\" http://127.0.0.1:"), "\(named)")
                #expect(
                    named.stdout.contains(
                        "The tasks name each medication and its dose: those names leave this machine for the server"),
                    "\(named)")
                _ = try await stack.beautyctlOK(["sync", "rm", "phone"])
                let hidden = try await stack.addAccount(server, ["--private-doses"])
                #expect(hidden.status == .exited(0), "\(hidden)")
                #expect(
                    hidden.stdout.contains(
                        "The tasks say only \"Dose\" and the time: no medication name leaves this machine."),
                    "\(hidden)")
                #expect(try await stack.accounts().first?.doses?.private == true)
            }
        }

        @Test(
            "--doses-list picks a task list the server has, by name or URL; the followed calendar or an unknown name is refused",
            arguments: CalDAVTestServer.Kind.allCases)
        func chosenList(_ kind: CalDAVTestServer.Kind) async throws {
            try await Stack.withSync(kind, follow: false) { server, stack in
                let path = try await server.makeTaskList("Tabletki")
                let byName = try await stack.addAccount(server, ["--doses-list", "Tabletki", "--json"])
                #expect(byName.status == .exited(0), "\(byName)")
                let account = try WireJSON.decoder().decode(SyncAccountInfo.self, from: Data(byName.stdout.utf8))
                #expect(account.doses?.listName == "Tabletki", "\(byName)")
                #expect(account.doses?.listURL.hasSuffix(path) == true, "\(byName)")
                _ = try await stack.beautyctlOK(["sync", "rm", "phone"])

                let byURL = try await stack.addAccount(
                    server, ["--doses-list", String(server.baseURL.absoluteString.dropLast()) + path, "--json"])
                #expect(byURL.status == .exited(0), "\(byURL)")
                _ = try await stack.beautyctlOK(["sync", "rm", "phone"])
                // --calendar takes a whole URL the same way, closing slash and all.
                let calendar = try await stack.run(
                    try Locations.built("beautyctl"),
                    [
                        "--socket", stack.socketPath, "sync", "add", "web", "--url", server.baseURL.absoluteString,
                        "--user", server.user, "--password-file", server.passwordFile, "--calendar",
                        server.calendarURL.absoluteString,
                    ], timeout: .seconds(90))
                #expect(calendar.status == .exited(0), "\(calendar)")
                _ = try await stack.beautyctlOK(["sync", "rm", "web"])

                let followed = try await stack.addAccount(
                    server, ["--doses-list", server.calendarURL.absoluteString])
                #expect(followed.status == .exited(1), "\(followed)")
                #expect(
                    followed.stderr.contains(
                        "the task list for the doses must not be the calendar the account follows"), "\(followed)")
                let unknown = try await stack.addAccount(server, ["--doses-list", "Vitamins"])
                #expect(unknown.status == .exited(1), "\(unknown)")
                #expect(
                    unknown.stderr.contains("no task list 'Vitamins' on the server; it has: ")
                        && unknown.stderr.contains("\"Tabletki\""), "\(unknown)")
                #expect(try await stack.accounts().isEmpty)
            }
        }

        @Test("a server that makes the list but reports no VTODO in it is refused, and no account is added")
        func listWithoutTasksRefused() async throws {
            let stack = try await Stack.startForSync()
            defer { stack.shutdown() }
            let port = try CalDAVTestServer.freePort()
            let server = try stack.spawn(
                "events-only", Locations.python, [try Locations.fixture("events_only_caldav.py"), String(port)])
            let up = await eventually(timeout: .seconds(20)) { () -> Bool? in
                server.isRunning ? (server.stdout.contains("LISTENING") ? true : nil) : false
            }
            #expect(up == true, "\(server.outputTail)")
            let password = stack.directory + "/pw"
            _ = FileManager.default.createFile(
                atPath: password, contents: Data("pw\n".utf8), attributes: [.posixPermissions: 0o600])
            let refused = try await stack.run(
                try Locations.built("beautyctl"),
                [
                    "--socket", stack.socketPath, "sync", "add", "phone", "--url",
                    "http://127.0.0.1:\(port)/alice/calendar/", "--user", "alice", "--password-file", password,
                    "--doses",
                ], timeout: .seconds(60))
            #expect(refused.status == .exited(1), "\(refused)")
            #expect(
                refused.stderr.contains(
                    "but says it holds no tasks (no VTODO in its supported-calendar-component-set)"),
                "\(refused)")
            #expect(server.stdout.contains("MKCALENDAR /alice/"), "\(server.stdout)")
            #expect(try await stack.accounts().isEmpty)
        }

        @Test(
            "sync now and sync status report the dose list: the phone's tick recorded, a task deleted early put back, private mode",
            arguments: CalDAVTestServer.Kind.allCases)
        func statusAndNow(_ kind: CalDAVTestServer.Kind) async throws {
            try await Stack.withSync(kind, follow: false) { server, stack in
                let added = try await stack.addAccount(server, ["--doses", "--json"])
                let account = try WireJSON.decoder().decode(SyncAccountInfo.self, from: Data(added.stdout.utf8))
                let list = try #require(account.doses.flatMap { URL(string: $0.listURL) }, "\(added)")
                let med: MedicationDetail = try await stack.beautyctlJSON([
                    "med", "add", "Iron", "--dose", "2 tablets", "--at", "08:00", "--stock", "20",
                ])
                let first = try #require(med.upcoming.first)
                let now = try await stack.syncNow()
                let doses = try #require(now.accounts.first?.doses, "\(now.accounts)")
                #expect(doses.error == nil && doses.requests > 0, "\(doses)")

                let phone = CalDAVPhone(server: server, listPath: list.path)
                let tasks = try await phone.openTasks()
                #expect(tasks.count >= 7 && tasks.values.allSatisfy { $0 == "Iron — 2 tablets" }, "\(tasks)")
                let uids = tasks.keys.sorted()
                let dueFirst = DoseTaskUID.parse(uids[0])?.due
                #expect(dueFirst == first, "\(uids) \(first)")
                // The phone ticks the first dose and deletes the last, which is not due for days.
                try await phone.complete(uids[0], at: Date())
                try await phone.delete(uids[uids.count - 1])
                let after = try await stack.syncNow()
                let run = try #require(after.accounts.first?.doses, "\(after.accounts)")
                #expect(run.polled && run.read == 1 && run.phoneAnswers == 1 && run.error == nil, "\(run)")
                let text = try await stack.beautyctlOK(["sync", "now", "phone"])
                #expect(text.stdout.contains("phone: doses: 0 read, "), "\(text)")

                let status = try await stack.syncStatus()
                let shown = try #require(status.doses, "\(status)")
                #expect(shown.lastPollAt != nil && shown.lastError == nil && shown.openDoses == 0, "\(shown)")
                let history = try await stack.beautyctlOK(["med", "show", String(try #require(med.medication.id))])
                #expect(history.stdout.contains("18"), "the phone's tick took two tablets: \(history)")
                let statusText = try await stack.beautyctlOK(["sync", "status", "phone"])
                #expect(statusText.stdout.contains("  doses:           task list \"Medications\""), "\(statusText)")

                // The task deleted before it was due is put back and reported.
                #expect(run.putBack == 1 && run.reports == 1, "\(run)")
                #expect(shown.reports?.map(\.kind) == [.putBack], "\(shown)")
                #expect(shown.reports?.first?.medication == "Iron", "\(shown)")
                #expect(statusText.stdout.contains("deleted on the phone before it was due, put back"), "\(statusText)")
                // Private: every task is rewritten without the name.
                _ = try await stack.beautyctlOK(["sync", "doses", "phone", "private"])
                _ = try await stack.syncNow()
                let hidden = try await phone.openTasks()
                #expect(!hidden.isEmpty && hidden.values.allSatisfy { $0.hasPrefix("Dose ") }, "\(hidden)")
            }
        }

        @Test(
            "sync doses NAME on makes the list once, off keeps it for the next on, private and named switch the names; --json",
            arguments: CalDAVTestServer.Kind.allCases)
        func switches(_ kind: CalDAVTestServer.Kind) async throws {
            try await Stack.withSync(kind) { server, stack in
                #expect(try await stack.accounts().first?.doses == nil)
                let on = try await stack.beautyctlOK(["sync", "doses", "phone", "on", "--json"])
                let first = try WireJSON.decoder().decode(SyncAccountInfo.self, from: Data(on.stdout.utf8))
                let list = try #require(first.doses, "\(on)")
                #expect(list.listName == "Medications" && !list.private, "\(list)")
                #expect(on.stdout.contains(#""doses" : {"#), "\(on.stdout)")
                #expect(try await server.collection(try #require(URL(string: list.listURL)).path).todo)

                let hidden = try await stack.beautyctlOK(["sync", "doses", "phone", "private"])
                #expect(
                    hidden.stdout.contains("The tasks say only \"Dose\" and the time: no medication name leaves"),
                    "\(hidden)")
                #expect(try await stack.accounts().first?.doses?.private == true)

                let off = try await stack.beautyctlOK(["sync", "doses", "phone", "off"])
                #expect(
                    off.stdout == "Doses no longer go to the server of 'phone'; the tasks already there stay.\n",
                    "\(off)")
                let offJSON = try await stack.beautyctlOK(["sync", "doses", "phone", "off", "--json"])
                #expect(!offJSON.stdout.contains("\"doses\""), "\(offJSON)")
                #expect(try await stack.accounts().first?.doses == nil)

                // On again: the same list, still private.
                let again: SyncAccountInfo = try await stack.beautyctlJSON(["sync", "doses", "phone", "on"])
                #expect(again.doses?.listURL == list.listURL && again.doses?.private == true, "\(again)")
                let named: SyncAccountInfo = try await stack.beautyctlJSON(["sync", "doses", "phone", "named"])
                #expect(named.doses?.private == false, "\(named)")

                let status = try await stack.beautyctlOK(["sync", "status", "phone"])
                #expect(status.stdout.contains("Medications"), "\(status)")
            }
        }
    }
}
