import BeautyCore
import BeautyStore
import Foundation
import GRDB
import Synchronization
import Testing

/// `status` reads its figures in one snapshot: each must equal what the per-figure reads say.
@Suite("Store: the status snapshot agrees with the per-figure reads")
struct StatusSnapshotTests: WarsawJanuary2027 {
    @Test func everyFigureMatchesItsOwnRead() throws {
        let db = try AppDatabase.inMemory()
        _ = try db.medications.add(
            Medication(
                name: "Iron", dose: "1 tablet",
                schedule: MedicationSchedule(kind: .times, times: [ClockTime(hour: 20, minute: 0)])),
            now: now)
        try db.medications.planDoses(now: now, zone: zone)
        try db.setSetting("notifications", "off")

        // Before the first dose (one ahead), and after it (one due, waiting, and the next one ahead).
        for instant in [now, local(15, 20, 30)] {
            let snapshot = try db.status.snapshot(at: instant, settingKey: "notifications")
            #expect(snapshot.appointments == (try db.appointments.count()))
            #expect(snapshot.contacts == (try db.contacts.count()))
            #expect(snapshot.medications == (try db.medications.count()))
            #expect(snapshot.pendingDeliveries == (try db.deliveries.pendingCount()))
            #expect(snapshot.waitingDeliveries == (try db.deliveries.waiting(at: instant).count))
            #expect(
                snapshot.nextTrigger
                    == (try db.deliveries.next(after: instant) ?? db.deliveries.due(at: instant, limit: 1).first))
            #expect(snapshot.setting == "off")
        }
        #expect(try db.status.snapshot(at: local(15, 20, 30), settingKey: "notifications").waitingDeliveries == 1)
        #expect(try db.status.snapshot(at: now, settingKey: "absent").setting == nil)
    }

    @Test("many waiting deliveries are counted by SQLite, not read row by row, with the same answer")
    func waitingDeliveriesAreCountedNotFetched() throws {
        let statements = Mutex<[String]>([])
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.trace { event in statements.withLock { $0.append("\(event)") } }
        }
        let db = try AppDatabase(DatabaseQueue(configuration: configuration))
        // 5,000 due and pending, one of a kind beautyd does not know, and some that are not waiting.
        try db.writer.write { db in
            let insert = try db.makeStatement(
                sql: """
                    INSERT INTO delivery(key, itemKind, itemID, occurrence, fireAt, state, source, attempts) VALUES (?, ?, ?, ?, ?, ?, 'plan', 0)
                    """)
            for n in 0..<5_000 {
                let due = now.addingTimeInterval(-Double(n) * 60)
                try insert.execute(arguments: [
                    "water/\(n)", ItemKind.water.rawValue, n, due, due, DeliveryState.pending.rawValue,
                ])
            }
            let due = now.addingTimeInterval(-30)
            try insert.execute(arguments: ["unknown/1", "horoscope", 1, due, due, DeliveryState.pending.rawValue])
            try insert.execute(arguments: [
                "water/fired", ItemKind.water.rawValue, 9_001, due, due, DeliveryState.fired.rawValue,
            ])
            let ahead = now.addingTimeInterval(3_600)
            try insert.execute(arguments: [
                "water/ahead", ItemKind.water.rawValue, 9_002, ahead, ahead, DeliveryState.pending.rawValue,
            ])
        }
        statements.withLock { $0.removeAll() }
        let snapshot = try db.status.snapshot(at: now, settingKey: "notifications")
        let read = statements.withLock { $0 }
        #expect(snapshot.waitingDeliveries == 5_000)
        #expect(snapshot.waitingDeliveries == (try db.deliveries.waiting(at: now).count))
        // Only counts and single rows (the next trigger) come from the delivery table (GRDB's PRAGMAs read its schema).
        let fetchesRows = read.filter {
            $0.hasPrefix("SELECT") && $0.contains("delivery") && !$0.contains("COUNT(") && !$0.contains("LIMIT")
        }
        #expect(fetchesRows.isEmpty, "status read delivery rows: \(fetchesRows)")
    }
}
