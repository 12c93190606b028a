import BeautyCore
import Foundation
import GRDB

/// The appointments: added, edited, listed, deleted, imported. Reached as `database.appointments`.
public struct AppointmentStore: Sendable {
    /// The database whose shared writer this writes with; the helpers inside a transaction (which
    /// other areas' transactions call too) and the reminders' planning are its own.
    let database: AppDatabase
    var writer: PrioritizedWriter { database.writer }

    /// Inserts an appointment with its reminders and schedules their deliveries, in one transaction.
    public func add(_ appointment: Appointment, now: Date, zone: TimeZone = .current) throws -> Appointment {
        try writer.write { db in try database.insertAppointment(db, appointment, now: now, zone: zone) }
    }

    /// Replaces an appointment's fields and reminders; deliveries already made are kept, so an edit
    /// that does not move a reminder never repeats it, and one that does schedules the new instant.
    public func update(_ appointment: Appointment, now: Date, zone: TimeZone = .current) throws
        -> Appointment
    {
        guard let id = appointment.id else { throw StoreError.notFound(kind: "appointment", id: 0) }
        return try update(id: id, now: now, zone: zone) { $0 = appointment }
    }

    /// Reads the stored appointment, lets `change` edit it and saves the result, in one transaction:
    /// a change made meanwhile (marked done, say) is never overwritten by an edit made from an older copy.
    public func update(
        id: Int64, now: Date, zone: TimeZone = .current,
        _ change: (inout Appointment) throws -> Void
    ) throws -> Appointment {
        try writer.write { db in
            let stored = try database.fetchAppointment(db, id: id)
            var appointment = stored
            try change(&appointment)
            appointment.id = id
            try database.followSeriesMove(db, from: stored, to: &appointment)
            return try database.saveAppointment(db, appointment, now: now, zone: zone)
        }
    }

    /// Single appointments starting in [from, to) plus every series that began before `to` (to expand);
    /// `ordered` as `list(from:to:)` orders them, else in no particular order (for a caller
    /// that sorts them itself: a full-range agenda spares SQLite's sort of every row).
    public func forRange(from: Date, to: Date, ordered: Bool = true) throws -> [Appointment] {
        try writer.read { db in
            let singles = try fetchAppointments(db, from: from, to: to, singlesOnly: true, ordered: ordered)
            let records = try AppointmentRecord.fetchAll(
                db,
                sql: """
                    SELECT \(AppointmentRecord.columnList) FROM appointment \(try rowsWorthReadingInOrder(db, from: nil, to: to) != nil ? "NOT INDEXED" : "")
                    WHERE recurrence IS NOT NULL AND start < ?
                    """, arguments: [to])
            let reminders = try database.remindersByAppointment(db, ids: records.compactMap(\.id))
            return singles + records.map { $0.appointment(reminders: reminders[$0.id!] ?? []) }
        }
    }

    /// Gives every appointment without a UID a random, permanent one (before an export): a UID derived
    /// from the row id could later be reused by another appointment in a database the file is imported into.
    /// A changed occurrence takes its series' UID, as iCalendar writes it.
    public func assignMissingUIDs() throws {
        try writer.write { db in
            for id in try Int64.fetchAll(db, sql: "SELECT id FROM appointment WHERE uid IS NULL AND seriesId IS NULL") {
                try db.execute(
                    sql: "UPDATE appointment SET uid = ? WHERE id = ?",
                    arguments: ["\(UUID().uuidString.lowercased())@beautyd", id])
            }
            try db.execute(
                sql: """
                    UPDATE appointment SET uid = (SELECT series.uid FROM appointment AS series WHERE series.id = appointment.seriesId)
                    WHERE uid IS NULL AND seriesId IS NOT NULL
                    """)
        }
    }

    /// The appointment imported with this iCalendar UID (or exported as `appointment-ID@beautyd`),
    /// as `scope` picks among the accounts.
    public func get(uid: String, scope: UIDScope = .user) throws -> Appointment? {
        try writer.read { db in
            try database.fetchAppointment(db, uid: uid, account: try database.owner(db, uid: uid, scope))
        }
    }

