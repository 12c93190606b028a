import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A CalDAV server that misbehaves on purpose (Fixtures/hostile_caldav.py) with a trap listening
/// on another host and port: the password and writes go only to the account's origin and
/// calendar, and a server cannot empty the calendar silently.
final class HostileCalDAVServer: @unchecked Sendable {
    let port: Int
    let trapPort: Int
    let process: ChildProcess
    let passwordFile: String

    init(stack: Stack) async throws {
        var attempt = 0
        while true {
            attempt += 1
            let port = try CalDAVTestServer.freePort(), trap = try CalDAVTestServer.freePort()
            let process = try stack.spawn("hostile-\(attempt)", Locations.python, [try Locations.fixture("hostile_caldav.py"), String(port), String(trap)])
            let up = await eventually(timeout: .seconds(20)) { () -> Bool? in
                if !process.isRunning { return false }
                return CalDAVTestServer.answers(port: port) && process.output.contains("LISTENING") ? true : nil
            }
            if up == true {
                self.port = port
                trapPort = trap
                self.process = process
                break
            }
            process.killNow()
            if attempt >= 3 { throw HarnessError("hostile_caldav.py did not start\n\(process.outputTail)") }
        }
        passwordFile = stack.directory + "/hostile.pw"
        guard FileManager.default.createFile(atPath: passwordFile, contents: Data("hunter2\n".utf8), attributes: [.posixPermissions: 0o600]) else {
            throw HarnessError("cannot write \(passwordFile)")
        }
    }

    deinit { process.killNow() }

    var calendarURL: String { "http://127.0.0.1:\(port)/cal/" }
    var lines: [String] { process.output.split(separator: "\n").map(String.init) }
    /// Whatever reached the trap (another host or port): should stay empty.
    var trapped: [String] { lines.filter { $0.hasPrefix("TRAP ") } }
    /// Writes the server took, as "PUT /cal/x.ics".
    var writes: [String] {
        lines.filter { $0.hasPrefix("MAIN PUT ") || $0.hasPrefix("MAIN DELETE ") }.map { String($0.dropFirst(5).split(separator: " auth=")[0]) }
    }

    func control(_ what: String) async throws {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/control/\(what)")!, timeoutInterval: 30)
        request.httpMethod = "POST"
        _ = try await URLSession.shared.data(for: request)
    }
}

extension EndToEndServing {
    @Suite("CalDAV sync against a hostile server", .serialized)
    struct HostileCalDAV {
        @Test("hrefs to another host, port or outside the calendar are ignored and reported; nothing, least the password, reaches them")
        func hrefsOutsideTheCalendarGetNothing() async throws {
            let stack = try await Stack.startForSync()
            defer { stack.shutdown() }
            let server = try await HostileCalDAVServer(stack: stack)

            // Discovery that names a principal and home on another host finds nothing there to follow.
            let discovery = try await stack.beautyctl(["sync", "add", "found", "--url", "http://127.0.0.1:\(server.port)/", "--user", "anna",
                                                       "--password-file", server.passwordFile])
            #expect(discovery.status != .exited(0), "\(discovery)")

            _ = try await stack.beautyctlOK(["sync", "add", "evil", "--url", server.calendarURL, "--user", "anna", "--password-file", server.passwordFile])
            _ = try await stack.beautyctlOK(["appointment", "add", "Good", "--at", "2030-03-02T10:00:00+01:00"])
            let first = try await stack.syncNow("evil")
            #expect(first.accounts.first?.error == nil, "\(first.accounts)")
            let status = try await stack.syncStatus("evil")
            let warning = status.warnings?.map(\.english).joined() ?? ""
            #expect(warning.contains("5 item(s) outside the calendar"), "\(String(describing: status.warnings))")
            let shown = try await stack.beautyctlOK(["sync", "status", "evil"]).stdout
            #expect(shown.contains("warning:") && shown.contains("127.0.0.2:\(server.trapPort)/steal/a.ics"), "\(shown)")

            // Whatever the sync brought, the user deletes it all: deletions go back to the server.
            let listed: [Appointment] = try await stack.beautyctlJSON(["appointment", "list", "--from", "2030-01-01", "--to", "2031-01-01"])
            #expect(listed.map(\.title) == ["Good"], "planted events were imported: \(listed.map(\.title))")
            for appointment in listed { _ = try await stack.beautyctlOK(["appointment", "rm", String(appointment.id ?? 0), "--yes"]) }
            let second = try? await stack.syncNow("evil")
            #expect(second?.accounts.first?.error == nil, "\(String(describing: second?.accounts))")

            #expect(server.trapped.isEmpty, "requests reached another host or port: \(server.trapped)")
            #expect(server.writes.allSatisfy { $0.hasPrefix("PUT /cal/") || $0.hasPrefix("DELETE /cal/") } && !server.writes.contains { $0.contains("..") || $0.contains("%") },
                    "writes outside /cal/: \(server.writes)")
            #expect(server.writes.contains { $0.hasPrefix("DELETE /cal/") }, "the deletion did not reach the server: \(server.writes)")
        }

        @Test("a server that forgets its token and lists nothing cannot delete every appointment; --allow-deletions does, and sync trash keeps them")
        func anEmptiedServerDoesNotEmptyTheCalendar() async throws {
            let stack = try await Stack.startForSync()
            defer { stack.shutdown() }
            let server = try await HostileCalDAVServer(stack: stack)
            try await server.control("hostile-off")
            _ = try await stack.beautyctlOK(["sync", "add", "evil", "--url", server.calendarURL, "--user", "anna", "--password-file", server.passwordFile])
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
            #expect(status.warnings?.map(\.english).joined().contains("would delete 8 of 8 appointments") == true, "\(String(describing: status.warnings))")
            let shown = try await stack.beautyctlOK(["sync", "status", "evil"]).stdout
            #expect(shown.contains("--allow-deletions"), "\(shown)")

            let allowed = try await stack.run(try Locations.built("beautyctl"), ["--socket", stack.socketPath, "sync", "now", "evil", "--allow-deletions", "--json"])
            let applied = try WireJSON.decoder().decode(SyncNowResult.self, from: Data(allowed.stdout.utf8))
            #expect(applied.removed == 8, "\(allowed)")
            #expect(try await visits().isEmpty)

            let trash: SyncTrashResult = try await stack.beautyctlJSON(["sync", "trash", "evil"])
            #expect(Set(trash.entries.map(\.title)) == Set((1...8).map { "Visit \($0)" }), "\(trash.entries.map(\.title))")
            let first = try #require(trash.entries.first { $0.title == "Visit 1" })
            #expect(first.ics.contains("BEGIN:VALARM"), "\(first.ics)")
            let listing = try await stack.beautyctlOK(["sync", "trash"]).stdout
            #expect(listing.contains("Visit 1"), "\(listing)")

            let restored: SyncRestoreDeletedResult = try await stack.beautyctlJSON(["sync", "restore-deleted", String(first.id)])
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
    }
}
