import BeautyTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// beautyd under tight process limits (prlimit): it either works or refuses to start with a message;
// it never reports ready and then spins, crashes or stops answering. CPU time is read from
// /proc/PID/stat: a spinning loop burns a whole core, an idle daemon next to nothing.

extension EndToEndServing {
    @Suite("Resource limits: descriptors and address space", .serialized)
    struct ResourceLimits {
        private func limited(_ stack: Stack, _ limits: [String], arguments: [String] = []) throws -> ChildProcess {
            let prlimit = try Locations.system("prlimit", package: "util-linux")
            return try stack.spawn("beautyd", prlimit, limits + ["--", try Locations.built("beautyd")] + arguments)
        }

        private func answering(_ stack: Stack, _ daemon: ChildProcess) async -> Bool {
            await eventually(timeout: .seconds(15), interval: .milliseconds(20)) { () -> Bool? in
                if !daemon.isRunning { return false }
                return (try? stack.client(timeout: 2).status()) != nil ? true : nil
            } ?? false
        }

        /// User plus system CPU seconds the process has used.
        private static func cpuSeconds(_ pid: pid_t) -> Double? {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
            return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        }

        @Test("with too few descriptors (ulimit -n 32) beautyd refuses to start and says why")
        func tooFewDescriptors() async throws {
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            let daemon = try limited(stack, ["--nofile=32:32"])
            let status = await daemon.wait(timeout: .seconds(15))
            #expect(status == .exited(1), "\(daemon.outputTail)")
            #expect(daemon.stderr.contains("open-file limit (ulimit -n) is 32"), "\(daemon.outputTail)")
        }

        @Test("a soft open-file limit of 32 under a hard one of 4096 is raised at start, and beautyd serves")
        func softLimitIsRaised() async throws {
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            let daemon = try limited(stack, ["--nofile=32:4096"])
            #expect(await answering(stack, daemon), "\(daemon.outputTail)")
            let limits = try String(contentsOfFile: "/proc/\(daemon.pid)/limits", encoding: .utf8)
            let openFiles = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") }
            let numbers = openFiles?.split(separator: " ").compactMap { Int($0) } ?? []
            #expect(
                numbers == [4096, 4096], "\(openFiles ?? "no line"): the soft limit was not raised to the hard one")
        }

        @Test("descriptors running out while serving: accepting pauses instead of spinning, and resumes")
        func descriptorsRunOut() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let daemon = try #require(stack.daemon)
            let prlimit = try Locations.system("prlimit", package: "util-linux")
            let lowered = try await stack.run(prlimit, ["--pid", "\(daemon.pid)", "--nofile=64:64"])
            #expect(lowered.status == .exited(0), "\(lowered)")

            var held: [RPCClient] = []
            // more than fit; the rest queue in the backlog
            for _ in 0..<150 { held.append(try stack.client(timeout: 1)) }
            try await Task.sleep(for: .milliseconds(500))
            let before = try #require(Self.cpuSeconds(daemon.pid))
            try await Task.sleep(for: .seconds(2))
            let used = try #require(Self.cpuSeconds(daemon.pid)) - before
            #expect(used < 0.5, "beautyd used \(used) s of CPU in 2 s while out of descriptors")

            held.removeAll()
            // A safety net: the backlog's clients go first, slowly on a busy machine.
            let back = await eventually(timeout: .seconds(120)) {
                (try? stack.client(timeout: 2).status()) != nil ? true : nil
            }
            #expect(
                back == true,
                "\(daemon.stderr.split(separator: "\n").filter { !$0.contains("Cannot schedule") }.suffix(60).joined(separator: "\n"))"
            )
            #expect(daemon.stderr.contains("cannot accept connections"), "the pause should be logged")
        }

        @Test("connections beyond the maximum are answered -32002 and closed; the others are served")
        func connectionsBeyondTheMaximum() async throws {
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            let daemon = try limited(stack, ["--nofile=100:100"])
            #expect(await answering(stack, daemon), "\(daemon.outputTail)")

            var held: [RPCClient] = []
            // 10 s to answer: with the whole suite and two CPU hogs beside it, a served client's status once took
            // over 1 s (busy 82, served 3 of 90), and one left waiting counts as neither.
            for _ in 0..<90 { held.append(try stack.client(timeout: 10)) }
            // A turned-away client finds the refusal waiting (its request may not even be sent).
            for client in held { try? client.send(line: #"{"jsonrpc":"2.0","id":1,"method":"status"}"#) }
            var busy = 0, served = 0
            for client in held {
                guard let line = try? client.readLine(),
                    let answer = try? JSONSerialization.jsonObject(with: line) as? [String: Any]
                else { continue }
                if (answer["error"] as? [String: Any])?["code"] as? Int == -32002 { busy += 1 }
                if answer["result"] != nil { served += 1 }
            }
            #expect(busy > 0 && served > 0 && busy + served == 90, "busy \(busy), served \(served)")
            held.removeAll()
            // A safety net: the backlog's clients go first, slowly on a busy machine.
            let back = await eventually(timeout: .seconds(120)) {
                (try? stack.client(timeout: 2).status()) != nil ? true : nil
            }
            #expect(back == true)
        }

        @Test("below the minimum address space (ulimit -v 190000) beautyd refuses to start and says why")
        func tooLittleAddressSpace() async throws {
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            let daemon = try limited(stack, ["--as=\(190_000 * 1024)"])
            let status = await daemon.wait(timeout: .seconds(15))
            #expect(status == .exited(1), "\(daemon.outputTail)")
            #expect(daemon.stderr.contains("address-space limit (ulimit -v) is 190000 KiB"), "\(daemon.outputTail)")
        }

        @Test("at the minimum address space beautyd serves 24 clients at once and stops on SIGTERM")
        func minimumAddressSpace() async throws {
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            let minimum = 1 << 30
            let daemon = try limited(stack, ["--as=\(minimum):\(minimum)"])
            #expect(await answering(stack, daemon), "\(daemon.outputTail)")
            _ = try stack.addAppointment("Facial", start: tomorrowOnTheHour(), remindAt: [])

            // Started one after another (the stack is not thread-safe), running all at once.
            let beautyctl = try Locations.built("beautyctl")
            let clients = try (0..<24).map { _ in
                try stack.spawn("beautyctl", beautyctl, ["--socket", stack.socketPath, "agenda", "--days", "30"])
            }
            for client in clients {
                let status = await client.wait(timeout: .seconds(30))
                #expect(
                    status == .exited(0) && client.stdout.contains("Facial"),
                    "\(client.outputTail)\n\(daemon.outputTail)")
            }
            #expect(daemon.isRunning)
            daemon.signal(SIGTERM)
            #expect(await daemon.wait(timeout: .seconds(10)) == .exited(0), "\(daemon.outputTail)")
        }
    }
}
