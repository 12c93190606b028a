import BeautyCore
import Foundation
import GRDB

/// One occurrence of a series changed on its own (moved, retitled, done, cancelled, removed), and a
/// series split in two. Each change is one transaction: the occurrence's row, the series' `changed`
/// list (or EXDATEs) and the deliveries of both move together or not at all. Reached as `database.occurrences`.
public struct OccurrenceStore: Sendable {
    /// The database whose shared writer this writes with, and whose helpers inside a transaction it calls.
    let database: AppDatabase
    var writer: PrioritizedWriter { database.writer }

    /// The appointments standing for the series' changed occurrences, by original start.
    public func changed(ofSeries id: Int64) throws -> [Appointment] {
        try writer.read { db in try database.changedOccurrences(db, ofSeries: id) }
    }

    /// Changes one occurrence of series `seriesID`: the occurrence's row (made from the series at its
    /// original start the first time) gets `change`. Reminders follow it: the series stops planning that
    /// occurrence and the row plans its own, so one already shown is shown again only if it moved.
    public func change(
        seriesID: Int64, occurrence: Date, now: Date, zone: TimeZone,
        _ change: (inout Appointment) throws -> Void
    ) throws -> Appointment {
        try writer.write { db in
            var row = try database.occurrenceRow(db, seriesID: seriesID, occurrence: occurrence, now: now, zone: zone)
            let stored = row
            try change(&row)
            row.id = stored.id
            row.seriesID = stored.seriesID
            row.recurrenceID = stored.recurrenceID
            row.uid = stored.uid
            if row.recurrence != nil || row.repeatAfterDoneSeconds != nil {
                throw ValidationError(
                    field: "occurrence",
                    template:
                        "one occurrence does not repeat: to change the series from this occurrence on, split it (appointment split %s --occurrence ...)",
                    seriesID)
            }
            let saved = try database.saveAppointment(db, row, now: now, zone: zone)
            try database.handOverSeriesDeliveries(db, to: saved, now: now)
            return saved
        }
    }

    /// Marks one occurrence of a series done or cancelled (see `AppointmentStore.setStatus`).
    public func setStatus(
        seriesID: Int64, occurrence: Date, _ status: Appointment.Status,
        now: Date, zone: TimeZone
    ) throws -> StatusChange {
        try writer.write { db in
            let row = try database.occurrenceRow(db, seriesID: seriesID, occurrence: occurrence, now: now, zone: zone)
            let change = try database.setAppointmentStatus(db, id: row.id!, status, now: now, zone: zone)
            try database.handOverSeriesDeliveries(db, to: change.appointment, now: now)
            return change
        }
    }

    /// Removes one occurrence from its series: it becomes an EXDATE, and the row of a changed occurrence
    /// goes with its pending deliveries. `id` is the series, or the changed occurrence's own row.
    /// Answers the series as it is now.
    public func remove(id: Int64, occurrence: Date?, now: Date, zone: TimeZone) throws -> Appointment {
        try writer.write { db in try database.removeOccurrence(db, id: id, occurrence: occurrence, now: now, zone: zone)
        }
    }

    /// "This and following": the series ends before `occurrence` and a new series starts there with the
    /// same rules (see `SeriesSplit`), a new UID, the changed occurrences from there on, and `change`
    /// applied. Moving its start moves its EXDATEs, RDATEs and changed occurrences' original starts
    /// along. Answers the new series.
    public func split(
        id: Int64, at occurrence: Date, now: Date, zone: TimeZone,
        _ change: (inout Appointment) throws -> Void = { _ in }
    ) throws -> Appointment {
        try writer.write { db in
            let series = try database.fetchAppointment(db, id: id)
            if let seriesID = series.seriesID {
                throw ValidationError(
                    field: "id", template: "appointment %s is one changed occurrence: split its series %s", id, seriesID
                )
            }
            let newUID = series.uid.map { _ in "\(UUID().uuidString.lowercased())@beautyd" }
            let (head, draft) = try SeriesSplit.split(series, at: occurrence, zone: zone, newUID: newUID)
            var tail = draft
            try change(&tail)
            tail.id = nil
            tail.uid = newUID
            tail.seriesID = nil
            tail.recurrenceID = nil
            guard var recurrence = tail.recurrence, let drafted = draft.recurrence else {
                throw ValidationError(
                    field: "repeat",
                    template:
                        "the series split off at %s keeps repeating; to end the series there, give its rule an UNTIL (appointment edit %s --repeat ...)",
                    Timestamps(zone: zone).short(occurrence), id)
            }
            let shift = tail.start.timeIntervalSince(occurrence)
            let moved = SeriesSplit.shifted(drafted, by: shift)
            // A rule given with the split replaces the rule; the changed occurrences stay the new series'.
            if recurrence == drafted { recurrence = moved } else { recurrence.changed = moved.changed }
            tail.recurrence = recurrence
            _ = try database.saveAppointment(db, head, now: now, zone: zone)
            // The tail and its changed occurrences stay in the series' account: its server gets the new
            // series, and no other account's server ever does.
            let home = try database.account(db, ofAppointment: id)
            let saved = try database.insertAppointment(db, tail, account: home, now: now, zone: zone)
            for row in try database.changedOccurrences(db, ofSeries: id) {
                guard let rid = row.recurrenceID, Recurrence.key(rid) >= Recurrence.key(occurrence) else { continue }
                try db.execute(
                    sql: "UPDATE appointment SET seriesId = ?, uid = ?, recurrenceId = ?, account = ? WHERE id = ?",
                    arguments: [saved.id, saved.uid, rid.addingTimeInterval(shift), home, row.id])
            }
            return saved
        }
    }
}

