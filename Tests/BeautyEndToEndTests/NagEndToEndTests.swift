import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndTiming {
    @Suite("Medications: an unanswered dose is shown again in place, then missed", .serialized)
    struct Nagging {
        @Test("re-notified every nag_interval with the same id and the original time, then recorded missed")
        func unansweredDoseIsRenotifiedThenMissed() async throws {
            let stack = try await Stack.start(daemon: false)
            defer { stack.shutdown() }
            try stack.writeConfig("[medications]\nnag_interval = \"2s\"\nnag_count = 2\n")
            try await stack.startDaemon()
            let dueSoon = await DueSoon.after(2.5)
            let (medication, doseID) = try stack.addMedication("Antibiotic", dose: "1 capsule", dueSoon)

            // The first notice plus two re-notifications, 2 s apart, all in the same notification.
            let calls = await stack.waitForNotifications(3, timeout: .seconds(dueSoon.due.timeIntervalSinceNow + 8))
            try #require(calls.count == 3, "expected 3 notices, got \(calls)\n\(stack.logs)")
            let first = calls[0]
            #expect(first.replacesID == 0)
            #expect(calls[1].replacesID == first.id && calls[2].replacesID == first.id, "re-notifications must replace \(first.id): \(calls)")
            #expect(calls.allSatisfy { $0.id == first.id })
            #expect(calls.allSatisfy { $0.body.contains("scheduled \(localClock(dueSoon.due))") }, "\(calls.map(\.body))")
            #expect(calls[1].body.contains("Reminder 1 of 2") && calls[2].body.contains("Reminder 2 of 2"), "\(calls.map(\.body))")
            for (index, call) in calls.enumerated() {
                let expected = dueSoon.due.timeIntervalSince1970 + Double(index) * 2
                #expect(call.time >= expected - 0.001 && call.time < expected + 1, "notice \(index) at \(call.time), due \(expected)")
            }

            // One interval after the last re-notification the dose is given up: missed, in history too.
            let missed = await eventually(timeout: .seconds(5), interval: .milliseconds(20)) { () -> Dose? in
                guard let dose = try? stack.dose(doseID, of: medication.id!), dose.state == .missed else { return nil }
                return dose
            }
            #expect(missed?.state == .missed, "\(stack.logs)")
            #expect(stack.notifications().count == 3, "nothing more may be shown after the dose is missed")
            let history: HistoryResult = try await stack.beautyctlJSON(["history"])
            #expect(history.entries.contains { $0.kind == "dose" && $0.id == doseID && $0.state == "missed" })
        }
    }
}
