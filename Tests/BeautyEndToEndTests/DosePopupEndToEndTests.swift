import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EndToEndBus {
    @Suite("Medications: every dose popup says how to answer it", .serialized)
    struct DosePopups {
        @Test("a dose popup with buttons still ends with 'beautyctl dose taken ID', re-notified ones too")
        func theBodyEndsWithTheCommand() async throws {
            let stack = try await Stack.start(config: "[medications]\nnag_interval = \"1s\"\nnag_count = 1\n")
            defer { stack.shutdown() }
            let soon = await DueSoon.after(2.5)
            let added = try stack.addMedication("Iron", dose: "1 tablet", soon, notes: "with orange juice")
            let calls = await stack.waitForNotifications(2, timeout: .seconds(soon.due.timeIntervalSinceNow + 5))
            try #require(calls.count == 2, "\(stack.logs)")
            for call in calls {
                #expect(call.actions == ["taken", "Taken", "snooze", "Snooze", "skip", "Skip"], "\(call)")
                #expect(
                    call.body.hasSuffix("beautyctl dose taken \(added.doseID)"),
                    "the body must end with the command: \(call.body)")
                #expect(call.body.contains("beautyctl dose skip \(added.doseID)"), "\(call.body)")
            }
        }

        @Test("a dose folded into the 'missed while away' popup lists its command")
        func theGroupListsEachDosesCommand() async throws {
            let stack = try await Stack.start()
            defer { stack.shutdown() }
            let soon = await DueSoon.after(3)
            let iron = try stack.addMedication("Iron", dose: "1 tablet", soon)
            let zinc = try stack.addMedication("Zinc", dose: "1 capsule", soon)
            _ = try stack.addAppointment("Manicure", start: tomorrowOnTheHour(), remindAt: [soon.due])
            await stack.stopDaemon(signal: SIGKILL)
            try await Task.sleep(for: .seconds(soon.due.addingTimeInterval(1).timeIntervalSinceNow))
            try await stack.startDaemon()
            let calls = await stack.waitForNotifications(1, timeout: .seconds(5))
            let grouped = try #require(calls.first, "\(stack.logs)")
            #expect(grouped.summary == "3 reminders missed while away", "\(grouped)")
            let lines = grouped.body.split(separator: "\n").map(String.init)
            #expect(
                lines.contains { $0.hasPrefix("• Iron") && $0.hasSuffix(": beautyctl dose taken \(iron.doseID)") },
                "\(grouped.body)")
            #expect(
                lines.contains { $0.hasPrefix("• Zinc") && $0.hasSuffix(": beautyctl dose taken \(zinc.doseID)") },
                "\(grouped.body)")
            #expect(lines.contains { $0.hasPrefix("• Manicure") && !$0.contains("beautyctl") }, "\(grouped.body)")
        }
    }
}
