@testable import BeautyCLI
import BeautyProtocol
import BeautyStore
import Foundation
import Testing

/// `beautyctl history` says which doses were answered on the phone (docs/PHONE_TASKS.md), and
/// `--json` carries where each answer was given.
@Suite("history: the answer's source", .enabled(if: Output.l.language == .english, "the test process runs in English"))
struct HistorySourceTests {
    @Test("a dose ticked on the phone shows '(on the phone)', one taken on the desktop does not; --json has source")
    func phoneAnswerInHistory() async throws {
        let beautyctl = try InProcessBeautyctl()
        let added = await beautyctl("med", "add", "Iron", "--at", "08:00", "--stock", "10", "--json")
        let detail = try WireJSON.decoder().decode(MedicationDetail.self, from: Data(added.output.utf8))
        let id = try #require(detail.medication.id)
        try #require(detail.upcoming.count >= 2, "\(detail.upcoming)")
        let (phoneDue, desktopDue) = (detail.upcoming[0], detail.upcoming[1])
        // The dose loop records a phone's tick this way (PhoneTaskAnswers).
        _ = try beautyctl.daemon.store.medications.answerPlannedDose(
            medicationID: id, scheduledAt: phoneDue, .taken, confirmedAt: Date(), now: Date(), source: .phone)
        let taken = await beautyctl(
            "dose", "taken", "--med", String(id), "--due", WireJSON.formatInstant(desktopDue), "--yes")
        #expect(taken.code == 0, "\(taken)")

        let table = await beautyctl("history")
        #expect(table.code == 0, "\(table)")
        let lines = table.output.split(separator: "\n").filter { $0.contains("Iron") && !$0.contains("last 7 days") }
        #expect(lines.count == 2, "\(table)")
        #expect(lines.filter { $0.contains("(on the phone)") }.count == 1, "\(table)")

        let json = await beautyctl("history", "--json")
        let result = try WireJSON.decoder().decode(HistoryResult.self, from: Data(json.output.utf8))
        let sources = Dictionary(uniqueKeysWithValues: result.entries.map { ($0.scheduledAt, $0.source) })
        #expect(sources[phoneDue] == .phone, "\(json)")
        #expect(sources[desktopDue] == .desktop, "\(json)")
    }
}
