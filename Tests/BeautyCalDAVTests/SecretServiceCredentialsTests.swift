import BeautyCalDAV
import BeautyTestSupport
import Foundation
import Testing

/// The password from a real Secret Service: GNOME Keyring on a private session bus, the secret stored
/// with secret-tool as a user would, the client signing in to Radicale with it.
@Suite struct SecretServiceCredentialsTests {
    /// dbus-daemon and an unlocked gnome-keyring-daemon in `scratch`; answers the environment to reach them.
    private func keyring(in scratch: ScratchDirectory) async throws -> (
        environment: [String: String], children: [ChildProcess]
    ) {
        var environment = try scratch.xdgEnvironment()
        let bus = try scratch.spawn(
            "dbus", try Locations.system("dbus-daemon", package: "dbus"),
            [
                "--config-file=\(try Locations.fixture("session-bus.conf"))", "--nofork", "--print-address=1",
                "--address=unix:path=\(scratch.path)/bus",
            ], environment: environment)
        let address = await eventually(timeout: .seconds(5)) {
            bus.stdout.hasSuffix("\n") ? bus.stdout.split(separator: "\n").first.map(String.init) : nil
        }
        environment["DBUS_SESSION_BUS_ADDRESS"] = try #require(address, "\(bus.outputTail)")
        _ = try Locations.system("gnome-keyring-daemon", package: "gnome-keyring")
        let keyring = try scratch.spawn(
            "keyring", "/bin/sh",
            [
                "-c", "printf %s keyring-pw | exec gnome-keyring-daemon --foreground --unlock --components=secrets",
            ], environment: environment)
        return (environment, [bus, keyring])
    }

    private func store(
        _ secret: String, _ attributes: [String], environment: [String: String], in scratch: ScratchDirectory
    ) async throws {
        let tool = try Locations.system("secret-tool", package: "libsecret-tools")
        // The keyring takes its bus name a moment after it starts.
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let script =
                "secret=\"$0\" tool=\"$1\"; shift; printf %s \"$secret\" | exec \"$tool\" store --label beautyd \"$@\""
            let result = try await scratch.run(
                "/bin/sh", ["-c", script, secret, tool] + attributes, environment: environment)
            if result.status == .exited(0) { return }
            if ContinuousClock.now > deadline { throw HarnessError("secret-tool store failed: \(result)") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    @Test func thePasswordComesFromTheKeyringAndSignsIn() async throws {
        let server = try await CalDAVTestServer.start(.radicale)
        let scratch = try ScratchDirectory()
        let (environment, children) = try await keyring(in: scratch)
        defer { children.forEach { $0.killNow() } }
        try await store(
            server.password, ["service", "beautyd", "account", "phone"], environment: environment, in: scratch)

        let credentials = SecretServiceCredentials(
            user: server.user, attributes: ["service": "beautyd", "account": "phone"],
            environment: environment)
        #expect(!"\(credentials)".contains(server.password))
        let client = try CalDAVClient(account: CalDAVAccount(url: server.baseURL, credentials: credentials))
        let calendars = try await client.discoverCalendars()
        #expect(calendars.map(\.url.path).contains(server.calendarURL.path))

        let missing = SecretServiceCredentials(
            user: server.user, attributes: ["service": "beautyd", "account": "other"],
            environment: environment)
        await #expect {
            try await missing.authorization()
        } throws: { error in
            "\(error)".contains("no password in the Secret Service for account=other service=beautyd")
        }
    }

    @Test func anAccountIsGivenOnlyThePasswordKeptForItsOriginAndUser() async throws {
        let server = try await CalDAVTestServer.start(.radicale)
        defer { Task { await server.stop() } }
        let scratch = try ScratchDirectory()
        let (environment, children) = try await keyring(in: scratch)
        defer { children.forEach { $0.killNow() } }
        let stored = SecretServiceCredentials.attributes(account: "phone", user: server.user, origin: server.baseURL)
        #expect(stored["origin"] == "http://127.0.0.1:\(server.port)")
        try await store(
            server.password, stored.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }, environment: environment,
            in: scratch)

        let own = SecretServiceCredentials.account(
            "phone", user: server.user, origin: server.calendarURL, environment: environment)
        let client = try CalDAVClient(account: CalDAVAccount(url: server.calendarURL, credentials: own))
        #expect(try await client.calendar(at: server.calendarURL).url.path == server.calendarURL.path)

        // The same account name brought back (a restore) for another server, or for another user: no password.
        let moved = URL(string: "http://127.0.0.2:\(server.port)/alice/calendar/")!
        for credentials in [
            SecretServiceCredentials.account("phone", user: server.user, origin: moved, environment: environment),
            SecretServiceCredentials.account(
                "phone", user: "mallory", origin: server.calendarURL, environment: environment),
        ] {
            await #expect {
                try await credentials.authorization()
            } throws: { error in
                "\(error)".contains("no password in the Secret Service for account=phone origin=")
            }
        }
    }

    @Test func withoutSecretToolTheErrorSaysWhatToInstall() async {
        let credentials = SecretServiceCredentials(
            user: "alice", attributes: ["service": "beautyd"], secretTool: "/nonexistent/secret-tool")
        await #expect {
            try await credentials.authorization()
        } throws: { error in
            "\(error)".contains("apt install libsecret-tools")
        }
    }
}
