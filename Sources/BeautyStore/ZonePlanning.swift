import Foundation
import GRDB

/// The zone local-time schedules were planned in, and planning again when it changes: doses and
/// series alike, so it belongs to the database rather than to one area's store.
extension AppDatabase {
    /// The user's zone changed: doses not yet due are planned again in the new zone (a daily 08:00 stays
    /// 08:00 on the wall clock where the user is), and series recompute their coming occurrences.
    /// Planning restarts at `now`, not at the start of the new zone's day: today's 08:00 there may have
    /// passed already, and recording it would show a dose the user took in the old zone as overdue.
    /// The zone is recorded (`plannedZone`), so a start in another zone knows to call this too.
    public func replanForZoneChange(now: Date, zone: TimeZone) throws {
        try writer.write { db in
            try Self.setSetting(db, Self.plannedZoneSetting, zone.identifier)
            for id in try Int64.fetchAll(db, sql: "SELECT id FROM medication WHERE timeZone IS NULL") {
                try MedicationStore.dropFutureDoses(db, medicationID: id, after: now)
                try db.execute(sql: "UPDATE medication SET plannedUntil = ? WHERE id = ?", arguments: [now, id])
            }
            try db.execute(
                sql: "UPDATE appointment SET plannedUntil = NULL WHERE recurrence IS NOT NULL AND timeZone IS NULL")
        }
        try medications.planDoses(now: now, zone: zone)
        try planSeries(now: now, zone: zone)
    }

    /// The zone the stored future doses and series occurrences of unpinned schedules were planned in
    /// (nil before the first `replanForZoneChange`).
    public func plannedZone() throws -> String? { try setting(Self.plannedZoneSetting) }

    /// Records the zone without planning again: for a database that has none recorded yet.
    public func recordPlannedZone(_ zone: TimeZone) throws {
        try writer.write { db in try Self.setSetting(db, Self.plannedZoneSetting, zone.identifier) }
    }

    static let plannedZoneSetting = "plannedZone"
}
