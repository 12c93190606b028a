import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

/// The user's zone changing under a running daemon, set by the test (end to end, the zone file's
/// link is renamed and beautyd's inotify watch sees it).
@Suite("The user's zone changes, in process")
struct ZoneChangeTests {
    @Test("a daily 08:00 dose is re-planned to 08:00 in the new zone at once; one pinned to Warsaw stays")
    func zoneChangeReplansDoses() async throws {
        let warsaw = TimeZone(identifier: "Europe/Warsaw")!, newYork = TimeZone(identifier: "America/New_York")!
        let daemon = try await InProcessDaemon(now: instant("2030-01-15 12:00"), zone: warsaw)
        var params = MedicationAddParams(name: "Iron")
        params.schedule = MedicationSchedule(kind: .times, times: [ClockTime(hour: 8, minute: 0)])
        let added = try await daemon.call(MedicationRPC.add, params)
        let inWarsaw = instant("2030-01-16 08:00")
        #expect(added.upcoming.first == inWarsaw, "\(added.upcoming.prefix(2))")
        var pinned = params
        pinned.name = "Thyroid"
        pinned.timeZone = "Europe/Warsaw"
        _ = try await daemon.call(MedicationRPC.add, pinned)
        #expect(await daemon.armed(for: inWarsaw), "next wake \(String(describing: daemon.timer.deadline))")

        daemon.zone.set(newYork)
        let inNewYork = instant("2030-01-15 08:00", "America/New_York")  // 06:00 there when the zone changes
        var agenda = AgendaParams(from: daemon.clock.now, to: daemon.clock.now.addingTimeInterval(2 * 86_400))
        agenda.kind = .medication
        var entries: [AgendaEntry] = []
        for _ in 0..<1500 where !entries.contains(where: { $0.title == "Iron" && $0.start == inNewYork && $0.id != 0 })
        {
            try await Task.sleep(for: .milliseconds(10))
            entries = try await daemon.call(ViewRPC.agenda, agenda).entries
        }
        #expect(
            entries.contains { $0.title == "Iron" && $0.start == inNewYork && $0.id != 0 },
            "not re-planned for New York: \(entries)")
        #expect(!entries.contains { $0.title == "Iron" && $0.start == inWarsaw }, "\(entries)")
        #expect(entries.first { $0.title == "Thyroid" }?.start == inWarsaw, "the pinned dose moved: \(entries)")
        #expect(
            await daemon.armed(for: inNewYork),
            "next wake \(String(describing: daemon.timer.deadline)), not New York's 08:00")
        let shown = try await daemon.call(MedicationRPC.show, IDParams(id: added.medication.id!))
        #expect(shown.upcoming.first == inNewYork, "\(shown.upcoming.prefix(2))")
    }
}
