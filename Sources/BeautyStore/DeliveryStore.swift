import BeautyCore
import Foundation
import GRDB

/// The scheduler's ledger: each (item, occurrence, fire instant) moves pending -> fired -> settled once.
/// It only records: what is due when is planned in Core (`DosePlanner`, `SchedulePlanner`...), and the
/// stores write a plan's rows in the same transaction as the change that made it.
public struct DeliveryStore: Sendable {
    let writer: PrioritizedWriter

    /// Pending triggers whose instant has come, earliest first; not those committed ahead (`commitAhead`),
    /// which the scheduler shows at their instant.
    public func due(at now: Date, limit: Int = 10_000) throws -> [Trigger] {
        try writer.read { db in try Self.due(db, at: now, limit: limit) }
    }

    static func due(_ db: Database, at now: Date, limit: Int) throws -> [Trigger] {
        try DeliveryRecord
            .filter(
                Column("state") == DeliveryState.pending.rawValue && Column("fireAt") <= now
                    && (Column("committedFor") == nil || Column("committedFor") != Column("fireAt"))
            )
            .order(Column("fireAt"), Column("key")).limit(limit)
            .fetchAll(db).compactMap(\.trigger)
    }

    /// The earliest pending trigger still in the future: what the wall-clock timer is armed for.
    public func next(after now: Date) throws -> Trigger? {
        try writer.read { db in try Self.next(db, after: now) }
    }

    static func next(_ db: Database, after now: Date) throws -> Trigger? {
        try DeliveryRecord
            .filter(Column("state") == DeliveryState.pending.rawValue && Column("fireAt") > now)
            .order(Column("fireAt"), Column("key"))
            .fetchOne(db)?.trigger
    }

    /// Records that the notification server accepted these deliveries. Only pending rows move, so a
    /// second call for the same key changes nothing: the answer says how many rows really moved.
    @discardableResult
    public func markFired(_ keys: [String], at now: Date) throws -> Int {
        try transition(keys, from: [.pending, .delivering], to: .fired, at: now, firedAt: now)
    }

    /// Written (and synced) just before the notification server is asked: if the daemon dies before it
    /// records `fired`, the next start knows the reminder was probably shown and does not show it again.
    @discardableResult
    public func markDelivering(_ keys: [String], at now: Date) throws -> Int {
        try transition(keys, from: [.pending], to: .delivering, at: now, firedAt: nil)
    }

    /// At start-up: deliveries interrupted between asking the server and recording the answer. The
    /// server almost certainly showed them (the ask is a millisecond, the record can wait behind other
    /// writes), so they count as fired: never twice, at the rare cost of one lost if the crash fell
    /// exactly before the ask. A delivery committed ahead (`commitAhead`) for an instant still to come
    /// is pending again; one whose instant has come counts as interrupted in the same way, unless
    /// `reached` (`ShowingProgress`) says its Notify was never sent: then it is pending again too.
    @discardableResult
    public func settleInterrupted(at now: Date, reached: ShowingProgress.Reached = .unknown) throws -> [String] {
        try writer.write { db in
            try db.execute(
                sql:
                    "UPDATE delivery SET committedFor = NULL WHERE committedFor IS NOT NULL AND NOT (\(Self.committedAndDue))",
                arguments: [now])
            switch reached {
            case .unknown: break
            case .nothing:
                try db.execute(sql: "UPDATE delivery SET committedFor = NULL WHERE committedFor IS NOT NULL")
            case .sent(let instant, let key):
                try db.execute(
                    sql: """
                        UPDATE delivery SET committedFor = NULL
                        WHERE committedFor IS NOT NULL AND (committedFor > ? OR (committedFor = ? AND key > ?))
                        """, arguments: [instant, instant, key])
            }
            let interrupted = "state = 'delivering' OR committedFor IS NOT NULL"
            let keys = try String.fetchAll(db, sql: "SELECT key FROM delivery WHERE \(interrupted) ORDER BY key")
            try db.execute(
                sql: """
                    UPDATE delivery SET state = 'fired', firedAt = COALESCE(firedAt, ?), settledAt = ?, committedFor = NULL,
                           lastError = 'interrupted while being shown: counted as shown'
                    WHERE \(interrupted)
                    """, arguments: [now, now])
            return keys
        }
    }

    /// Records deliveries too old to show (`max_lateness`) as missed.
    @discardableResult
    public func markMissed(_ keys: [String], at now: Date) throws -> Int {
        try transition(keys, from: [.pending], to: .missed, at: now, firedAt: nil)
    }

    /// The user answered a shown notification (dismiss, snooze...).
    @discardableResult
    public func settle(_ key: String, as state: DeliveryState, at now: Date) throws -> Int {
        try transition([key], from: [.fired], to: state, at: now, firedAt: nil)
    }

    /// Schedules a repeat of a delivery after a snooze; the new row is pending like any other.
    public func scheduleSnooze(of key: String, until fireAt: Date) throws -> Trigger? {
        try writer.write { db in
            guard let original = try DeliveryRecord.fetchOne(db, key: key), let trigger = original.trigger else {
                return nil
            }
            let baseKey = key.components(separatedBy: "/snooze/").first ?? key
            let repeatKey = "\(baseKey)/snooze/\(Int64(fireAt.timeIntervalSince1970))"
            let snoozed = Trigger(
                key: repeatKey, itemKind: trigger.itemKind, itemID: trigger.itemID,
                occurrence: trigger.occurrence, fireAt: fireAt, source: .snooze)
            try DeliveryRecord(snoozed).insert(db, onConflict: .ignore)
            return snoozed
        }
    }