/// The occurrences' helpers inside a transaction (an edit, a delete and an import of their series call them too).
extension AppDatabase {
    // MARK: - Helpers inside a transaction

    /// A whole series moved (its start changed by some amount): the dates that name its occurrences
    /// move with it, or they would name none and a changed (or excluded) occurrence would come back at
    /// the new time beside its own row. Extra dates and exceptions the edit itself brought stay as given.
    func followSeriesMove(_ db: Database, from stored: Appointment, to edited: inout Appointment) throws {
        guard let id = stored.id, stored.recurrenceID == nil, let before = stored.recurrence,
            var after = edited.recurrence
        else { return }
        let shift = edited.start.timeIntervalSince(stored.start)
        guard shift != 0 else { return }
        let moved = { (dates: [Date], old: [Date]) in dates.map { old.contains($0) ? $0.addingTimeInterval(shift) : $0 }
        }
        after.exdates = moved(after.exdates, before.exdates)
        after.rdates = moved(after.rdates, before.rdates)
        after.changed = before.changed.map { $0.addingTimeInterval(shift) }
        edited.recurrence = after
        for var row in try changedOccurrences(db, ofSeries: id) {
            row.recurrenceID = row.recurrenceID?.addingTimeInterval(shift)
            try AppointmentRecord(row).update(db)
        }
    }

    func changedOccurrences(_ db: Database, ofSeries id: Int64) throws -> [Appointment] {
        try Int64.fetchAll(
            db, sql: "SELECT id FROM appointment WHERE seriesId = ? ORDER BY recurrenceId, id", arguments: [id]
        )
        .map { try fetchAppointment(db, id: $0) }
    }

    /// The row standing for the series' occurrence at `occurrence`: the one already changed, or a new
    /// one made from the series (which then leaves it out). `seriesID` may also be that row's own id.
    func occurrenceRow(_ db: Database, seriesID: Int64, occurrence: Date, now: Date, zone: TimeZone) throws
        -> Appointment
    {
        let series = try fetchAppointment(db, id: seriesID)
        if let parent = series.seriesID, let rid = series.recurrenceID {
            guard SeriesOccurrence.same(rid, occurrence) else {
                throw ValidationError(
                    field: "occurrence",
                    template:
                        "appointment %s is the changed occurrence of %s of series %s: change it without an occurrence, or name series %s",
                    seriesID, Timestamps(zone: zone).short(rid), parent, parent)
            }
            return series
        }
        if let existing = try changedOccurrences(db, ofSeries: seriesID).first(where: {
            $0.recurrenceID.map { SeriesOccurrence.same($0, occurrence) } ?? false
        }) {
            return existing
        }
        try SeriesOccurrence.check(occurrence, of: series, zone: zone)
        var updated = series
        updated.recurrence?.changed = Self.withDate(occurrence, in: series.recurrence?.changed ?? [])
        _ = try saveAppointment(db, updated, now: now, zone: zone)
        // A changed occurrence belongs to its series' account, as one pulled from its server does.
        return try insertAppointment(
            db, SeriesOccurrence.detached(from: series, at: occurrence),
            account: try account(db, ofAppointment: seriesID),
            now: now, zone: zone)
    }

