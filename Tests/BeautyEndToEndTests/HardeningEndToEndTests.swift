import BeautyTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// Fast slices of benchmarks/crash_safety.py and benchmarks/fuzz_protocol.py (the full runs take
// minutes; see their docstrings), plus the backpressure of a client that never reads its answers.
// No timing assertions: everything here is counted, not clocked.

extension EndToEndServing {
    @Suite("Hardening: kill -9 under load, hostile clients", .serialized)
    struct Hardening {
        @Test(
            "kill -9 twice during 500 concurrent adds: every answered add is stored, the database is intact, no reminder twice"
        )
        func crashSafety() async throws {
            let result = try await script(
                "crash_safety.py",
                [
                    "--adds", "500", "--kills", "2", "--clients", "4", "--duration", "4",
                    "--reminder-every", "10", "--reminder-lead", "2",
                ])
            // The scheduler writes "delivering" durably before asking the server, so a kill at any moment
            // never shows a reminder twice; the script reports the rare one interrupted mid-ask apart.
            let violations = Self.violations(in: result.stdout)
            #expect(violations.isEmpty, "\(violations)\n\(result)")
            #expect(result.status == .exited(0), "\(result)")
            #expect(result.stdout.contains("integrity_check      ok"), "\(result)")
            #expect(result.stdout.contains(" 0 delivered more than once"), "\(result)")
        }

        @Test("2,000 malformed lines, 50 idle connections, slow writers, a 10 MiB line, deep nesting, fd exhaustion")
        func protocolFuzzing() async throws {
            let result = try await script(
                "fuzz_protocol.py",
                [
                    "--messages", "2000", "--workers", "2", "--idle", "50", "--slow", "5", "--long-lines", "1",
                ])
            #expect(result.status == .exited(0), "\(result)")
            #expect(result.stdout.contains("nesting"), "the slice should include deeply nested lines: \(result)")
        }

        @Test("a client flooding requests without reading its answers is pushed back, not buffered")
        func floodWithoutReading() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let daemon = try #require(stack.daemon)
            let bystander = try stack.client()
            _ = try bystander.status()
            let before = try #require(Self.residentKiB(of: daemon.pid))

            // 1000-byte junk lines (each earns a parse error answer) in 1 MiB writes, never reading:
            // once the daemon stops reading, the socket fills and a write times out.
            var flooder: RPCClient? = try stack.client(timeout: 1)
            let line = Array(repeating: UInt8(ascii: "x"), count: 1000) + [UInt8(ascii: "\n")]
            let chunk = Array([[UInt8]](repeating: line, count: 1024).joined())
            var accepted = 0
            while accepted < 64 << 20 {
                do { try flooder?.send(bytes: chunk) } catch { break }
                accepted += chunk.count
            }
            #expect(accepted < 32 << 20, "the daemon took \(accepted >> 20) MiB from a client that reads nothing")
            let during = try #require(Self.residentKiB(of: daemon.pid))
            #expect(during - before < 64 << 10, "VmRSS grew from \(before) to \(during) KiB")
            #expect(try bystander.status().pid == daemon.pid, "\(stack.logs)")

            flooder = nil  // hang up: the daemon drops what is left and keeps serving
            #expect(try bystander.status().pid == daemon.pid, "\(stack.logs)")
            #expect(try stack.client().status().pid == daemon.pid)
            #expect(daemon.isRunning)
        }

        // MARK: - Helpers

        /// Runs benchmarks/NAME with the system python against the binaries under test.
        private func script(_ name: String, _ arguments: [String]) async throws -> CommandResult {
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            let path = Locations.packageRoot.appendingPathComponent("benchmarks/\(name)").path
            _ = try Locations.built("beautyd")
            return try await stack.run(
                Locations.python, [path, "--bin", Locations.binDirectory] + arguments,
                timeout: .seconds(180))
        }

        /// The lines after "VIOLATIONS:" in a script's output.
        private static func violations(in output: String) -> [String] {
            guard let range = output.range(of: "VIOLATIONS:\n") else { return [] }
            return output[range.upperBound...].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("(kept") }
        }

        private static func residentKiB(of pid: pid_t) -> Int? {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
            for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
                return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
            }
            return nil
        }
    }
}
