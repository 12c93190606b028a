import BeautyCore
import BeautyDaemon
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

/// An unanswered dose, with the clock moved by the test from one re-notification to the next.
@Suite("Medications in process: an unanswered dose is shown again in place, then missed")
struct DoseNagTests {
    @Test("re-notified every nag_interval in place with the original time, then recorded missed")
    func unansweredDoseIsRenotifiedThenMissed() async throws {
        var config = DaemonConfig()
        config.nagIntervalSeconds = 2
        config.nagCount = 2
        let due = instant("2030-01-15 09:05")
        let daemon = try await InProcessDaemon(now: instant("2030-01-15 09:00"), config: config)
        var params = MedicationAddParams(name: "Antibiotic")
        params.dose = "1 capsule"
        params.schedule = MedicationSchedule(kind: .times, times: [ClockTime(hour: 9, minute: 5)])
        let added = try await daemon.call(MedicationRPC.add, params)
        let medicationID = try #require(added.medication.id)
        let doseID = try #require(added.today.first { $0.scheduledAt == due }?.id, "\(added.today)")

        // The first notice plus two re-notifications, nag_interval apart, each replacing the one before.
        let interval = TimeInterval(config.nagIntervalSeconds)
        for index in 0..<3 {
            let at = due.addingTimeInterval(Double(index) * interval)
            #expect(
                await daemon.armed(for: at),
                "notice \(index): next wake \(String(describing: daemon.timer.deadline)), due \(at)")
            try await daemon.advance(to: at.addingTimeInterval(-0.5))
            #expect(daemon.notifier.shown.count == index, "notice \(index) came before \(at)")
            try await daemon.advance(to: at)
            #expect(
                await daemon.notifier.waitForShown(index + 1).count == index + 1,
                "notice \(index) did not come at \(at)")
        }
        let calls = daemon.notifier.shown
        try #require(calls.count == 3, "expected 3 notices, got \(calls)")
        #expect(calls[0].replacesKey == nil)
        #expect(
            calls[1].replacesKey == calls[0].key && calls[2].replacesKey == calls[1].key,
            "re-notifications must replace the notice shown before: \(calls.map(\.replacesKey))")
        #expect(calls.allSatisfy { $0.body.contains("scheduled \(localClock(due))") }, "\(calls.map(\.body))")
        #expect(
            calls[1].body.contains("Reminder 1 of 2") && calls[2].body.contains("Reminder 2 of 2"),
            "\(calls.map(\.body))")

        // One interval after the last re-notification the dose is given up: missed, in history too.
        let givenUp = due.addingTimeInterval(3 * interval)
        #expect(
            await daemon.armed(for: givenUp),
            "next wake \(String(describing: daemon.timer.deadline)), give up at \(givenUp)")
        try await daemon.run(until: givenUp.addingTimeInterval(60))
        let dose = try await daemon.call(MedicationRPC.show, IDParams(id: medicationID)).today.first { $0.id == doseID }
        #expect(dose?.state == .missed, "\(String(describing: dose))")
        #expect(daemon.notifier.shown.count == 3, "nothing more may be shown after the dose is missed")
        let history = try await daemon.call(MedicationRPC.history, HistoryParams())
        #expect(
            history.entries.contains { $0.kind == .dose && $0.id == doseID && $0.state == "missed" },
            "\(history.entries)")
    }
}
