import BeautyCore
import Foundation
import GRDB

/// Deliveries committed a few milliseconds ahead of their instant, so that at the instant only the
/// Notify calls remain. A committed row stays `pending` (an edit or a deletion replaces or removes it
/// like any pending row) and carries `committedFor`, the instant it is about to be shown at; after a
/// crash, `settleInterrupted` makes it pending again if that instant had not come, and
/// counts it as shown (at most once) if it had.
extension DeliveryStore {
    /// Commits every pending delivery due at `instant`, in one transaction; returns them in the
    /// order they are shown in (by key, a stable order).
    @discardableResult
    public func commitAhead(dueAt instant: Date) throws -> [Trigger] {
        try writer.write { db in
            try db.execute(
                sql: "UPDATE delivery SET committedFor = fireAt WHERE state = 'pending' AND fireAt = ?",
                arguments: [instant])
            return try Self.committedAhead(db, for: instant)
        }
    }

    /// The deliveries still committed for `instant` (an edit since may have removed or moved some),
    /// in showing order. A read: it never waits for a write.
    public func committedAhead(for instant: Date) throws -> [Trigger] {
        try writer.read { db in try Self.committedAhead(db, for: instant) }
    }

    static func committedAhead(_ db: Database, for instant: Date) throws -> [Trigger] {
        try DeliveryRecord
            .filter(
                Column("state") == DeliveryState.pending.rawValue && Column("fireAt") == instant
                    && Column("committedFor") == instant
            )
            .order(Column("key"))
            .fetchAll(db).compactMap(\.trigger)
    }

    /// Takes every commitment back (the clock or the zone changed, the configuration was reloaded):
    /// the rows are plain pending ones again.
    @discardableResult
    public func takeBackCommitments() throws -> Int {
        try writer.write { db in
            try db.execute(sql: "UPDATE delivery SET committedFor = NULL WHERE committedFor IS NOT NULL")
            return db.changesCount
        }
    }

    /// A pending row committed for its own instant, which has come by the argument's time.
    static let committedAndDue = "state = 'pending' AND committedFor = fireAt AND committedFor <= ?"
}
