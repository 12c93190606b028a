import BeautyCore
import Foundation
import GRDB

/// Imported changed occurrences (iCalendar RECURRENCE-ID) and their series, matched by UID: inside
/// `importAppointments`' transaction, so a file's series and its changed occurrences arrive together.
extension AppDatabase {
    /// Indices of `incoming`, series and single appointments first (in file order), then changed occurrences.
    static func seriesFirst(_ incoming: [Appointment]) -> [Int] {
        incoming.indices.filter { incoming[$0].recurrenceID == nil }
            + incoming.indices.filter { incoming[$0].recurrenceID != nil }
    }

    /// The stored appointment of `account` an imported one updates: by UID, and for a changed
    /// occurrence by UID and original start.
    func importedMatch(_ db: Database, _ incoming: Appointment, account: String?) throws -> Appointment? {
        guard let uid = incoming.uid else { return nil }
        guard let rid = incoming.recurrenceID else { return try fetchAppointment(db, uid: uid, account: account) }
        return try occurrenceRows(db, uid: uid, account: account).first {
            $0.recurrenceID.map { SeriesOccurrence.same($0, rid) } ?? false
        }
    }

    /// The original starts of the changed occurrences an import brings, by UID.
    static func changedOccurrencesByUID(_ incoming: [Appointment]) -> [String: [Date]] {
        var result: [String: [Date]] = [:]
        for a in incoming { if let uid = a.uid, let rid = a.recurrenceID { result[uid, default: []].append(rid) } }
        return result
    }

    /// A series lists as changed the occurrences the import brings and those already stored under its
    /// UID; a changed occurrence whose series is stored joins it (the series then leaves it out), and
    /// one whose series is nowhere stays a single appointment, keeping its original start so that a
    /// later import of the series links it.
    func linkImported(
        _ db: Database, _ new: inout Appointment, old: Appointment?, account: String?, brought: [String: [Date]],
        now: Date, zone: TimeZone
    ) throws {
        new.seriesID = nil
        guard let uid = new.uid else { return }
        guard let rid = new.recurrenceID else {
            guard var recurrence = new.recurrence else { return }
            let stored = try occurrenceRows(db, uid: uid, account: account).compactMap(\.recurrenceID)
            for date in recurrence.changed + (brought[uid] ?? []) + stored {
                recurrence.changed = Self.withDate(date, in: recurrence.changed)
            }
            new.recurrence = recurrence
            return
        }
        new.recurrence = nil
        guard var series = try fetchAppointment(db, uid: uid, account: account), series.recurrenceID == nil,
            let recurrence = series.recurrence
        else { return }
        new.seriesID = series.id
        if !recurrence.changed.contains(where: { SeriesOccurrence.same($0, rid) }) {
            series.recurrence?.changed = Self.withDate(rid, in: recurrence.changed)
            _ = try saveAppointment(db, series, now: now, zone: zone)
        }
    }

    /// After a series was imported: its changed occurrences stored before it (imported alone) join it.
    func linkStoredOccurrences(_ db: Database, of saved: Appointment) throws {
        guard saved.recurrence != nil, saved.recurrenceID == nil, let uid = saved.uid, let id = saved.id else { return }
        try db.execute(
            sql: """
                UPDATE appointment SET seriesId = ?
                WHERE IFNULL(account, '') = (SELECT IFNULL(account, '') FROM appointment WHERE id = ?) AND uid = ?
                  AND recurrenceId IS NOT NULL AND (seriesId IS NULL OR seriesId <> ?)
                """, arguments: [id, id, uid, id])
    }

    private func occurrenceRows(_ db: Database, uid: String, account: String?) throws -> [Appointment] {
        try Int64.fetchAll(
            db,
            sql: "SELECT id FROM appointment WHERE IFNULL(account, '') = ? AND uid = ? AND recurrenceId IS NOT NULL",
            arguments: [account ?? "", uid]
        )
        .map { try fetchAppointment(db, id: $0) }
    }
}