    /// Inserts or updates appointments by UID in one transaction: all or nothing. An appointment equal
    /// to the stored one is left alone, so importing the same file again changes nothing. A UID
    /// names the appointment `scope` picks (a user's import: the one no account has yet, else the
    /// first account's).
    /// `contacts` (index-aligned, may be empty): the contact each appointment names. One of the same
    /// name (any case) is linked; else one with a phone number is created, in the same transaction;
    /// else the appointment stays without a contact and its index is listed in `unlinked`.
    public func importAll(
        _ incoming: [Appointment], contacts: [Contact?] = [], scope: UIDScope = .user, now: Date, zone: TimeZone
    ) throws -> AppointmentImportCounts {
        try writer.write { db in
            try database.importAppointments(db, incoming, contacts: contacts, scope: scope, now: now, zone: zone)
        }
    }

    /// Deletes an appointment and its pending deliveries. A series takes its changed occurrences
    /// along; a changed occurrence leaves its series for good (an EXDATE there).
    public func delete(id: Int64, now: Date = Date(), zone: TimeZone = .current) throws {
        try writer.write { db in
            let gone = try database.fetchAppointment(db, id: id)
            if gone.seriesID != nil, gone.recurrenceID != nil {
                _ = try database.removeOccurrence(db, id: id, occurrence: nil, now: now, zone: zone)
                return
            }
            let occurrences = try database.changedOccurrences(db, ofSeries: id).compactMap(\.id)
            try database.deletePendingDeliveries(db, ids: [id] + occurrences)
            // The changed occurrences go by ON DELETE CASCADE.
            _ = try AppointmentRecord.deleteOne(db, key: id)
        }
    }

    public func get(id: Int64) throws -> Appointment {
        try writer.read { db in try database.fetchAppointment(db, id: id) }
    }

    /// Appointments starting in [from, to) (either bound optional), by start time, then title, then id.
    public func list(from: Date? = nil, to: Date? = nil, statuses: Set<Appointment.Status>? = nil) throws
        -> [Appointment]
    {
        try writer.read { db in
            try fetchAppointments(db, from: from, to: to, statuses: statuses, ordered: true)
        }
    }

    public func count() throws -> Int {
        try writer.read { db in try AppointmentRecord.fetchCount(db) }
    }

    private func fetchAppointments(
        _ db: Database, from: Date?, to: Date?, statuses: Set<Appointment.Status>? = nil,
        singlesOnly: Bool = false, ordered: Bool
    ) throws -> [Appointment] {
        var conditions = singlesOnly ? ["recurrence IS NULL"] : []
        var arguments: StatementArguments = []
        if let from { conditions.append("start >= ?"); arguments += [from] }
        if let to { conditions.append("start < ?"); arguments += [to] }
        if let statuses {
            conditions.append("status IN (\(statuses.map { _ in "?" }.joined(separator: ", ")))")
            arguments += StatementArguments(statuses.map(\.rawValue).sorted())
        }
        let rows = try rowsWorthReadingInOrder(db, from: from, to: to)
        let sql = """
            SELECT \(AppointmentRecord.columnList) FROM appointment \(rows != nil ? "NOT INDEXED" : "")
            \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
            \(ordered && rows == nil ? "ORDER BY start, title COLLATE NOCASE, id" : "")
            """
        guard let rows else {
            let records = try AppointmentRecord.fetchAll(db, sql: sql, arguments: arguments)
            let reminders = try database.remindersByAppointment(db, ids: records.compactMap(\.id))
            return records.map { $0.appointment(reminders: reminders[$0.id!] ?? []) }
        }
        // Most of the table: every reminder in one pass, then each row made an appointment as it is read,
        // into a list sized once (a list of records grown by doubling, then mapped, copied 100,000 rows
        // twice over). Sorted here: SQLite's sorter would carry every column of every row (and spill to a
        // temporary file past its cache), where sorting indices moves nothing.
        let reminders = try database.remindersByAppointment(db)
        var appointments: [Appointment] = []
        appointments.reserveCapacity(rows)
        let cursor = try AppointmentRecord.fetchCursor(db, sql: sql, arguments: arguments)
        while let record = try cursor.next() {
            appointments.append(record.appointment(reminders: reminders[record.id!] ?? []))
        }
        return ordered ? Self.storedOrder(appointments).map { appointments[$0] } : appointments
    }

