import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// The session bus dying and coming back, and a notification server that stops answering for longer
// than the D-Bus timeout: beautyd keeps running and shows every reminder exactly once.

extension EndToEndBus {
    @Suite("Faults: the session bus going away, a notification server stopped past the D-Bus timeout", .serialized)
    struct BusFaults {
        @Test(
            "started with no session bus, then the bus dies under it: beautyd stays up and each reminder is shown once on the new bus"
        )
        func sessionBusComesBack() async throws {
            let stack = try await Stack.start(daemon: false)
            defer { stack.shutdown() }
            await stack.stopServer()
            stack.killBus()

            // Started while there is no bus: it serves its socket and waits for the bus.
            let daemon = try await stack.startDaemon()
            let firstDue = wholeSecond(after: 1.5)
            let first = try #require(
                try stack.addAppointment("Eyebrow tint", start: tomorrowOnTheHour(), remindAt: [firstDue]).appointment
                    .id)
            await sleep(until: firstDue.addingTimeInterval(0.5))
            #expect(daemon.isRunning, "beautyd ended without a bus: \(stack.logs)")
            try await stack.restartBus()
            try await stack.startServer()
            let picked = await stack.waitForNotifications(1, timeout: .seconds(10))
            try #require(
                picked.map(\.summary) == ["Eyebrow tint"], "the bus that appeared was not picked up\n\(stack.logs)")

            // The bus dies under a running beautyd (GLib's default for its shared connection is to raise SIGTERM then).
            stack.killBus()
            await stack.stopServer()
            try await Task.sleep(for: .seconds(1))
            try #require(
                daemon.isRunning,
                "beautyd ended when the session bus went away (\(daemon.poll()?.description ?? "running"))\n\(stack.logs)"
            )
            let secondDue = wholeSecond(after: 1.5)
            let second = try #require(
                try stack.addAppointment("Lash lift", start: tomorrowOnTheHour(), remindAt: [secondDue]).appointment.id)
            try await stack.restartBus()
            try await stack.startServer()
            let calls = await stack.waitForNotifications(2, timeout: .seconds(secondDue.timeIntervalSinceNow + 10))
            try #require(calls.count == 2, "the reminder due after the bus came back was not shown\n\(stack.logs)")
            #expect(calls[1].summary == "Lash lift" && calls[1].date >= secondDue, "\(calls)")
            try await Task.sleep(for: .seconds(1.5))
            #expect(stack.notifications().map(\.summary) == ["Eyebrow tint", "Lash lift"], "\(stack.notifications())")
            for id in [first, second] {
                #expect(try stack.client().show(id).deliveries.map(\.state) == [.fired])
            }
            #expect(daemon.isRunning)
            #expect(daemon.stderr.contains("lost the session bus"), "the loss must be logged\n\(daemon.outputTail)")
        }

        @Test(
            "a server stopped (SIGSTOP) past the D-Bus timeout while a reminder is due shows it exactly once after SIGCONT"
        )
        func stoppedServerShowsOnce() async throws {
            // Retries come every 2 s, so several fall inside the stop.
            let stack = try await Stack.start(config: "[scheduling]\nretry_interval = \"2s\"\n")
            defer { stack.shutdown() }
            let known = try await eventually(timeout: .seconds(5)) {
                try stack.client().status().notificationServer.reachable ? true : nil
            }
            try #require(known == true, "beautyd never reached the server\n\(stack.logs)")
            let server = try #require(stack.server)
            let due = wholeSecond(after: 1)
            let id = try #require(
                try stack.addAppointment("Chemical peel", start: tomorrowOnTheHour(), remindAt: [due]).appointment.id)
            server.signal(SIGSTOP)
            try await expectShownOnceAfterStop(stack, server: server, ids: [id], summary: "Chemical peel")
        }

        /// Waits until the Notify to the stopped server timed out and a retry interval passed, resumes
        /// the server, and checks that exactly one popup titled `summary` came of it.
        private func expectShownOnceAfterStop(_ stack: Stack, server: ChildProcess, ids: [Int64], summary: String)
            async throws
        {
            let stopped = Date()
            let daemon = try #require(stack.daemon)
            // libnotify gives up on the Notify after its ~25 s D-Bus timeout while the call stays
            // queued at the server; the scheduler logs the failed delivery.
            let gaveUp = try await eventually(timeout: .seconds(60), interval: .milliseconds(200)) { () -> String? in
                guard daemon.stderr.contains("waiting for a notification server") else { return nil }
                return try stack.client().status().notificationServer.lastError ?? "-"
            }
            try #require(gaveUp != nil, "the Notify never timed out\n\(stack.logs)")
            // A retry interval passes while the server is still stopped, then it resumes and works through its queue.
            try await Task.sleep(for: .seconds(3))
            server.signal(SIGCONT)
            report(
                String(
                    format: "server stopped for %.1f s; beautyd's last error while stopped: %@",
                    Date().timeIntervalSince(stopped), gaveUp ?? "-"))

            let shown = await stack.waitForNotifications(1, timeout: .seconds(30))
            try #require(!shown.isEmpty, "the reminder was never shown\n\(stack.logs)")
            let fired = try await eventually(timeout: .seconds(30)) {
                try ids.allSatisfy { try stack.client().show($0).deliveries.map(\.state) == [.fired] } ? true : nil
            }
            #expect(fired == true, "the deliveries are not recorded as fired\n\(stack.logs)")
            // Retries still due would show it again now that the server answers.
            try await Task.sleep(for: .seconds(4))
            let popups = stack.notifications().filter { $0.replacesID == 0 }
            #expect(popups.map(\.summary) == [summary], "shown \(popups.count) times: \(popups)")
        }
    }
}
