import BeautyCore
import Foundation
import GRDB

/// A row of the `water` table (BeautyCore's `WaterRecord` is the drink it stores).
struct WaterTableRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "water"
    var id: Int64?
    var uuid: String
    var amountMl: Int
    var startAt: Date
    var endAt: Date?

    init(_ r: WaterRecord) {
        id = r.id; uuid = r.uuid; amountMl = r.amountMl; startAt = r.start; endAt = r.end
    }

    var record: WaterRecord { WaterRecord(id: id, uuid: uuid, amountMl: amountMl, start: startAt, end: endAt) }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// Water intake, its daily goal and reminders.
public struct WaterStore: Sendable {
    let writer: PrioritizedWriter

    static let goalSetting = "water.goal"
    static let reminderSetting = "water.remind"
    static let recordKind = "water record"

    // MARK: - Records

    /// Stores a drink. A uuid already stored keeps its record as it is: the answer is that record and `false`.
    public func add(_ record: WaterRecord) throws -> (record: WaterRecord, added: Bool) {
        try writer.write { db in
            var row = WaterTableRecord(record)
            row.id = nil
            try row.insert(db, onConflict: .ignore)
            if db.changesCount > 0, row.id != nil { return (row.record, true) }
            guard let existing = try WaterTableRecord.filter(Column("uuid") == record.uuid).fetchOne(db) else {
                throw StoreError.notFound(kind: Self.recordKind, id: 0)
            }
            return (existing.record, false)
        }
    }

    /// The '+250 ml' button of the water reminder `key`: the reminder answered (dismissed) and `record`
    /// stored in one transaction, so a crash or a failure between the two can neither lose the glass
    /// nor log it twice. Nil, and nothing stored, when the reminder was answered already.
    public func drinkFromReminder(_ key: String, _ record: WaterRecord, at now: Date) throws -> WaterRecord? {
        try writer.write { db in
            guard try DeliveryStore.transition(db, [key], from: [.fired], to: .dismissed, at: now, firedAt: nil) > 0
            else {
                return nil
            }
            var row = WaterTableRecord(record)
            row.id = nil
            try row.insert(db)
            return row.record
        }
    }

    /// Stores the records whose uuid is not stored yet, in one transaction; the rest are skipped.
    public func importRecords(_ records: [WaterRecord]) throws -> (inserted: Int, skipped: Int) {
        try writer.write { db in
            var inserted = 0
            for record in records {
                var row = WaterTableRecord(record)
                row.id = nil
                try row.insert(db, onConflict: .ignore)
                inserted += db.changesCount
            }
            return (inserted, records.count - inserted)
        }
    }

    /// Records that started in [from, to), earliest first.
    public func records(from: Date, to: Date) throws -> [WaterRecord] {
        try writer.read { db in
            try WaterTableRecord.filter(Column("startAt") >= from && Column("startAt") < to)
                .order(Column("startAt"), Column("id")).fetchAll(db).map(\.record)
        }
    }

    public func record(id: Int64) throws -> WaterRecord {
        try writer.read { db in try WaterTableRecord.fetch(db, id: id, kind: Self.recordKind).record }
    }

    /// Reads the stored record, lets `change` edit it (its id and uuid stay) and saves it, in one transaction.
    public func update(id: Int64, _ change: (inout WaterRecord) throws -> Void) throws -> WaterRecord {
        try writer.write { db in
            let old = try WaterTableRecord.fetch(db, id: id, kind: Self.recordKind)
            var record = old.record
            try change(&record)
            var row = WaterTableRecord(record)
            row.id = id
            row.uuid = old.uuid
            try row.update(db)
            return row.record
        }
    }

    /// Deletes a record and answers it as it was.
    public func delete(id: Int64) throws -> WaterRecord {
        try writer.write { db in try WaterTableRecord.delete(db, id: id, kind: Self.recordKind).record }
    }

    public func count() throws -> Int {
        try writer.read { db in try WaterTableRecord.fetchCount(db) }
    }

