import BeautyCore
import Foundation
import GRDB

/// One income (positive) or expense (negative) record of the budget, in integer cents.
public struct BudgetRow: Sendable, Equatable {
    public var id: Int64?
    public var name: String
    public var amountCents: Int64
    public var currency: String
    public var at: Date
    /// The appointment whose price this expense records (nil for a typed entry, or once that appointment is deleted).
    public var appointmentID: Int64?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int64? = nil, name: String, amountCents: Int64, currency: String, at: Date, appointmentID: Int64? = nil,
        createdAt: Date = Date(), updatedAt: Date = Date()
    ) {
        self.id = id
        self.name = name
        self.amountCents = amountCents
        self.currency = currency
        self.at = at
        self.appointmentID = appointmentID
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// Income, expenses and their difference in one currency over a range.
public struct BudgetTotalsRow: Sendable, Equatable {
    public var currency: String
    /// Sum of the positive amounts.
    public var incomeCents: Int64
    /// Sum of the negative amounts, as a positive number.
    public var expenseCents: Int64
    public var count: Int
    public var balanceCents: Int64 { incomeCents - expenseCents }

    public init(currency: String, incomeCents: Int64, expenseCents: Int64, count: Int) {
        self.currency = currency
        self.incomeCents = incomeCents
        self.expenseCents = expenseCents
        self.count = count
    }
}

struct BudgetEntryRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "budgetEntry"
    var id: Int64?
    var name: String
    var amountCents: Int64
    var currency: String
    var at: Date
    var appointmentId: Int64?
    var createdAt: Date
    var updatedAt: Date

    init(_ row: BudgetRow) {
        id = row.id; name = row.name; amountCents = row.amountCents; currency = row.currency; at = row.at
        appointmentId = row.appointmentID; createdAt = row.createdAt; updatedAt = row.updatedAt
    }

    var row: BudgetRow {
        BudgetRow(
            id: id, name: name, amountCents: amountCents, currency: currency, at: at, appointmentID: appointmentId,
            createdAt: createdAt, updatedAt: updatedAt)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// Budget entries: income and expenses, and the expense a done appointment's price records.
public struct BudgetStore: Sendable {
    let writer: PrioritizedWriter

    public static let entryKind = "budget entry"

    public func add(_ entry: BudgetRow, now: Date) throws -> BudgetRow {
        try writer.write { db in
            var record = BudgetEntryRecord(entry)
            record.id = nil
            record.createdAt = now
            record.updatedAt = now
            try record.insert(db)
            return record.row
        }
    }

    public func entry(id: Int64) throws -> BudgetRow {
        try writer.read { db in try Self.fetchBudgetEntry(db, id: id) }
    }

    /// Replaces an entry's name, amount, currency and time (its appointment link stays).
    public func update(_ entry: BudgetRow, now: Date) throws -> BudgetRow {
        try update(id: entry.id ?? 0, now: now) { $0 = entry }
    }

    /// Reads the stored entry, lets `change` edit it and saves the result, in one transaction
    /// (its appointment link stays).
    public func update(id: Int64, now: Date, _ change: (inout BudgetRow) throws -> Void) throws -> BudgetRow {
        try writer.write { db in
            let old = try Self.fetchBudgetEntry(db, id: id)
            var entry = old
            try change(&entry)
            var record = BudgetEntryRecord(entry)
            record.id = id
            record.appointmentId = old.appointmentID
            record.createdAt = old.createdAt
            record.updatedAt = now
            try record.update(db)
            return record.row
        }
    }

    /// Deletes an entry and returns what it was.
    public func delete(id: Int64) throws -> BudgetRow {
        try writer.write { db in
            try BudgetEntryRecord.delete(db, id: id, kind: Self.entryKind).row
        }
    }

    /// Entries with `from <= at < to` (either bound optional), oldest first; equal times by id.
    public func entries(from: Date? = nil, to: Date? = nil) throws -> [BudgetRow] {
        try writer.read { db in
            try BudgetEntryRecord.filter(sql: Self.rangeSQL, arguments: Self.rangeArguments(from, to))
                .order(Column("at"), Column("id")).fetchAll(db).map(\.row)
        }
    }

    /// Income and expense sums per currency (by code) over `from <= at < to`.
    public func totals(from: Date? = nil, to: Date? = nil) throws -> [BudgetTotalsRow] {
        try writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT currency,
                           COALESCE(SUM(CASE WHEN amountCents > 0 THEN amountCents END), 0) AS income,
                           COALESCE(-SUM(CASE WHEN amountCents < 0 THEN amountCents END), 0) AS expense,
                           COUNT(*) AS count
                    FROM budgetEntry WHERE \(Self.rangeSQL) GROUP BY currency ORDER BY currency
                    """, arguments: Self.rangeArguments(from, to))
            return rows.map {
                BudgetTotalsRow(
                    currency: $0["currency"], incomeCents: $0["income"], expenseCents: $0["expense"], count: $0["count"]
                )
            }
        }
    }

    /// Records the price of a done appointment as an expense, once: a second call for the same
    /// appointment (the unique `appointmentId`) inserts nothing and returns nil.
    @discardableResult
    public func recordAppointmentExpense(appointmentID: Int64, name: String, price: Money, at: Date, now: Date) throws
        -> BudgetRow?
    {
        try writer.write { db in
            try Self.insertAppointmentExpense(
                db, appointmentID: appointmentID, name: name, price: price, at: at, now: now)
        }
    }

    /// The price of an appointment marked done at `now`, as an expense (once per appointment; nil
    /// without a price). A single visit's is dated at its start, even one marked done ahead (it is
    /// paid then); a series', at the moment it was marked done.
    static func recordExpense(_ db: Database, for appointment: Appointment, doneAt now: Date) throws -> BudgetRow? {
        guard let id = appointment.id, let price = appointment.price, price.cents > 0 else { return nil }
        let at = appointment.recurrence == nil ? appointment.start : now
        return try insertAppointmentExpense(
            db, appointmentID: id, name: appointment.title, price: price, at: at, now: now)
    }

    private static func insertAppointmentExpense(
        _ db: Database, appointmentID: Int64, name: String, price: Money,
        at: Date, now: Date
    ) throws -> BudgetRow? {
        try db.execute(
            sql: """
                INSERT INTO budgetEntry(name, amountCents, currency, at, appointmentId, createdAt, updatedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(appointmentId) DO NOTHING
                """, arguments: [name, -abs(price.cents), price.currency, at, appointmentID, now, now])
        guard db.changesCount > 0 else { return nil }
        return try fetchBudgetEntry(db, id: db.lastInsertedRowID)
    }

    /// The expense recorded for an appointment, if any.
    public func entry(appointmentID: Int64) throws -> BudgetRow? {
        try writer.read { db in
            try BudgetEntryRecord.filter(Column("appointmentId") == appointmentID).fetchOne(db)?.row
        }
    }

    private static let rangeSQL = "(? IS NULL OR at >= ?) AND (? IS NULL OR at < ?)"

    private static func rangeArguments(_ from: Date?, _ to: Date?) -> StatementArguments {
        [from, from, to, to]
    }

    private static func fetchBudgetEntry(_ db: Database, id: Int64) throws -> BudgetRow {
        try BudgetEntryRecord.fetch(db, id: id, kind: entryKind).row
    }
}
