import BeautyCore
import BeautyDaemon
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

/// The notifications switch, with the clock moved by the test: off records what falls due and shows
/// nothing; on again shows later doses and not the ones that fell due meanwhile.
@Suite("Notifications switched off and on, in process")
struct NotificationSwitchTests {
    func addMedication(_ daemon: InProcessDaemon, _ name: String, dose: String, at time: ClockTime) async throws -> (
        Medication, Int64
    ) {
        var params = MedicationAddParams(name: name)
        params.dose = dose
        params.schedule = MedicationSchedule(kind: .times, times: [time])
        let detail = try await daemon.call(MedicationRPC.add, params)
        let id = try #require(detail.today.first?.id, "\(name): no dose today: \(detail.today)")
        return (detail.medication, id)
    }

    @Test("notifications off: nothing shown, the dose is overdue; on again: no flood, later doses shown")
    func notificationsSwitch() async throws {
        let daemon = try await InProcessDaemon(now: instant("2030-01-15 09:00"))
        var events = daemon.daemon.hub.subscribe().makeAsyncIterator()
        let off = try await daemon.call(MedicationRPC.notifications, NotificationsParams(enabled: false))
        #expect(!off.enabled)

        let first = instant("2030-01-15 09:05"), second = instant("2030-01-15 09:10")
        let silenced = try await addMedication(daemon, "Omega-3", dose: "2 capsules", at: ClockTime(hour: 9, minute: 5))
        let shownLater = try await addMedication(
            daemon, "Folic acid", dose: "1 tablet", at: ClockTime(hour: 9, minute: 10))

        #expect(await daemon.armed(for: first), "next wake \(String(describing: daemon.timer.deadline))")
        try await daemon.advance(to: first)
        try await daemon.advance(to: first.addingTimeInterval(0.8))
        #expect(daemon.notifier.shown.isEmpty, "shown while notifications were off: \(daemon.notifier.shown)")
        let now = try await daemon.call(ViewRPC.now)
        #expect(now.overdue.map(\.id) == [silenced.1] && now.overdue.first?.status == "pending", "now: \(now)")
        #expect(now.laterToday.map(\.id) == [shownLater.1], "now: \(now)")

        let on = try await daemon.call(MedicationRPC.notifications, NotificationsParams(enabled: true))
        #expect(on.enabled)
        let state = try await daemon.call(MedicationRPC.notifications, NotificationsParams(enabled: nil))
        #expect(state.enabled)

        #expect(await daemon.armed(for: second), "next wake \(String(describing: daemon.timer.deadline))")
        try await daemon.advance(to: second)
        _ = await daemon.notifier.waitForShown(1)
        try await daemon.advance(to: second.addingTimeInterval(0.5))
        #expect(daemon.notifier.shown.map(\.summary) == ["Time for Folic acid"], "\(daemon.notifier.shown)")
        let dose = try await daemon.call(MedicationRPC.show, IDParams(id: silenced.0.id!)).today.first {
            $0.id == silenced.1
        }
        #expect(dose?.state == .pending, "still open, never shown")

        let suppressed = await events.next()
        #expect(
            suppressed?.type == "suppressed" && suppressed?.itemID == silenced.1 && suppressed?.title == "Omega-3",
            "\(String(describing: suppressed))")
    }
}
