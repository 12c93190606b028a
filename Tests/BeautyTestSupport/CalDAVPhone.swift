import Foundation

/// A phone's task app on one task list of a `CalDAVTestServer`: `Fixtures/phone_caldav.py`, a real
/// CalDAV client (python3-caldav), run once per action.
package struct CalDAVPhone {
    package let server: CalDAVTestServer
    /// The list's path on the server ("/alice/<uuid>/").
    package let listPath: String

    package init(server: CalDAVTestServer, listPath: String) {
        self.server = server
        self.listPath = listPath
    }

    /// The open tasks as `todos()` lists them: UID → SUMMARY.
    package func openTasks() async throws -> [String: String] {
        var tasks: [String: String] = [:]
        for line in try await run("list").split(separator: "\n") {
            let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
            tasks[fields[0]] = fields.count > 1 ? fields[1] : ""
        }
        return tasks
    }

    /// Ticks the task done at `at` (`complete(completion_timestamp=…)`).
    package func complete(_ uid: String, at: Date) async throws {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        try await run("complete", uid, formatter.string(from: at))
    }

    /// Sets STATUS:CANCELLED and saves, as jtx Board's cancel does.
    package func cancel(_ uid: String) async throws { try await run("cancel", uid) }

    package func uncomplete(_ uid: String) async throws { try await run("uncomplete", uid) }

    package func delete(_ uid: String) async throws { try await run("delete", uid) }

    @discardableResult
    private func run(_ arguments: String...) async throws -> String {
        let scratch = try ScratchDirectory()
        let result = try await scratch.run(
            Locations.python,
            [
                try Locations.fixture("phone_caldav.py"), server.baseURL.absoluteString, server.user, server.password,
                listPath,
            ]
                + arguments,
            environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC"], timeout: .seconds(120))
        guard result.status == .exited(0) else { throw HarnessError("phone \(arguments): \(result)") }
        return result.stdout
    }
}