    /// The appointments' indices by start, then title as SQLite's NOCASE compares it (ASCII letters
    /// folded, then bytes), then id: the order of `ORDER BY start, title COLLATE NOCASE, id`.
    private static func storedOrder(_ appointments: [Appointment]) -> [Int] {
        func folded(_ byte: UInt8) -> UInt8 {
            byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
        }
        let starts = appointments.map(\.start)
        return appointments.indices.sorted { i, j in
            if starts[i] != starts[j] { return starts[i] < starts[j] }
            let a = appointments[i].title.utf8, b = appointments[j].title.utf8
            if !a.elementsEqual(b, by: { folded($0) == folded($1) }) {
                return a.lazy.map(folded).lexicographicallyPrecedes(b.lazy.map(folded))
            }
            return (appointments[i].id ?? 0) < (appointments[j].id ?? 0)
        }
    }

    /// How many rows start in [from, to) when they are most of the table, to be read `NOT INDEXED`; nil otherwise. Through the `start` index SQLite
    /// reads a table page for every row, which for most of the table costs several times reading the
    /// table in storage order (100,000 appointments: 95 against 15 ms). The two counts read the index only.
    private func rowsWorthReadingInOrder(_ db: Database, from: Date?, to: Date?) throws -> Int? {
        let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM appointment") ?? 0
        guard total > Self.rowsWorthAnIndex else { return nil }
        let bounds = [from.map { ("start >= ?", $0) }, to.map { ("start < ?", $0) }].compactMap { $0 }
        let inRange =
            bounds.isEmpty
            ? total
            : try Int.fetchOne(
                db, sql: "SELECT count(*) FROM appointment WHERE " + bounds.map(\.0).joined(separator: " AND "),
                arguments: StatementArguments(bounds.map(\.1))) ?? 0
        return inRange > total / 4 ? inRange : nil
    }

    /// Below this many rows the table is read either way in well under a millisecond.
    private static let rowsWorthAnIndex = 2_000
}