    /// Every local day from `from`'s to the one before `to`, with what was drunk on it (a record
    /// counts on the day it started), oldest first; days without records are there with 0.
    public func days(from: Date, to: Date, zone: TimeZone) throws -> [(day: LocalDate, totalMl: Int, count: Int)] {
        guard from < to else { return [] }
        var totals: [LocalDate: (Int, Int)] = [:]
        for record in try records(from: from, to: to) {
            let day = LocalDate(record.start, in: zone)
            let sum = totals[day] ?? (0, 0)
            totals[day] = (sum.0 + record.amountMl, sum.1 + 1)
        }
        var result: [(day: LocalDate, totalMl: Int, count: Int)] = []
        var day = LocalDate(from, in: zone)
        let last = LocalDate(to.addingTimeInterval(-0.001), in: zone)
        while day <= last {
            let sum = totals[day] ?? (0, 0)
            result.append((day, sum.0, sum.1))
            day = day.adding(days: 1)
        }
        return result
    }

    /// What was drunk on one local day.
    public func total(on day: LocalDate, zone: TimeZone) throws -> (totalMl: Int, count: Int) {
        let days = try self.days(from: day.start(in: zone), to: day.adding(days: 1).start(in: zone), zone: zone)
        return days.first.map { ($0.totalMl, $0.count) } ?? (0, 0)
    }

    // MARK: - Goal and reminder settings

    /// The daily goal in ml; nil when none is set.
    public func goal() throws -> Int? {
        try setting(Self.goalSetting).flatMap { Int($0) }
    }

    /// Sets the daily goal, or removes it (nil).
    public func setGoal(_ ml: Int?) throws {
        if let ml { return try setSetting(Self.goalSetting, String(ml)) }
        try removeSetting(Self.goalSetting)
    }

    /// Whether `day`'s water reached the goal (false without a goal).
    public func goalReached(on day: LocalDate, zone: TimeZone) throws -> Bool {
        guard let goal = try self.goal() else { return false }
        return try total(on: day, zone: zone).totalMl >= goal
    }

    /// The reminder settings; `WaterReminder.standard` (off) until set.
    public func reminder() throws -> WaterReminder {
        guard let text = try setting(Self.reminderSetting),
            let reminder = try? JSONDecoder().decode(WaterReminder.self, from: Data(text.utf8))
        else { return .standard }
        return reminder
    }

    public func setReminder(_ reminder: WaterReminder) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try setSetting(Self.reminderSetting, String(decoding: try encoder.encode(reminder), as: UTF8.self))
    }

    /// Whether a water reminder due at `at` should still be shown: reminders are on and that day's
    /// goal is not reached yet.
    public func reminderWanted(at: Date, zone: TimeZone) throws -> Bool {
        try reminder().enabled && !(try goalReached(on: LocalDate(at, in: zone), zone: zone))
    }

    /// The water reminders planned after `now`, earliest first.
    public func plannedReminders(after now: Date, limit: Int = 5) throws -> [Date] {
        try writer.read { db in
            try Date.fetchAll(
                db,
                sql: """
                    SELECT fireAt FROM delivery WHERE itemKind = 'water' AND state = 'pending' AND fireAt > ?
                    ORDER BY fireAt LIMIT ?
                    """, arguments: [now, limit])
        }
    }

    private func setting(_ key: String) throws -> String? {
        try writer.read { db in try AppDatabase.setting(db, key) }
    }

    private func setSetting(_ key: String, _ value: String) throws {
        try writer.write { db in try AppDatabase.setSetting(db, key, value) }
    }

    private func removeSetting(_ key: String) throws {
        try writer.write { db in try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key]) }
    }
}

/// The water reminders' and the daily tip's place in the delivery ledger.
extension AppDatabase {
    // MARK: - Planning (called by the scheduler on every pass)

