import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EndToEndServing {
    @Suite("The daemon's socket", .serialized)
    struct Socket {
        @Test("bad input gets a JSON-RPC error and hurts nobody")
        func badInput() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let daemon = try #require(stack.daemon)
            let bad = try stack.client()
            let bystander = try stack.client()  // connected all along, must keep getting answers

            func everythingStillWorks(after what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
                #expect(daemon.isRunning, "beautyd died after \(what)\n\(stack.logs)", sourceLocation: sourceLocation)
                let status = try bystander.status()
                #expect(status.pid == daemon.pid, sourceLocation: sourceLocation)
            }

            var answer = try bad.roundTrip(#"{"jsonrpc":"2.0","id":1,"method":"status""#)
            #expect(answer.errorCode == RPCErrorCode.parseError, "\(answer)")
            #expect(answer["id"] is NSNull, "a parse error's id must be null: \(answer)")
            try everythingStillWorks(after: "malformed JSON")

            // JSONDecoder alone would accept these (it never reads "pad"): they are still parse errors.
            for junk in [#""pad":01"#, #""pad":-"#, "\"pad\":\"a\tb\""] {
                answer = try bad.roundTrip(#"{"jsonrpc":"2.0","id":1,"method":"status",\#(junk)}"#)
                #expect(answer.errorCode == RPCErrorCode.parseError, "\(junk): \(answer)")
            }

            answer = try bad.roundTrip("[1, 2, 3]")
            #expect(answer.errorCode == RPCErrorCode.invalidRequest, "\(answer)")
            try everythingStillWorks(after: "a JSON array")

            // 2 MiB in one line: the bystander is answered while the line is still arriving.
            let pad = String(repeating: "x", count: 2 << 20)
            let huge =
                Array(#"{"jsonrpc":"2.0","id":2,"method":"status","params":{"pad":"\#(pad)"}}"#.utf8) + [
                    UInt8(ascii: "\n")
                ]
            try bad.send(bytes: Array(huge[..<(huge.count / 2)]))
            try everythingStillWorks(after: "the first MiB of an over-long line")
            try bad.send(bytes: Array(huge[(huge.count / 2)...]))
            answer = try JSONSerialization.jsonObject(with: try bad.readLine()) as? [String: Any] ?? [:]
            #expect(answer.errorCode == RPCErrorCode.lineTooLong, "\(answer)")
            try everythingStillWorks(after: "a 2 MiB line")
            let sameConnection = try bad.status()  // the connection that sent it still works
            #expect(sameConnection.pid == daemon.pid)

            answer = try bad.roundTrip(#"{"jsonrpc":"2.0","id":3,"method":"appointment.explode","params":{}}"#)
            #expect(answer.errorCode == RPCErrorCode.methodNotFound, "\(answer)")
            #expect(answer["id"] as? Int == 3)
            try everythingStillWorks(after: "an unknown method")

            answer = try bad.roundTrip(
                #"{"jsonrpc":"2.0","id":4,"method":"appointment.add","params":{"title":5,"start":"2026-12-01T13:00:00Z"}}"#
            )
            #expect(answer.errorCode == RPCErrorCode.invalidParams, "\(answer)")
            #expect(answer.errorMessage?.contains("title") == true, "the message should name the field: \(answer)")
            try everythingStillWorks(after: "a number as title")

            answer = try bad.roundTrip(
                #"{"jsonrpc":"2.0","id":5,"method":"appointment.add","params":{"title":"Haircut","start":"tomorrow-ish"}}"#
            )
            #expect(answer.errorCode == RPCErrorCode.invalidParams, "\(answer)")
            #expect(answer.errorMessage?.contains("start") == true, "the message should name the field: \(answer)")
            try everythingStillWorks(after: "a start that is not a time")

            // Shaped like an instant but not one: no rolling 30 February into March.
            answer = try bad.roundTrip(
                #"{"jsonrpc":"2.0","id":7,"method":"appointment.add","params":{"title":"Haircut","start":"2030-02-30T10:00:00Z"}}"#
            )
            #expect(answer.errorCode == RPCErrorCode.invalidParams, "\(answer)")
            #expect(answer.errorMessage?.contains("start") == true, "the message should name the field: \(answer)")
            try everythingStillWorks(after: "30 February")

            answer = try bad.roundTrip(
                #"{"jsonrpc":"2.0","id":6,"method":"appointment.add","params":{"title":"Haircut","start":"2026-12-01T13:00:00Z","reminders":[{"beforeSeconds":"an hour"}]}}"#
            )
            #expect(answer.errorCode == RPCErrorCode.invalidParams, "\(answer)")
            #expect(answer.errorMessage?.contains("beforeSeconds") == true, "\(answer)")
            try everythingStillWorks(after: "a reminder of the wrong type")

            // Nothing bad was stored.
            let list: [Appointment] = try bystander.call("appointment.list", AppointmentListParams())
            #expect(list.isEmpty, "\(list)")
        }

        /// `echo ... | socat` with an answer larger than the socket's buffer: the daemon hangs up after
        /// EOF only once the last answer has been written whole.
        @Test("after the client's EOF, an answer larger than the socket buffer arrives whole before the hang-up")
        func largeLastAnswerBeforeHangUp() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            // An unknown method is named in its error: 900 kB of name makes a 900 kB answer.
            let name = String(repeating: "m", count: 900_000)
            let client = try stack.client(timeout: 30)
            try client.send(line: #"{"jsonrpc":"2.0","id":1,"method":"\#(name)"}"#)
            client.finishSending()
            let answer = try JSONSerialization.jsonObject(with: try client.readLine()) as? [String: Any] ?? [:]
            #expect(answer.errorCode == RPCErrorCode.methodNotFound)
            #expect(answer.errorMessage?.contains("unknown method '\(name)'") == true)
            #expect(client.nextLine() == nil, "the daemon hangs up after the last answer")
        }

        @Test("a subscriber's own lines are read and ignored; its EOF ends the subscription and the connection")
        func subscriberLinesAndEOF() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let watcher = try stack.client()
            let ack = try watcher.roundTrip(#"{"jsonrpc":"2.0","id":1,"method":"subscribe"}"#)
            #expect((ack["result"] as? [String: Any])?["subscribed"] as? Bool == true, "\(ack)")
            try watcher.send(line: #"{"jsonrpc":"2.0","id":2,"method":"status"}"#)
            try watcher.send(line: "not even JSON")
            watcher.finishSending()
            let end = #expect(throws: HarnessError.self, "no answer, then the hang-up") { try watcher.readLine() }
            #expect(
                end?.description.hasSuffix("the daemon closed the connection") == true, "\(String(describing: end))")
            #expect(try stack.client().status().pid == stack.daemon?.pid)
        }

        @Test(
            "SIGTERM with an idle client, a subscriber, a client that reads nothing and one half-closed: beautyd hangs up and exits 0"
        )
        func stopsWithClientsConnected() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let idle = try stack.client()
            _ = try idle.status()
            let watcher = try stack.client()
            _ = try watcher.roundTrip(#"{"jsonrpc":"2.0","id":1,"method":"subscribe"}"#)
            // 900 kB answers it never reads: the daemon waits on a full socket to write the next one.
            let deaf = try stack.client(timeout: 1)
            let name = String(repeating: "m", count: 900_000)
            for id in 0..<8 {
                do { try deaf.send(line: #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(name)"}"#) } catch { break }
            }
            // One 900 kB answer, then EOF, and nothing read: the daemon waits for that answer to leave
            // before it closes the connection, and a stop must end that wait.
            let halfClosed = try stack.client(timeout: 1)
            try halfClosed.send(line: #"{"jsonrpc":"2.0","id":1,"method":"\#(name)"}"#)
            halfClosed.finishSending()
            #expect(try stack.client().status().pid == stack.daemon?.pid)
            try await Task.sleep(for: .seconds(1))

            #expect(await stack.stopDaemon(signal: SIGTERM) == .exited(0))
            for client in [idle, watcher] {
                let end = #expect(throws: HarnessError.self) { try client.readLine() }
                #expect(
                    end?.description.hasSuffix("the daemon closed the connection") == true, "\(String(describing: end))"
                )
            }
        }

        @Test("a second daemon on the same socket refuses to start; a stale socket is replaced")
        func singleInstanceAndStaleSocket() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let first = try #require(stack.daemon)

            let second = try await stack.run(try Locations.built("beautyd"), [], timeout: .seconds(15))
            #expect(second.status == .exited(1), "\(second)")
            #expect(second.stderr.contains("already running"), "\(second)")
            #expect(first.isRunning)
            #expect(try stack.client().status().pid == first.pid, "the first daemon must keep its socket")

            // kill -9 leaves the socket file behind; nobody answers on it.
            #expect(await first.stop(SIGKILL) == .signaled(SIGKILL))
            #expect(
                FileManager.default.fileExists(atPath: stack.socketPath), "expected a stale socket file after kill -9")
            #expect(throws: (any Error).self) { _ = try stack.client().status() }

            let restarted = try await stack.startDaemon()
            #expect(try stack.client().status().pid == restarted.pid)
        }

        @Test("socket directory 0700, socket and database 0600")
        func fileModes() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            _ = try stack.addAppointment("Massage", start: tomorrowOnTheHour(), remindAt: [])

            func mode(_ path: String) throws -> mode_t {
                var info = stat()
                guard lstat(path, &info) == 0 else {
                    throw HarnessError("stat \(path): \(String(cString: strerror(errno)))")
                }
                return info.st_mode
            }
            let socketDirectory = (stack.socketPath as NSString).deletingLastPathComponent
            let dirMode = try mode(socketDirectory)
            #expect(dirMode & S_IFMT == S_IFDIR)
            #expect(dirMode & 0o777 == 0o700, "socket directory mode \(String(dirMode & 0o777, radix: 8))")
            let socketMode = try mode(stack.socketPath)
            #expect(socketMode & S_IFMT == S_IFSOCK)
            #expect(socketMode & 0o777 == 0o600, "socket mode \(String(socketMode & 0o777, radix: 8))")
            for path in [stack.databasePath, stack.databasePath + "-wal", stack.databasePath + "-shm"]
            where FileManager.default.fileExists(atPath: path) {
                let fileMode = try mode(path)
                #expect(fileMode & 0o777 == 0o600, "\(path) mode \(String(fileMode & 0o777, radix: 8))")
            }
            #expect(FileManager.default.fileExists(atPath: stack.databasePath))
        }
    }
}