extension AppDatabase {
    /// Extends the pending deliveries of every series planned less than half a horizon ahead.
    public func planSeries(now: Date, zone: TimeZone) throws {
        let threshold = now.addingTimeInterval(AppointmentReminderPlan.seriesHorizon / 2)
        func needingPlans(_ db: Database) throws -> [Int64] {
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM appointment WHERE recurrence IS NOT NULL AND status = 'scheduled'
                      AND (plannedUntil IS NULL OR plannedUntil < ?)
                    """, arguments: [threshold])
        }
        // Every scheduler pass asks; read first so a pass with nothing to plan never queues for the writer.
        guard try !writer.read(needingPlans).isEmpty else { return }
        try writer.write { db in
            for id in try needingPlans(db) {
                try syncDeliveries(db, for: try fetchAppointment(db, id: id), now: now, zone: zone)
            }
        }
    }

    /// When series deliveries must next be extended.
    public func nextSeriesPlanningInstant() throws -> Date? {
        try writer.read { db in
            try Date.fetchOne(
                db,
                sql: "SELECT MIN(plannedUntil) FROM appointment WHERE recurrence IS NOT NULL AND status = 'scheduled'"
            )
            .map { $0.addingTimeInterval(-AppointmentReminderPlan.seriesHorizon / 2) }
        }
    }

    /// `importAll` inside a transaction (sync applies a server's changes in one of its own).
    func importAppointments(
        _ db: Database, _ incoming: [Appointment], contacts: [Contact?] = [], scope: UIDScope = .user, now: Date,
        zone: TimeZone
    ) throws -> AppointmentImportCounts {
        var counts = AppointmentImportCounts()
        // Series and single appointments are looked up in a few queries, whatever their number; the
        // few changed occurrences one by one, by UID and original start.
        let existing = try storedAppointments(
            db, uids: incoming.filter { $0.recurrenceID == nil }.compactMap(\.uid), scope: scope)
        let brought = Self.changedOccurrencesByUID(incoming)
        var linked: [String: Int64] = [:]
        for index in Self.seriesFirst(incoming) {
            var new = incoming[index]
            let stored = new.recurrenceID == nil ? new.uid.flatMap { existing[$0] } : nil
            let account =
                new.recurrenceID == nil
                ? (stored.map(\.account) ?? scope.newAppointmentAccount) : try owner(db, uid: new.uid, scope)
            let old = new.recurrenceID == nil ? stored?.appointment : try importedMatch(db, new, account: account)
            try linkImported(db, &new, old: old, account: account, brought: brought, now: now, zone: zone)
            if index < contacts.count, let wanted = contacts[index] {
                let key = wanted.name.lowercased()
                if let id = try linked[key]
                    ?? Int64.fetchOne(
                        db,
                        sql: "SELECT id FROM contact WHERE name = ? COLLATE swiftCaseInsensitiveCompare ORDER BY id",
                        arguments: [wanted.name])
                {
                    new.contactID = id
                } else if !wanted.phone.isEmpty {
                    var record = ContactRecord(wanted)
                    record.id = nil
                    try record.insert(db)
                    new.contactID = record.id
                    counts.contactsCreated += 1
                } else {
                    counts.unlinked.append(index)
                }
                if let id = new.contactID { linked[key] = id }
            }
            if let old {
                // A file from another program cannot say "done", a cycle after done, or which contact: keep what is stored.
                if old.status == .done, new.status == .scheduled { new.status = .done }
                new.repeatAfterDoneSeconds = new.repeatAfterDoneSeconds ?? old.repeatAfterDoneSeconds
                new.contactID = new.contactID ?? old.contactID
            }
            var record = AppointmentRecord(new)
            if let old {
                record.id = old.id
                record.uid = old.uid ?? (new.uid == old.effectiveUID ? nil : new.uid)
                record.createdAt = old.createdAt
                record.updatedAt = old.updatedAt
                if record.appointment(reminders: new.reminders) == old { counts.unchanged += 1; continue }
                record.updatedAt = now
                try record.update(db)
                counts.updated += 1
            } else {
                record.id = nil
                record.createdAt = now
                record.updatedAt = now
                try record.insertRow(db, account: account)
                counts.inserted += 1
            }
            let saved = record.appointment(reminders: new.reminders)
            try saveReminders(db, saved, isNew: old == nil)
            try syncDeliveries(db, for: saved, now: now, zone: zone, isNew: old == nil)
            try linkStoredOccurrences(db, of: saved)
        }
        return counts
    }

    /// The stored appointments these UIDs name in `scope` (as `fetchAppointment(_:uid:account:)` finds
    /// them) with their accounts, in a few queries whatever their number: an import looks up every one of its events.
    private func storedAppointments(_ db: Database, uids: [String], scope: UIDScope) throws -> [String: (
        appointment: Appointment, account: String?
    )] {
        guard !uids.isEmpty else { return [:] }
        var ids: [String: Int64] = [:], accounts: [String: String?] = [:], ranks: [String: Int] = [:]
        let wanted = Set(uids)
        let preference = try Self.accountPreference(db)
        let rows = try Row.fetchCursor(
            db, sql: "SELECT uid, id, account FROM appointment WHERE uid IS NOT NULL AND recurrenceId IS NULL")
        while let row = try rows.next() {
            let uid: String = row[0], account: String? = row[2]
            guard wanted.contains(uid) else { continue }
            let rank: Int
            switch scope {
            case let .account(name): guard account == name else { continue }; rank = 0
            case .user: rank = account.map { preference[$0] ?? Int.max } ?? 0
            }
            if let best = ranks[uid], best <= rank { continue }
            ids[uid] = row[1]; accounts[uid] = account; ranks[uid] = rank
        }
        // `appointment-ID@beautyd` names the appointment exported under that name, while it has no UID of its own.
        let prefix = "appointment-", suffix = "@beautyd"
        let derived = wanted.filter { ids[$0] == nil && $0.hasPrefix(prefix) && $0.hasSuffix(suffix) }
            .compactMap { uid in Int64(uid.dropFirst(prefix.count).dropLast(suffix.count)).map { (uid, $0) } }
        if !derived.isEmpty, scope.newAppointmentAccount == nil {
            let withoutUID = Set(
                try Int64.fetchAll(db, sql: "SELECT id FROM appointment WHERE uid IS NULL AND account IS NULL"))
            for (uid, id) in derived where withoutUID.contains(id) { ids[uid] = id; accounts[uid] = .some(nil) }
        }
        guard !ids.isEmpty else { return [:] }
        let byID = try appointments(db, ids: Array(Set(ids.values)))
        var found: [String: (appointment: Appointment, account: String?)] = [:]
        for (uid, id) in ids { if let appointment = byID[id] { found[uid] = (appointment, accounts[uid] ?? nil) } }
        return found
    }

    /// Appointments by id with their reminders, in chunks (SQLite limits bound variables per statement).
    private func appointments(_ db: Database, ids: [Int64]) throws -> [Int64: Appointment] {
        var records: [AppointmentRecord] = []
        for chunk in stride(from: 0, to: ids.count, by: Self.reminderChunk).map({
            Array(ids[$0..<min($0 + Self.reminderChunk, ids.count)])
        }) {
            records += try AppointmentRecord.filter(keys: chunk).fetchAll(db)
        }
        let reminders = try remindersByAppointment(db, ids: records.compactMap(\.id))
        return Dictionary(
            uniqueKeysWithValues: records.map { ($0.id!, $0.appointment(reminders: reminders[$0.id!] ?? [])) })
    }

    // MARK: - Helpers inside a transaction

    func fetchAppointment(_ db: Database, id: Int64) throws -> Appointment {
        guard let record = try AppointmentRecord.fetchOne(db, key: id) else {
            throw StoreError.notFound(kind: "appointment", id: id)
        }
        return record.appointment(reminders: try remindersByAppointment(db, ids: [id])[id] ?? [])
    }

    /// The series or single appointment `account`'s UID `uid` names (nil account: one no account has yet).
    func fetchAppointment(_ db: Database, uid: String, account: String?) throws -> Appointment? {
        if let id = try Int64.fetchOne(
            db, sql: "SELECT id FROM appointment WHERE IFNULL(account, '') = ? AND uid = ? AND recurrenceId IS NULL",
            arguments: [account ?? "", uid])
        {
            return try fetchAppointment(db, id: id)
        }
        let prefix = "appointment-", suffix = "@beautyd"
        guard uid.hasPrefix(prefix), uid.hasSuffix(suffix),
            let id = Int64(uid.dropFirst(prefix.count).dropLast(suffix.count)),
            try Bool.fetchOne(
                db, sql: "SELECT uid IS NULL AND IFNULL(account, '') = ? FROM appointment WHERE id = ?",
                arguments: [account ?? "", id]) == true
        else { return nil }
        return try fetchAppointment(db, id: id)
    }

    /// Inserts a new appointment with its reminders and schedules their deliveries.
    /// `account`: the sync account the new row belongs to (a series' changed occurrence or split-off
    /// tail stays its series' account's), nil for one no account has yet.
    func insertAppointment(
        _ db: Database, _ appointment: Appointment, account: String? = nil, now: Date, zone: TimeZone
    ) throws -> Appointment {
        var record = AppointmentRecord(appointment)
        record.id = nil
        record.createdAt = now
        record.updatedAt = now
        try checkContact(db, appointment.contactID)
        try record.insertRow(db, account: account)
        let saved = record.appointment(reminders: appointment.reminders)
        try saveReminders(db, saved)
        try syncDeliveries(db, for: saved, now: now, zone: zone)
        return saved
    }

    /// Saves a stored appointment's fields and reminders and makes its pending deliveries match.
    /// The sync account appointment `id` belongs to; nil when none has it yet.
    func account(_ db: Database, ofAppointment id: Int64) throws -> String? {
        try String.fetchOne(db, sql: "SELECT account FROM appointment WHERE id = ?", arguments: [id])
    }

    func saveAppointment(_ db: Database, _ appointment: Appointment, now: Date, zone: TimeZone) throws -> Appointment {
        let id = appointment.id!
        guard let old = try AppointmentRecord.fetchOne(db, key: id) else {
            throw StoreError.notFound(kind: "appointment", id: id)
        }
        try checkContact(db, appointment.contactID)
        var record = AppointmentRecord(appointment)
        record.createdAt = old.createdAt
        record.updatedAt = now
        try record.update(db)
        let saved = record.appointment(reminders: appointment.reminders)
        try saveReminders(db, saved)
        try syncDeliveries(db, for: saved, now: now, zone: zone)
        return saved
    }

    private func checkContact(_ db: Database, _ id: Int64?) throws {
        if let id, try !ContactRecord.exists(db, key: id) { throw StoreError.notFound(kind: "contact", id: id) }
    }

    /// `isNew`: the appointment was just inserted, so it has no reminders to replace.
    private func saveReminders(_ db: Database, _ appointment: Appointment, isNew: Bool = false) throws {
        let id = appointment.id!
        // Cached statements: an import saves the reminders of every one of its events.
        if !isNew {
            try db.cachedStatement(sql: "DELETE FROM appointmentReminder WHERE appointmentId = ?").execute(arguments: [
                id
            ])
        }
        let insert = try db.cachedStatement(
            sql: "INSERT INTO appointmentReminder (appointmentId, beforeSeconds, at) VALUES (?, ?, ?)")
        for reminder in appointment.reminders {
            try insert.execute(arguments: [id, reminder.beforeSeconds, reminder.at])
        }
    }

    private static let reminderChunk = 500

    /// Every appointment's reminders (only those of `wanted` when given), in one pass over the table.
    fileprivate func remindersByAppointment(_ db: Database, of wanted: Set<Int64>? = nil) throws -> [Int64: [Reminder]]
    {
        var result: [Int64: [Reminder]] = [:]
        let rows = try Row.fetchCursor(
            db, sql: "SELECT appointmentId, beforeSeconds, at FROM appointmentReminder ORDER BY id")
        while let row = try rows.next() {
            let id: Int64 = try row.decode(atIndex: 0)
            if let wanted, !wanted.contains(id) { continue }
            result[id, default: []].append(
                Reminder(beforeSeconds: try row.decode(atIndex: 1), at: try row.decode(atIndex: 2)))
        }
        return result
    }

    fileprivate func remindersByAppointment(_ db: Database, ids: [Int64]) throws -> [Int64: [Reminder]] {
        guard !ids.isEmpty else { return [:] }
        var result: [Int64: [Reminder]] = [:]
        if ids.count > Self.reminderChunk {
            // Many appointments (a full-range agenda, an export): one pass over the table costs less
            // than an IN list per chunk, each built, prepared and decoded through Codable.
            return try remindersByAppointment(db, of: Set(ids))
        }
        // Chunk the IN list: SQLite limits bound variables per statement.
        for chunk in stride(from: 0, to: ids.count, by: Self.reminderChunk).map({
            Array(ids[$0..<min($0 + Self.reminderChunk, ids.count)])
        }) {
            let rows = try ReminderRecord.filter(chunk.contains(Column("appointmentId"))).order(Column("id")).fetchAll(
                db)
            for row in rows { result[row.appointmentId, default: []].append(row.reminder) }
        }
        return result
    }

    /// Makes the pending deliveries of an appointment match its reminders: pending rows for instants
    /// that no longer exist go, new future instants come; fired/settled rows are history and stay.
    /// `isNew`: the appointment was just inserted, so it has no deliveries yet. The statements are
    /// cached: an import plans the deliveries of every one of its events.
    func syncDeliveries(_ db: Database, for appointment: Appointment, now: Date, zone: TimeZone, isNew: Bool = false)
        throws
    {
        let id = appointment.id!
        let plan = AppointmentReminderPlan(
            for: appointment, now: now, zone: zone, allDay: AllDayReminders(time: allDayReminderTime, zone: zone))
        if let plannedUntil = plan.plannedUntil {
            try db.cachedStatement(sql: "UPDATE appointment SET plannedUntil = ? WHERE id = ?").execute(arguments: [
                plannedUntil, id,
            ])
        }
        let wanted = plan.triggers
        if !isNew {
            let wantedKeys = Set(wanted.map(\.key))
            let pending = try DeliveryRecord.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM delivery WHERE itemKind = 'appointment' AND itemID = ? AND state = 'pending' AND source = 'plan'
                        """), arguments: [id])
            // A reminder already due but still waiting (no notification server) is kept: it will be shown.
            for row in pending where !wantedKeys.contains(row.key) && row.fireAt > now { try row.delete(db) }
        }
        let insert = try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO delivery (key, itemKind, itemID, occurrence, fireAt, state, source, attempts)
                VALUES (?, ?, ?, ?, ?, ?, ?, 0)
                """)
        for trigger in wanted where trigger.fireAt > now {
            try insert.execute(arguments: [
                trigger.key, trigger.itemKind.rawValue, trigger.itemID, trigger.occurrence, trigger.fireAt,
                DeliveryState.pending.rawValue, trigger.source.rawValue,
            ])
        }
        if !isNew, appointment.status != .scheduled {
            // A done or cancelled visit needs no more reminders, snoozed ones included.
            try db.cachedStatement(
                sql: "DELETE FROM delivery WHERE itemKind = 'appointment' AND itemID = ? AND state = 'pending'"
            )
            .execute(arguments: [id])
        }
    }
}

/// What an import did.
public struct AppointmentImportCounts: Sendable, Equatable {
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
    /// Contacts named by the file that did not exist and were created with the phone it gave.
    public var contactsCreated = 0
    /// Indexes of appointments whose contact does not exist and came without a phone number.
    public var unlinked: [Int] = []
}