    /// Records deliveries that came due while notifications were switched off.
    @discardableResult
    public func markSuppressed(_ keys: [String], at now: Date) throws -> Int {
        try transition(keys, from: [.pending], to: .suppressed, at: now, firedAt: nil)
    }

    /// A delivery attempt failed (no notification server...): keep it pending and say why.
    public func recordFailure(_ keys: [String], error: String) throws {
        guard !keys.isEmpty else { return }
        try writer.write { db in
            for key in keys {
                try db.execute(
                    sql:
                        "UPDATE delivery SET state = 'pending', committedFor = NULL, attempts = attempts + 1, lastError = ? WHERE key = ? AND state IN ('pending', 'delivering')",
                    arguments: [error, key])
            }
        }
    }

    public func find(key: String) throws -> Delivery? {
        try writer.read { db in try DeliveryRecord.fetchOne(db, key: key).flatMap(Self.delivery) }
    }

    /// Every delivery of one item, oldest first. With `now`, a row committed ahead of its instant that
    /// has come reads `delivering`: it is being shown, and a crash now counts it as shown, as for a
    /// `delivering` row (in the table it stays `pending`, so an edit can still take it back).
    public func of(itemKind: ItemKind, itemID: Int64, now: Date? = nil) throws -> [Delivery] {
        try writer.read { db in
            let deliveries = try DeliveryRecord.filter(
                Column("itemKind") == itemKind.rawValue && Column("itemID") == itemID
            )
            .order(Column("fireAt"), Column("key")).fetchAll(db).compactMap(Self.delivery)
            guard let now else { return deliveries }
            let committed = Set(
                try String.fetchAll(
                    db, sql: "SELECT key FROM delivery WHERE itemKind = ? AND itemID = ? AND \(Self.committedAndDue)",
                    arguments: [itemKind.rawValue, itemID, now]))
            return deliveries.map { delivery in
                guard delivery.state == .pending, committed.contains(delivery.trigger.key) else { return delivery }
                var showing = delivery
                showing.state = .delivering
                return showing
            }
        }
    }

    /// Pending deliveries whose time has come but which the notification server has not taken yet.
    public func waiting(at now: Date) throws -> [Delivery] {
        try writer.read { db in try Self.waiting(db, at: now) }
    }

    static func waiting(_ db: Database, at now: Date) throws -> [Delivery] {
        try DeliveryRecord
            .filter(Column("state") == DeliveryState.pending.rawValue && Column("fireAt") <= now)
            .order(Column("fireAt")).fetchAll(db).compactMap(Self.delivery)
    }

    /// How many `waiting` deliveries there are, counted by SQLite: `status` asks this on every call and
    /// must not read every row of a long backlog. Rows of a kind beautyd does not know are left out, as
    /// `waiting` leaves them out.
    static func waitingCount(_ db: Database, at now: Date) throws -> Int {
        let kinds = ItemKind.allCases.map { "'\($0.rawValue)'" }.joined(separator: ",")
        return try Int.fetchOne(
            db.cachedStatement(
                sql: "SELECT COUNT(*) FROM delivery WHERE state = ? AND fireAt <= ? AND itemKind IN (\(kinds))"),
            arguments: [DeliveryState.pending.rawValue, now]) ?? 0
    }

    public func pendingCount() throws -> Int {
        try writer.read { db in
            try DeliveryRecord.filter(Column("state") == DeliveryState.pending.rawValue).fetchCount(db)
        }
    }

    private func transition(
        _ keys: [String], from: Set<DeliveryState>, to state: DeliveryState, at now: Date, firedAt: Date?
    ) throws -> Int {
        guard !keys.isEmpty else { return 0 }
        return try writer.write { db in try Self.transition(db, keys, from: from, to: state, at: now, firedAt: firedAt)
        }
    }

    @discardableResult
    static func transition(
        _ db: Database, _ keys: [String], from: Set<DeliveryState>, to state: DeliveryState,
        at now: Date, firedAt: Date?
    ) throws -> Int {
        var moved = 0
        let allowed = from.map { "'\($0.rawValue)'" }.joined(separator: ",")
        for key in keys {
            try db.execute(
                sql: """
                    UPDATE delivery SET state = ?, settledAt = ?, firedAt = COALESCE(?, firedAt),
                           attempts = attempts + (CASE WHEN ? IS NULL THEN 0 ELSE 1 END), lastError = NULL
                    WHERE key = ? AND state IN (\(allowed))
                    """,
                arguments: [state.rawValue, now, firedAt, firedAt, key])
            moved += db.changesCount
        }
        return moved
    }

    private static func delivery(_ record: DeliveryRecord) -> Delivery? {
        guard let trigger = record.trigger, let state = DeliveryState(rawValue: record.state) else { return nil }
        return Delivery(
            trigger: trigger, state: state, firedAt: record.firedAt, attempts: record.attempts,
            lastError: record.lastError)
    }
}

/// Reads the areas a trigger may be about, so it is the database's, not the ledger's.
extension AppDatabase {
    /// What a trigger is about, as notifications, events and `status` name it; nil when its item is gone.
    /// A medication trigger's item is a dose: its title is the medication's name.
    public func title(of trigger: Trigger) -> String? {
        switch trigger.itemKind {
        case .appointment: return try? appointments.get(id: trigger.itemID).title
        case .medication:
            return (try? medications.dose(id: trigger.itemID)).flatMap {
                try? medications.find(id: $0.medicationID).name
            }
        case .water: return "Drink water"
        case .tip: return Tips.tip(id: Int(trigger.itemID))?.title
        }
    }
}
