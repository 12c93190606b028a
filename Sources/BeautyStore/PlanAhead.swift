import BeautyCore
import Foundation
import GRDB

/// Planning ahead, for every area at once: each area's rows written up to its planner's horizon, and
/// the zone local-time schedules were planned in, planned again when it changes. What is due when is
/// decided in Core (`DosePlanner.plan`, `AppointmentOccurrences`, `AllDayReminders`, `WaterRecords`,
/// `Tips`); the stores write what those give, here or in the transaction of the change that needs it
/// (an add or an edit); the scheduler only asks for this, arms its timer and shows what comes due.
extension AppDatabase {
    /// Writes what each planner gives up to its horizon: doses, series occurrences, today's water
    /// reminders and the daily tip (at `dailyTipAt`; none without it). A pass with nothing to plan only reads.
    public func planAhead(now: Date, zone: TimeZone, dailyTipAt: ClockTime?) throws {
        try medications.planDoses(now: now, zone: zone)
        try planSeries(now: now, zone: zone)
        try planWater(now: now, zone: zone)
        try planDailyTip(now: now, zone: zone, at: dailyTipAt)
    }

    /// When `planAhead` must next run (nil when no schedule can ever need it again).
    public func nextPlanningInstant() throws -> Date? {
        [try medications.nextPlanning(), try nextSeriesPlanningInstant()].compactMap { $0 }.min()
    }

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
