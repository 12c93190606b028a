import BeautyCore
import BeautyStore
import Foundation
import GRDB
import Testing

/// A read of most of the table skips the start index and sorts in Swift; it must give the rows, in
/// the order, that SQLite's `ORDER BY start, title COLLATE NOCASE, id` gives.
@Suite struct WideReadTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func filled() throws -> AppDatabase {
        let db = try AppDatabase.inMemory()
        // Few starts and titles that differ by case, by bytes between 'Z' and 'a', by non-ASCII case.
        let titles = ["brows", "Brows", "BROWS a", "Brows!", "ąb", "Ąb", "zz", "Zz", "a", "[x]", "_y", "Brows"]
        let appointments = (0..<3000).map { n in
            Appointment(
                title: titles[n % titles.count],
                start: now.addingTimeInterval(Double(n % 7) * 3600 + (n % 3 == 0 ? 86_400 * 400 : 0)),
                durationSeconds: 1800)
        }
        _ = try db.appointments.importAll(appointments, now: now, zone: TimeZone(identifier: "UTC")!)
        return db
    }

    func sqlOrder(_ db: AppDatabase, where condition: String = "1", _ arguments: StatementArguments = []) throws
        -> [Int64]
    {
        try db.writer.read {
            try Int64.fetchAll(
                $0, sql: "SELECT id FROM appointment WHERE \(condition) ORDER BY start, title COLLATE NOCASE, id",
                arguments: arguments)
        }
    }

    @Test("every appointment, and a range holding most of them, come in SQLite's NOCASE order")
    func wideReadsInSQLiteOrder() throws {
        let db = try filled()
        #expect(try db.appointments.list().map(\.id!) == (try sqlOrder(db)))
        let to = now.addingTimeInterval(86_400 * 399)
        #expect(
            try db.appointments.list(from: now, to: to).map(\.id!)
                == (try sqlOrder(db, where: "start >= ? AND start < ?", [now, to])))
        // A narrow range goes through the index and SQLite's ORDER BY.
        let later = now.addingTimeInterval(86_400 * 400)
        #expect(
            try db.appointments.list(from: later, to: later.addingTimeInterval(3600)).map(\.id!)
                == (try sqlOrder(db, where: "start >= ? AND start < ?", [later, later.addingTimeInterval(3600)])))
    }

    @Test("the agenda's unordered read has the same appointments as the ordered one")
    func unorderedRangeHasTheSameRows() throws {
        let db = try filled()
        let to = now.addingTimeInterval(86_400 * 500)
        let ordered = try db.appointments.forRange(from: now, to: to)
        let unordered = try db.appointments.forRange(from: now, to: to, ordered: false)
        #expect(ordered.count == 3000)
        #expect(Set(unordered.map(\.id!)) == Set(ordered.map(\.id!)) && unordered.count == ordered.count)
    }
}
