import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndBus {
    /// What the server lists in GetCapabilities decides how a reminder is sent; an answered popup goes
    /// whatever the server does with it. (Without `actions` a dose's body names its commands, and with
    /// `body-markup` bodies are escaped: MedicationEndToEndTests and NotesInReminderEndToEndTests.)
    @Suite("Popups that stay until answered, per server capabilities", .serialized)
    struct PopupsThatStay {
        @Test(
            "a server with persistence gets resident reminders and doses; beautyd closes each once answered by a button"
        )
        func residentOnAPersistenceServer() async throws {
            let stack = try await Stack.start(serverFlags: ["--persistence"], config: "[scheduling]\nsnooze = \"2s\"\n")
            defer { stack.shutdown() }
            let due = wholeSecond(after: 1.5)
            let added = try stack.addAppointment("Facial", start: tomorrowOnTheHour(), remindAt: [due])
            let id = try #require(added.appointment.id)
            let first = await stack.waitForNotifications(1, timeout: .seconds(due.timeIntervalSinceNow + 5))
            try #require(first.count == 1, "\(stack.logs)")
            #expect(first[0].hints.resident == true && first[0].expireTimeout == 0, "\(first[0])")

            // The test server keeps a popup after a click, as it must a resident one: only beautyd takes it away.
            try await stack.click("snooze", on: first[0].id)
            #expect(try await closedByBeautyd(first[0].id, stack), "the snoozed popup stayed\n\(stack.logs)")
            let again = await stack.waitForNotifications(2, timeout: .seconds(8))
            try #require(again.count == 2, "no Notify after the snooze\n\(stack.logs)")
            #expect(again[1].hints.resident == true, "\(again[1])")
            try await stack.click("dismiss", on: again[1].id)
            #expect(try await closedByBeautyd(again[1].id, stack), "the dismissed popup stayed\n\(stack.logs)")
            #expect(try stack.client().show(id).deliveries.map(\.state) == [.snoozed, .dismissed])

            let soon = await DueSoon.after(2)
            let medication = try stack.addMedication("Iron", dose: "1 tablet", soon)
            let calls = await stack.waitForNotifications(3, timeout: .seconds(soon.due.timeIntervalSinceNow + 5))
            try #require(calls.count == 3, "no dose notification\n\(stack.logs)")
            #expect(calls[2].hints.resident == true && calls[2].expireTimeout == 0, "\(calls[2])")
            try await stack.click("taken", on: calls[2].id)
            #expect(try await closedByBeautyd(calls[2].id, stack), "the taken dose's popup stayed\n\(stack.logs)")
            #expect(try stack.dose(medication.doseID, of: medication.medication.id!)?.state == .taken)
        }

        @Test(
            "a server without persistence (as dunst and xfce4-notifyd) gets no resident hint, and an answered popup is closed"
        )
        func notResidentWithoutPersistence() async throws {
            let stack = try await Stack.start()
            defer { stack.shutdown() }
            let due = wholeSecond(after: 1.5)
            let added = try stack.addAppointment("Manicure", start: tomorrowOnTheHour(), remindAt: [due])
            let id = try #require(added.appointment.id)
            let calls = await stack.waitForNotifications(1, timeout: .seconds(due.timeIntervalSinceNow + 5))
            try #require(calls.count == 1, "\(stack.logs)")
            #expect(calls[0].hints.resident == nil && calls[0].expireTimeout == 0, "\(calls[0])")
            try await stack.click("dismiss", on: calls[0].id)
            #expect(try await closedByBeautyd(calls[0].id, stack), "the dismissed popup stayed\n\(stack.logs)")
            #expect(try stack.client().show(id).deliveries.map(\.state) == [.dismissed])
        }

        /// Waits for popup `id` to leave the test server's open ones (only a CloseNotification from beautyd closes it).
        private func closedByBeautyd(_ id: UInt32, _ stack: Stack) async throws -> Bool {
            for _ in 0..<250 {
                if try await !stack.displayed().contains(id) { return true }
                try await Task.sleep(for: .milliseconds(20))
            }
            return false
        }
    }
}
