import BeautyCore
import BeautyStore
import Foundation
import Testing

/// `status` reads its figures in one snapshot: each must equal what the per-figure reads say.
@Suite("Store: the status snapshot agrees with the per-figure reads")
struct StatusSnapshotTests: WarsawJanuary2027 {
    @Test func everyFigureMatchesItsOwnRead() throws {
        let db = try AppDatabase.inMemory()
        _ = try db.addMedication(Medication(name: "Iron", dose: "1 tablet",
                                            schedule: MedicationSchedule(kind: .times, times: [ClockTime(hour: 20, minute: 0)])),
                                 now: now)
        try db.planDoses(now: now, zone: zone)
        try db.setSetting("notifications", "off")

        // Before the first dose (one ahead), and after it (one due, waiting, and the next one ahead).
        for instant in [now, local(15, 20, 30)] {
            let snapshot = try db.statusSnapshot(at: instant, settingKey: "notifications")
            #expect(snapshot.appointments == (try db.appointmentCount()))
            #expect(snapshot.contacts == (try db.contactCount()))
            #expect(snapshot.medications == (try db.medicationCount()))
            #expect(snapshot.pendingDeliveries == (try db.pendingCount()))
            #expect(snapshot.waitingDeliveries == (try db.waitingDeliveries(at: instant).count))
            #expect(snapshot.nextTrigger == (try db.nextTrigger(after: instant) ?? db.dueTriggers(at: instant, limit: 1).first))
            #expect(snapshot.setting == "off")
        }
        #expect(try db.statusSnapshot(at: local(15, 20, 30), settingKey: "notifications").waitingDeliveries == 1)
        #expect(try db.statusSnapshot(at: now, settingKey: "absent").setting == nil)
    }
}
