import BeautyCalDAV
import BeautyTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What the client refuses before it sends anything: plain HTTP off this machine, a password file
/// others could read, and how it fails when nobody answers.
@Suite struct CalDAVAccountRulesTests {
    private struct Fixed: CalDAVCredentialSource {
        func authorization() async throws -> String { "Basic eDp5" }
    }

    @Test func plainHTTPToAnotherHostIsRefusedUnlessAllowed() throws {
        let remote = URL(string: "http://calendar.example.com/dav/")!
        #expect(throws: CalDAVError.insecureURL(remote.absoluteString)) {
            try CalDAVClient(account: CalDAVAccount(url: remote, credentials: Fixed()))
        }
        _ = try CalDAVClient(account: CalDAVAccount(url: remote, credentials: Fixed(), allowInsecure: true))
        _ = try CalDAVClient(
            account: CalDAVAccount(url: URL(string: "https://calendar.example.com/dav/")!, credentials: Fixed()))
        for loopback in ["http://127.0.0.1:5232/", "http://127.8.9.10/", "http://localhost/dav/", "http://[::1]:8080/"]
        {
            _ = try CalDAVClient(account: CalDAVAccount(url: URL(string: loopback)!, credentials: Fixed()))
        }
        // Names that only look like loopback addresses are other machines.
        for lookalike in [
            "http://127.0.0.1.example.org/", "http://127.attacker.net/", "http://[::2]/",
            "http://localhost.example.org/",
        ] {
            let url = URL(string: lookalike)!
            #expect(throws: CalDAVError.insecureURL(url.absoluteString), "\(lookalike)") {
                try CalDAVClient(account: CalDAVAccount(url: url, credentials: Fixed()))
            }
        }
    }

    @Test func aPasswordFileOthersCanReadIsRefused() throws {
        let scratch = try ScratchDirectory()
        let file = scratch.path + "/password"
        _ = FileManager.default.createFile(
            atPath: file, contents: Data("secret\n".utf8), attributes: [.posixPermissions: 0o644])
        #expect(throws: CalDAVError.passwordFileNotPrivate(file)) {
            try PasswordFileCredentials(user: "alice", passwordFile: file)
        }
        chmod(file, 0o620)
        #expect(throws: CalDAVError.passwordFileNotPrivate(file)) {
            try PasswordFileCredentials(user: "alice", passwordFile: file)
        }
        chmod(file, 0o600)
        _ = try PasswordFileCredentials(user: "alice", passwordFile: file)
        #expect("\(CalDAVError.passwordFileNotPrivate(file))".contains("chmod 600"))
    }

    @Test func aHugePasswordFileOrAFifoIsRefusedUnread() throws {
        let scratch = try ScratchDirectory()
        let file = scratch.path + "/password"
        // 1 GiB, sparse: costs the disk nothing, and reading it whole took 4 GB and two minutes.
        _ = FileManager.default.createFile(
            atPath: file, contents: Data("secret\n".utf8), attributes: [.posixPermissions: 0o600])
        #expect(truncate(file, 1 << 30) == 0)
        let limit = PasswordFileCredentials.maximumFileSize
        #expect(throws: CalDAVError.passwordFileTooLarge(file, limit: limit)) {
            try PasswordFileCredentials(user: "alice", passwordFile: file)
        }
        #expect("\(CalDAVError.passwordFileTooLarge(file, limit: limit))".contains("at most 4096 bytes"))

        #expect(truncate(file, off_t(limit)) == 0)
        #expect(try PasswordFileCredentials(user: "alice", passwordFile: file).user == "alice")

        // A FIFO nobody writes to would block the reading thread forever.
        let fifo = scratch.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: CalDAVError.passwordFileTooLarge(fifo, limit: limit)) {
            try PasswordFileCredentials(user: "alice", passwordFile: fifo)
        }
    }

    @Test func theFilesFirstLineIsThePasswordAndNeverPrinted() async throws {
        let scratch = try ScratchDirectory()
        let file = scratch.path + "/password"
        _ = FileManager.default.createFile(
            atPath: file, contents: Data("pa:ss wörd\r\nsecond line\n".utf8), attributes: [.posixPermissions: 0o600])
        let credentials = try PasswordFileCredentials(user: "alice", passwordFile: file)
        #expect(try await credentials.authorization() == "Basic " + Data("alice:pa:ss wörd".utf8).base64EncodedString())
        #expect(!"\(credentials)".contains("wörd"))
    }

    @Test func aMissingPasswordFileSaysWhichFile() {
        #expect {
            try PasswordFileCredentials(user: "alice", passwordFile: "/nonexistent/beautyd-password")
        } throws: { error in
            "\(error)".contains("/nonexistent/beautyd-password") && (error as? CalDAVError) != nil
        }
    }

    /// Refused, not waited out: the reason is the refusal itself (a connect that was retried until the
    /// 10 s connect timeout would say "connection timed out"), after one request. How long it takes
    /// is a benchmark's figure (benchmarks/refused_connect.py), not this test's: under load the time
    /// is the scheduler's, not the client's.
    @Test func nobodyListeningIsUnreachableQuickly() async throws {
        let port = try CalDAVTestServer.freePort()
        let client = try CalDAVClient(
            account: CalDAVAccount(url: URL(string: "http://127.0.0.1:\(port)/")!, credentials: Fixed()))
        let error = await #expect(throws: CalDAVError.self) { try await client.discoverCalendars() }
        guard case let .unreachable(reason) = error else {
            Issue.record("not unreachable: \(String(describing: error))")
            return
        }
        #expect(reason.contains("Connection refused"), "\(reason)")
        #expect(client.statistics.requests == 1)
    }

    /// HTTPS goes through the system's trust store: a self-signed certificate is a failure to
    /// connect, never a silent acceptance.
    @Test func anHTTPSServerWithAnUntrustedCertificateIsRefused() async throws {
        let scratch = try ScratchDirectory()
        let environment = ["PATH": "/usr/bin:/bin", "HOME": scratch.path]
        let made = try await scratch.run(
            try Locations.system("openssl", package: "openssl"),
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", scratch.path + "/key.pem", "-out",
                scratch.path + "/cert.pem",
            ], environment: environment)
        #expect(made.status == .exited(0), "\(made)")
        let port = try CalDAVTestServer.freePort()
        let server = try scratch.spawn(
            "https", Locations.python,
            [
                "-c",
                """
                import http.server, ssl, sys
                server = http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), http.server.BaseHTTPRequestHandler)
                context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
                context.load_cert_chain(sys.argv[2], sys.argv[3])
                server.socket = context.wrap_socket(server.socket, server_side=True)
                server.serve_forever()
                """, String(port), scratch.path + "/cert.pem", scratch.path + "/key.pem",
            ], environment: environment)
        defer { server.killNow() }
        let listening = await eventually(timeout: .seconds(10)) { CalDAVTestServer.answers(port: port) ? true : nil }
        try #require(listening == true, "\(server.outputTail)")

        let client = try CalDAVClient(
            account: CalDAVAccount(url: URL(string: "https://127.0.0.1:\(port)/")!, credentials: Fixed()))
        await #expect {
            try await client.discoverCalendars()
        } throws: { error in
            guard case let .unreachable(reason) = error as? CalDAVError else { return false }
            return reason.lowercased().contains("certificate")
        }
    }

    @Test func newEventNamesComeFromTheUIDAndStayInsideTheCalendar() throws {
        let client = try CalDAVClient(
            account: CalDAVAccount(url: URL(string: "https://dav.example.com/")!, credentials: Fixed()))
        let calendar = URL(string: "https://dav.example.com/alice/my%20cal/")!
        #expect(client.href(forUID: "abc-123_X.y", in: calendar) == "/alice/my%20cal/abc-123_X.y.ics")
        let odd = client.href(forUID: "../../etc/passwd@x y", in: calendar)
        #expect(odd.hasPrefix("/alice/my%20cal/") && odd.hasSuffix(".ics"))
        #expect(!odd.dropFirst("/alice/my%20cal/".count).contains("/"))
        #expect(odd == client.href(forUID: "../../etc/passwd@x y", in: calendar))
        #expect(odd != client.href(forUID: "../../etc/passwd@x z", in: calendar))
        #expect(client.href(forUID: "a", in: URL(string: "https://dav.example.com/cal")!) == "/cal/a.ics")
    }
}
