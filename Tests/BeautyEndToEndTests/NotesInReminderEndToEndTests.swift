import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndBus {
    @Suite("Appointment notes in the reminder", .serialized)
    struct NotesInReminder {
        @Test("a reminder's body shows the first lines of the notes, escaped for a server that reads markup")
        func notesReachThePopupEscaped() async throws {
            let stack = try await Stack.start(serverFlags: ["--markup"])
            defer { stack.shutdown() }
            let due = wholeSecond(after: 2.5)
            let notes =
                "Bring the <b>photo</b> & old colour code\n\nAsk about Olaplex\nPay by card\nParking behind the salon"
            let added = try await stack.beautyctl([
                "appointment", "add", "Colour", "--at", iso(tomorrowOnTheHour()),
                "--remind-at", iso(due), "--notes", notes,
            ])
            #expect(added.status == .exited(0), "\(added)")
            let calls = await stack.waitForNotifications(1, timeout: .seconds(10))
            let body = try #require(calls.first?.body, "no reminder shown")
            let lines = body.split(separator: "\n").map(String.init)
            #expect(
                lines.contains("Bring the &lt;b&gt;photo&lt;/b&gt; &amp; old colour code"), "escaped as markup: \(body)"
            )
            #expect(
                lines.contains("Ask about Olaplex") && lines.contains("Pay by card …"),
                "the first three lines, the rest marked: \(body)")
            #expect(!body.contains("Parking") && !body.contains("<b>"), "\(body)")
        }
    }
}
