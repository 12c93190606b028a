import BeautyCore
import Foundation
import GRDB

/// What `status` reports from the database, read in one transaction (one snapshot, one pool turn)
/// instead of a transaction per figure; `status` is the request clients poll most.
public struct StatusSnapshot: Sendable {
    public var appointments: Int
    public var contacts: Int
    public var medications: Int
    public var pendingDeliveries: Int
    public var waitingDeliveries: Int
    /// The next pending trigger after `now`, else the earliest one already due.
    public var nextTrigger: Trigger?
    public var setting: String?
}

/// What `status` reads from the database.
public struct StatusStore: Sendable {
    let writer: PrioritizedWriter

    /// The counts, the next trigger and the setting `settingKey`, as of one snapshot at `now`.
    public func snapshot(at now: Date, settingKey: String) throws -> StatusSnapshot {
        try writer.read { db in
            // Cached statements: the count SQL is compiled once per connection, not per request.
            func count(_ sql: String, _ arguments: StatementArguments = []) throws -> Int {
                try Int.fetchOne(db.cachedStatement(sql: sql), arguments: arguments) ?? 0
            }
            let pending = DeliveryState.pending.rawValue
            return StatusSnapshot(
                appointments: try count("SELECT COUNT(*) FROM \(AppointmentRecord.databaseTableName)"),
                contacts: try count("SELECT COUNT(*) FROM \(ContactRecord.databaseTableName)"),
                medications: try count("SELECT COUNT(*) FROM \(MedicationRecord.databaseTableName)"),
                pendingDeliveries: try count(
                    "SELECT COUNT(*) FROM \(DeliveryRecord.databaseTableName) WHERE state = ?", [pending]),
                waitingDeliveries: try DeliveryStore.waitingCount(db, at: now),
                nextTrigger: try DeliveryStore.next(db, after: now) ?? DeliveryStore.due(db, at: now, limit: 1).first,
                setting: try AppDatabase.setting(db, settingKey))
        }
    }
}
