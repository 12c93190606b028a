import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EndToEndTiming {
    @Suite("Reminders due while beautyd was down", .serialized)
    struct CatchUp {
        @Test("kill -9, reminders fall due, restart: one grouped notification, none after another restart")
        func missedWhileAwayIsDeliveredOnceGrouped() async throws {
            let stack = try await Stack.start()
            defer { stack.shutdown() }
            let start = tomorrowOnTheHour()
            let firstDue = wholeSecond(after: 2)
            let titles = ["Manicure", "Facial", "Massage"]
            for (index, title) in titles.enumerated() {
                _ = try stack.addAppointment(
                    title, start: start.addingTimeInterval(Double(index) * 3600),
                    remindAt: [firstDue.addingTimeInterval(Double(index) * 0.5)])
            }
            // An unclean death before any of them is due: nothing gets a chance to fire or clean up.
            await stack.stopDaemon(signal: SIGKILL)
            try await Task.sleep(for: .seconds(firstDue.addingTimeInterval(1.5).timeIntervalSinceNow))
            #expect(stack.notifications().isEmpty, "nothing may be shown while beautyd is down")

            let restarted = Date()
            try await stack.startDaemon()
            let calls = await stack.waitForNotifications(1, timeout: .seconds(5))
            try await Task.sleep(for: .seconds(1))  // a second, ungrouped delivery would arrive by now
            let all = stack.notifications()
            try #require(all.count == 1, "expected one grouped notification, got \(all)\n\(stack.logs)")
            let grouped = calls[0]
            #expect(grouped.summary == "3 reminders missed while away")
            for title in titles { #expect(grouped.body.contains(title), "\(title) missing from \(grouped.body)") }
            report(
                "catch-up: start -> grouped Notify \(Int((grouped.time - restarted.timeIntervalSince1970) * 1000)) ms (includes process start)"
            )

            let states = try stack.client().call("appointment.list", AppointmentListParams(), as: [Appointment].self)
                .flatMap { a in
                    try stack.client().call("appointment.show", IDParams(id: a.id!), as: AppointmentDetail.self)
                        .deliveries
                }
                .map(\.state)
            #expect(states == [.fired, .fired, .fired])

            await stack.stopDaemon(signal: SIGKILL)
            try await stack.startDaemon()
            try await Task.sleep(for: .seconds(1.5))
            #expect(stack.notifications().count == 1, "a second restart must not deliver again\n\(stack.logs)")
        }
    }
}
