import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

/// Which appointment reminders the scheduler shows, and when, with the clock moved by the test.
@Suite("Appointment reminders in process: which fire, and at which instants")
struct AppointmentReminderTests {
    static let now = instant("2030-01-15 09:00")

    func add(_ daemon: InProcessDaemon, _ title: String, start: Date, remindAt: [Date]) async throws
        -> AppointmentDetail
    {
        var params = AppointmentAddParams(title: title, start: start)
        params.reminders = remindAt.map(Reminder.at)
        return try await daemon.call(AppointmentRPC.add, params)
    }

    @Test("cancelled, completed and removed appointments never fire")
    func onlyScheduledAppointmentsFire() async throws {
        let daemon = try await InProcessDaemon(now: Self.now)
        let due = Self.now.addingTimeInterval(90)
        var ids: [String: Int64] = [:]
        for title in ["Cancelled", "Done", "Removed", "Kept"] {
            ids[title] = try #require(
                try await add(daemon, title, start: Self.now.addingTimeInterval(86_400), remindAt: [due]).appointment.id
            )
        }
        _ = try await daemon.call(AppointmentRPC.cancel, AppointmentOccurrenceParams(id: ids["Cancelled"]!))
        _ = try await daemon.call(AppointmentRPC.done, AppointmentOccurrenceParams(id: ids["Done"]!))
        _ = try await daemon.call(AppointmentRPC.remove, AppointmentOccurrenceParams(id: ids["Removed"]!))
        #expect(await daemon.armed(for: due), "next wake \(String(describing: daemon.timer.deadline)), due \(due)")
        try await daemon.run(until: due.addingTimeInterval(60))
        #expect(daemon.notifier.shown.map(\.summary) == ["Kept"], "\(daemon.notifier.shown)")
        #expect(try await daemon.call(ViewRPC.status).counts.pendingDeliveries == 0)
    }

    @Test("a series reminder fires at each occurrence, on time, and not again after a restart")
    func seriesFiresEveryOccurrence() async throws {
        let daemon = try await InProcessDaemon(now: Self.now)
        let first = Self.now.addingTimeInterval(2.5).rounded()
        var params = AppointmentAddParams(title: "Serum", start: first)
        params.recurrence = AppointmentRecurrence(rule: "FREQ=MINUTELY;COUNT=3")
        params.reminders = [.before(0)]
        let detail = try await daemon.call(AppointmentRPC.add, params)
        let id = try #require(detail.appointment.id)
        let due = (0..<3).map { first.addingTimeInterval(Double($0) * 60) }
        #expect(detail.appointment.recurrence?.rule == "FREQ=MINUTELY;COUNT=3")
        #expect(detail.nextOccurrences == due, "\(String(describing: detail.nextOccurrences))")
        #expect(
            detail.deliveries.map(\.trigger.fireAt) == due && detail.deliveries.allSatisfy { $0.state == .pending },
            "\(detail.deliveries)")

        // Each occurrence is the next wake, nothing is shown before it, and it is shown when it comes.
        for (index, instant) in due.enumerated() {
            #expect(
                await daemon.armed(for: instant),
                "occurrence \(index): next wake \(String(describing: daemon.timer.deadline))")
            try await daemon.advance(to: instant.addingTimeInterval(-0.5))
            #expect(daemon.notifier.shown.count == index, "occurrence \(iso(instant)) was announced early")
            try await daemon.advance(to: instant)
            #expect(
                await daemon.notifier.waitForShown(index + 1).count == index + 1,
                "occurrence \(iso(instant)) was not announced")
        }
        try await daemon.run(until: due[2].addingTimeInterval(60))  // a fourth would be here by now
        let all = daemon.notifier.shown
        try #require(all.count == 3, "expected exactly three notifications, got \(all)")
        for notification in all {
            #expect(notification.summary == "Serum", "\(notification)")
            #expect(notification.category == "x-beautyd.appointment")
        }
        let fired = try await daemon.call(AppointmentRPC.show, IDParams(id: id)).deliveries
        #expect(fired.map(\.state) == [.fired, .fired, .fired] && fired.map(\.trigger.occurrence) == due, "\(fired)")

        // A restart on the same store shows none of it again.
        await daemon.stop()
        let restarted = try await InProcessDaemon(now: daemon.clock.now.addingTimeInterval(1.5), store: daemon.store)
        #expect(restarted.notifier.shown.isEmpty, "a restart announced the series again: \(restarted.notifier.shown)")
        #expect(
            try await restarted.call(AppointmentRPC.show, IDParams(id: id)).deliveries.map(\.state) == [
                .fired, .fired, .fired,
            ])
        #expect(try await restarted.call(ViewRPC.status).counts.pendingDeliveries == 0)
    }

    @Test("FREQ=SECONDLY with a reminder: one notification in 15 seconds, not 15; at most one a minute after that")
    func aSecondlySeriesRemindsAtMostOnceAMinute() async throws {
        let daemon = try await InProcessDaemon(now: Self.now)
        let first = Self.now.addingTimeInterval(2.5).rounded()
        var params = AppointmentAddParams(title: "Flood", start: first)
        params.recurrence = AppointmentRecurrence(rule: "FREQ=SECONDLY")
        params.reminders = [.before(0)]
        let id = try #require(try await daemon.call(AppointmentRPC.add, params).appointment.id)
        // The add's own pass arms the first occurrence: moving the clock before it ends would leave that pass to
        // find the clock past its deadlines, with nothing left to wake it.
        #expect(await daemon.armed(for: first), "armed \(daemon.timer.lastArmed)")
        // Second by second, as the timer would wake for each occurrence.
        for second in 0...15 { try await daemon.run(until: first.addingTimeInterval(Double(second))) }
        #expect(
            await daemon.notifier.waitForShown(1).count == 1, "\(daemon.notifier.shown.count) notifications in 15 s")
        #expect(
            await daemon.notifier.waitForShown(2, timeout: .milliseconds(500)).count == 1,
            "\(daemon.notifier.shown.count) notifications in 15 s")
        // A minute at a time: one jump of ten minutes, made before the scheduler's pass has armed its
        // next instant (a busy machine), would be one catch-up, not ten minutes of reminders.
        for minute in 1...10 { try await daemon.run(until: first.addingTimeInterval(Double(minute) * 60)) }
        _ = await daemon.notifier.waitForShown(2, timeout: InProcessDaemon.patience)
        let tenMinutes = await daemon.notifier.waitForShown(11, timeout: .seconds(1)).count
        let ledger = try await daemon.call(AppointmentRPC.show, IDParams(id: id)).deliveries
            .filter { $0.trigger.fireAt <= first.addingTimeInterval(600) }
            .map { "+\(Int($0.trigger.fireAt.timeIntervalSince(first))) s \($0.state.rawValue)" }
        #expect(
            (2...10).contains(tenMinutes),
            "\(tenMinutes) notifications in 10 minutes; reminders \(ledger), armed \(daemon.timer.lastArmed)")
    }
}

extension Date {
    /// To the whole second (reminders are due on whole seconds).
    func rounded() -> Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.up)) }
}