    func removeOccurrence(_ db: Database, id: Int64, occurrence: Date?, now: Date, zone: TimeZone) throws -> Appointment
    {
        let item = try fetchAppointment(db, id: id)
        if let seriesID = item.seriesID, let rid = item.recurrenceID,
            occurrence.map({ SeriesOccurrence.same($0, rid) }) ?? true
        {
            return try excludeOccurrence(db, seriesID: seriesID, occurrence: rid, now: now, zone: zone)
        }
        guard let occurrence else {
            throw ValidationError(field: "occurrence", template: "appointment %s is not a changed occurrence", id)
        }
        return try excludeOccurrence(db, seriesID: id, occurrence: occurrence, now: now, zone: zone)
    }

    /// The occurrence leaves its series for good: an EXDATE; a changed occurrence's row goes.
    private func excludeOccurrence(_ db: Database, seriesID: Int64, occurrence: Date, now: Date, zone: TimeZone) throws
        -> Appointment
    {
        var series = try fetchAppointment(db, id: seriesID)
        guard var recurrence = series.recurrence else {
            throw ValidationError(
                field: "occurrence", template: "appointment %s is not a series: remove it without an occurrence",
                seriesID)
        }
        let row = try changedOccurrences(db, ofSeries: seriesID)
            .first { $0.recurrenceID.map { SeriesOccurrence.same($0, occurrence) } ?? false }
        if let row {
            try deletePendingDeliveries(db, ids: [row.id!])
            _ = try AppointmentRecord.deleteOne(db, key: row.id!)
        } else {
            try SeriesOccurrence.check(occurrence, of: series, zone: zone)
        }
        recurrence.changed.removeAll { SeriesOccurrence.same($0, occurrence) }
        recurrence.exdates = Self.withDate(occurrence, in: recurrence.exdates)
        series.recurrence = recurrence
        let saved = try saveAppointment(db, series, now: now, zone: zone)
        try dropSeriesDeliveries(db, seriesID: seriesID, occurrence: occurrence, handingTo: nil, now: now)
        return saved
    }

    /// After a changed occurrence was saved: the series' pending deliveries for it (one already due but
    /// not yet shown, a snoozed repeat) pass to the row when it still stands where it was, scheduled;
    /// otherwise they go. The series' future planned ones went when it stopped planning the occurrence.
    func handOverSeriesDeliveries(_ db: Database, to row: Appointment, now: Date) throws {
        guard let seriesID = row.seriesID, let rid = row.recurrenceID else { return }
        let stays = row.status == .scheduled && SeriesOccurrence.same(row.start, rid)
        try dropSeriesDeliveries(db, seriesID: seriesID, occurrence: rid, handingTo: stays ? row.id : nil, now: now)
    }

    private func dropSeriesDeliveries(
        _ db: Database, seriesID: Int64, occurrence: Date, handingTo rowID: Int64?, now: Date
    ) throws {
        let pending =
            try DeliveryRecord
            .filter(
                Column("itemKind") == ItemKind.appointment.rawValue && Column("itemID") == seriesID
                    && Column("state") == DeliveryState.pending.rawValue
            )
            .fetchAll(db).filter { SeriesOccurrence.same($0.occurrence, occurrence) }
        let seriesPrefix = "\(ItemKind.appointment.rawValue)/\(seriesID)/"
        for record in pending {
            try record.delete(db)
            guard let rowID, record.fireAt <= now || record.source != TriggerSource.plan.rawValue,
                record.key.hasPrefix(seriesPrefix)
            else { continue }
            var handed = record
            handed.itemID = rowID
            handed.key = "\(ItemKind.appointment.rawValue)/\(rowID)/" + record.key.dropFirst(seriesPrefix.count)
            try handed.insert(db, onConflict: .ignore)
        }
    }

    func deletePendingDeliveries(_ db: Database, ids: [Int64]) throws {
        for id in ids {
            try db.execute(
                sql: "DELETE FROM delivery WHERE itemKind = 'appointment' AND itemID = ? AND state = 'pending'",
                arguments: [id])
        }
    }

    /// `dates` with `date` in it once, ascending.
    static func withDate(_ date: Date, in dates: [Date]) -> [Date] {
        (dates.contains { SeriesOccurrence.same($0, date) } ? dates : dates + [date]).sorted()
    }
}
