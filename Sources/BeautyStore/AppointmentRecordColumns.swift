import BeautyCore
import Foundation
import GRDB

/// AppointmentRecord's columns written and read one by one rather than through Codable: imports,
/// exports and full-range agendas move every row, and GRDB's Codable bridge costs several times the
/// SQLite work. The stored values are the ones the Codable bridge stores (dates as GRDB dates, the
/// recurrence as GRDB's JSON of it); the store's tests read back what they write.
extension AppointmentRecord {
    func encode(to container: inout PersistenceContainer) throws {
        for (column, value) in zip(Self.columns, try databaseValues()) { container[column] = value }
    }

    /// The stored values, in the order of `columns`.
    func databaseValues() throws -> [DatabaseValue] {
        [
            id.databaseValue,
            title.databaseValue,
            StoredDate.databaseValue(start),
            durationSeconds.databaseValue,
            allDay.databaseValue,
            address.databaseValue,
            notes.databaseValue,
            contactId.databaseValue,
            category.databaseValue,
            color.databaseValue,
            priceCents.databaseValue,
            currency.databaseValue,
            status.databaseValue,
            timeZone.databaseValue,
            try recurrence.map {
                String(decoding: try Self.databaseJSONEncoder(for: "recurrence").encode($0), as: UTF8.self)
            }.databaseValue,
            repeatAfterDoneSeconds.databaseValue,
            uid.databaseValue,
            seriesId.databaseValue,
            StoredDate.databaseValue(recurrenceId),
            try tags.map(Self.jsonText).databaseValue,
            try extraProperties.map(Self.jsonText).databaseValue,
            StoredDate.databaseValue(plannedUntil),
            StoredDate.databaseValue(createdAt),
            StoredDate.databaseValue(updatedAt),
        ]
    }

    /// `insert` through one cached statement: GRDB's builds its INSERT and a persistence container
    /// for every record, a tenth of the daemon's time in a large import.
    /// `account`: the sync account whose UID it is (nil: none yet); the record itself leaves it alone.
    mutating func insertRow(_ db: Database, account: String? = nil) throws {
        let statement = try db.cachedStatement(sql: Self.insertSQL)
        statement.setUncheckedArguments(StatementArguments(try databaseValues() + [account.databaseValue]))
        try statement.execute()
        id = db.lastInsertedRowID
    }

    private static let insertSQL =
        "INSERT INTO appointment (\(columnList), account) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")), ?)"

    /// Every column, in the order `init(row:)` reads them. The record is fetched only through GRDB
    /// requests, which select `databaseSelection`, so each row has them at these indexes: reading by
    /// index spares a case-insensitive name lookup per column and row (a tenth of a full-range agenda).
    static let columns = [
        "id", "title", "start", "durationSeconds", "allDay", "address", "notes", "contactId", "category",
        "color", "priceCents", "currency", "status", "timeZone", "recurrence", "repeatAfterDoneSeconds",
        "uid", "seriesId", "recurrenceId", "tags", "extraProperties", "plannedUntil", "createdAt", "updatedAt",
    ]

    static var databaseSelection: [any SQLSelectable] { columns.map { Column($0) } }

    /// `columns` for a SELECT written as SQL, which must name them in this order too.
    static let columnList = columns.joined(separator: ", ")

    init(row: Row) throws {
        assert(
            Array(row.columnNames) == Self.columns,
            "an appointment row not selected by databaseSelection: \(Array(row.columnNames))")
        id = try row.decode(atIndex: 0)
        title = try row.decode(atIndex: 1)
        start = try Self.storedDate(row, 2)
        durationSeconds = try row.decode(atIndex: 3)
        allDay = try row.decode(atIndex: 4)
        address = try row.decode(atIndex: 5)
        notes = try row.decode(atIndex: 6)
        contactId = try row.decode(atIndex: 7)
        category = try row.decode(atIndex: 8)
        color = try row.decode(atIndex: 9)
        priceCents = try row.decode(atIndex: 10)
        currency = try row.decode(atIndex: 11)
        status = try row.decode(atIndex: 12)
        timeZone = try row.decode(atIndex: 13)
        if let json: String = try row.decode(atIndex: 14) {
            recurrence = try Self.databaseJSONDecoder(for: "recurrence").decode(
                AppointmentRecurrence.self, from: Data(json.utf8))
        } else {
            recurrence = nil
        }
        repeatAfterDoneSeconds = try row.decode(atIndex: 15)
        uid = try row.decode(atIndex: 16)
        seriesId = try row.decode(atIndex: 17)
        recurrenceId = try Self.storedDateIfAny(row, 18)
        tags = try Self.stringList(row, 19)
        extraProperties = try Self.stringList(row, 20)
        plannedUntil = try Self.storedDateIfAny(row, 21)
        createdAt = try Self.storedDate(row, 22)
        updatedAt = try Self.storedDate(row, 23)
    }

    private static func jsonText(_ list: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(list), as: UTF8.self)
    }

    /// A date column read by `StoredDate` when it holds the text GRDB writes, else by GRDB.
    private static func storedDate(_ row: Row, _ index: Int) throws -> Date {
        if let text = try? row.decode(String?.self, atIndex: index), let date = StoredDate.date(text) { return date }
        return try row.decode(atIndex: index)
    }

    private static func storedDateIfAny(_ row: Row, _ index: Int) throws -> Date? {
        if row.hasNull(atIndex: index) { return nil }
        return try storedDate(row, index)
    }

    private static func stringList(_ row: Row, _ index: Int) throws -> [String]? {
        guard let json: String = try row.decode(atIndex: index) else { return nil }
        return try JSONDecoder().decode([String].self, from: Data(json.utf8))
    }
}