    /// Pending water-reminder deliveries (itemKind .water) for the rest of today and tomorrow, from
    /// the settings. A day whose goal is reached gets no more reminders; reminders no longer wanted
    /// (settings or zone changed, switched off) are dropped. Of the reminders already due but not yet
    /// shown (the daemon was down, no notification server), only the latest is kept: the others, and
    /// any of a day whose goal was reached meanwhile, are recorded as missed.
    public func planWater(now: Date, zone: TimeZone) throws {
        let reminder = try water.reminder()
        let goal = try water.goal()
        var reached: [LocalDate: Bool] = [:]
        func goalReached(_ instant: Date) throws -> Bool {
            guard let goal else { return false }
            let day = LocalDate(instant, in: zone)
            if let known = reached[day] { return known }
            let value = try water.total(on: day, zone: zone).totalMl >= goal
            reached[day] = value
            return value
        }
        let wanted = try WaterReminderPlan.wanted(reminder, now: now, zone: zone, goalReached: goalReached)
        let due = try writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT key, fireAt FROM delivery WHERE itemKind = 'water' AND state = 'pending' AND source = 'plan' AND fireAt <= ?
                    ORDER BY fireAt DESC, key DESC
                    """, arguments: [now]
            ).map { (key: $0["key"] as String, fireAt: $0["fireAt"] as Date) }
        }
        var stale: [String] = []
        for (index, row) in due.enumerated() {
            if try index > 0 || (reminder.enabled && goalReached(row.fireAt)) { stale.append(row.key) }
        }
        // Every scheduler pass asks; read first so a pass with nothing to change never queues for the writer.
        let dropDue = !reminder.enabled
        let changes = try writer.read { db in
            try Self.pendingChanges(db, kind: .water, to: wanted, now: now, dropDue: dropDue)
        }
        guard !changes.isEmpty || !stale.isEmpty else { return }
        try writer.write { db in
            try Self.pendingChanges(db, kind: .water, to: wanted, now: now, dropDue: dropDue).apply(db)
            for key in stale {
                try db.execute(
                    sql: "UPDATE delivery SET state = 'missed', settledAt = ? WHERE key = ? AND state = 'pending'",
                    arguments: [now, key])
            }
        }
    }

    /// The daily tip (itemKind .tip, itemID the tip's id) at `at` today, unless that has passed or
    /// today's tip was already delivered, and tomorrow; none when `at` is nil. Tips planned for
    /// another time (the setting changed) are dropped.
    public func planDailyTip(now: Date, zone: TimeZone, at: ClockTime?) throws {
        func changes(_ db: Database) throws -> PendingChanges {
            let wanted = try DailyTipPlan.wanted(at: at, now: now, zone: zone) { day in
                let shown =
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COUNT(*) FROM delivery WHERE itemKind = 'tip' AND occurrence = ? AND state <> 'pending'
                            """, arguments: [day.start(in: zone)]) ?? 0
                return shown > 0
            }
            return try Self.pendingChanges(db, kind: .tip, to: wanted, now: now, dropDue: at == nil)
        }
        // Every scheduler pass asks; read first so a pass with nothing to change never queues for the writer.
        guard try !writer.read(changes).isEmpty else { return }
        try writer.write { db in try changes(db).apply(db) }
    }

    /// What makes the future pending deliveries of `kind` exactly `wanted`: pending rows no longer
    /// wanted (with `dropDue`, due ones too) go, wanted keys not in the ledger yet come. A key already
    /// there in any state stays as it is (stable keys: a shown reminder is never planned again).
    private static func pendingChanges(
        _ db: Database, kind: ItemKind, to wanted: [Trigger], now: Date,
        dropDue: Bool
    ) throws -> PendingChanges {
        let keys = Set(wanted.map(\.key))
        let pending = try Row.fetchAll(
            db, sql: "SELECT key, fireAt FROM delivery WHERE itemKind = ? AND state = 'pending' AND source = 'plan'",
            arguments: [kind.rawValue])
        let drop = pending.compactMap { row -> String? in
            let key: String = row["key"], fireAt: Date = row["fireAt"]
            return (fireAt > now ? !keys.contains(key) : dropDue) ? key : nil
        }
        let add = try wanted.filter { trigger in
            try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM delivery WHERE key = ?)", arguments: [trigger.key])
                != true
        }
        return PendingChanges(drop: drop, add: add)
    }

    struct PendingChanges {
        var drop: [String]
        var add: [Trigger]
        var isEmpty: Bool { drop.isEmpty && add.isEmpty }

        func apply(_ db: Database) throws {
            for key in drop {
                try db.execute(sql: "DELETE FROM delivery WHERE key = ? AND state = 'pending'", arguments: [key])
            }
            for trigger in add { try DeliveryRecord(trigger).insert(db, onConflict: .ignore) }
        }
    }
}
