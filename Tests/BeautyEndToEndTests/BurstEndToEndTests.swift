import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndBus {
    /// Reminders due at one instant: their Notify calls are sent back to back, none waiting for the
    /// server's answer to the one before, in the order of their keys.
    @Suite("A burst of reminders at one instant, on the real bus", .serialized)
    struct Burst {
        @Test(
            "ten due at one instant reach a server that answers none until all ten have arrived: in order, none twice")
        func tenInFlightTogether() async throws {
            // A client that waits for each answer before its next Notify gets no further than the first.
            let stack = try await Stack.start(serverFlags: ["--answer-together", "10"])
            defer { stack.shutdown() }
            let due = wholeSecond(after: 2)
            var titleOfKey: [String: String] = [:]
            var ids: [Int64] = []
            for index in 0..<10 {
                let title = "Burst \(index)"
                let detail = try stack.addAppointment(title, start: tomorrowOnTheHour(), remindAt: [due])
                titleOfKey[try #require(detail.deliveries.first?.trigger.key)] = title
                ids.append(try #require(detail.appointment.id))
            }
            try #require(Date() < due, "adding the ten took past their instant")

            let calls = await stack.waitForNotifications(10, timeout: .seconds(due.timeIntervalSinceNow + 15))
            #expect(calls.map(\.summary) == titleOfKey.keys.sorted().map { titleOfKey[$0]! }, "\(calls)\n\(stack.logs)")
            try await Task.sleep(for: .seconds(1.5))
            let all = stack.notifications()
            #expect(all.count == 10 && Set(all.map(\.id)).count == 10, "shown more than once: \(all)")
            let client = try stack.client()
            for id in ids { #expect(try client.show(id).deliveries.map(\.state) == [.fired], "appointment \(id)") }
        }

        @Test(
            "a server that stalls gets the whole burst at once (none waits for its timeout), and its replacement shows each once"
        )
        func stalledServerHoldsNoneBack() async throws {
            let stack = try await Stack.start(serverFlags: ["--hang"])
            defer { stack.shutdown() }
            let due = wholeSecond(after: 2)
            var ids: [Int64] = []
            for index in 0..<3 {
                let detail = try stack.addAppointment("Stalled \(index)", start: tomorrowOnTheHour(), remindAt: [due])
                ids.append(try #require(detail.appointment.id))
            }
            try #require(Date() < due, "adding the three took past their instant")
            // One at a time, the second would wait for the first's D-Bus timeout (about 25 s).
            try #require(
                await stack.waitForHungNotify(3, timeout: .seconds(due.timeIntervalSinceNow + 10)),
                "the stalled server did not get all three at once\n\(stack.logs)")

            await stack.stopServer()
            _ = try await stack.startServer()
            let calls = await stack.waitForNotifications(3, timeout: .seconds(15))
            #expect(
                calls.map(\.summary).sorted() == ["Stalled 0", "Stalled 1", "Stalled 2"], "\(calls)\n\(stack.logs)")
            try await Task.sleep(for: .seconds(1.5))
            #expect(stack.notifications().count == 3, "shown more than once: \(stack.notifications())")
            let client = try stack.client()
            for id in ids { #expect(try client.show(id).deliveries.map(\.state) == [.fired], "appointment \(id)") }
        }
    }
}
