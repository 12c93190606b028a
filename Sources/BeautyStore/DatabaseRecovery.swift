import Foundation
import GRDB

/// Copies what is still readable of a damaged database into a new one with the current schema.
///
/// Rows are read in rowid order, a batch at a time; where a damaged page stops the read, the copy
/// looks for the first rowid it can read again past it and goes on from there. Indexes are not read
/// at all (the new file builds its own), so damage confined to an index loses nothing. (Debian's
/// SQLite lacks the sqlite_dbpage table that `sqlite3 .recover` needs, so that cannot be relied on.)
public enum DatabaseRecovery {
    public struct Table: Sendable, Equatable {
        public var name: String
        public var copied: Int
        /// Whether reading it hit damage: rows on the damaged pages are lost.
        public var damaged: Bool
    }

    public struct Report: Sendable {
        public var tables: [Table]
        /// Rows dropped after the copy because what they belong to was lost (a dose of a lost medication…).
        public var orphansDropped: Int
    }

    /// Recovers `damaged` into a new file at `target` (which must not exist).
    public static func copyReadable(from damaged: String, to target: String) throws -> Report {
        var readOnly = Configuration()
        readOnly.readonly = true
        let source = try DatabaseQueue(path: damaged, configuration: readOnly)
        let fresh = try AppDatabase.open(path: target)
        var report = Report(tables: [], orphansDropped: 0)
        try fresh.writer.database.writeWithoutTransaction { db in
            // Rows go in as they come; relations are checked once everything is in.
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.inTransaction {
                let tables = try String.fetchAll(
                    db,
                    sql: """
                        SELECT name FROM sqlite_master WHERE type = 'table'
                        AND name NOT LIKE 'sqlite_%' AND name <> 'grdb_migrations' ORDER BY rootpage
                        """)
                for table in tables {
                    report.tables.append(try source.inDatabase { try copy(table, from: $0, to: db) })
                }
                return .commit
            }
            try db.execute(sql: "PRAGMA foreign_keys = ON")
            report.orphansDropped = try dropOrphans(db)
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        return report
    }

    private static func copy(_ table: String, from source: Database, to target: Database) throws -> Table {
        let wanted = try target.columns(in: table).map(\.name)
        guard let exists = try? source.tableExists(table) else { return Table(name: table, copied: 0, damaged: true) }
        guard exists else { return Table(name: table, copied: 0, damaged: false) }  // an older schema
        guard let present = try? source.columns(in: table).map(\.name) else {
            return Table(name: table, copied: 0, damaged: true)
        }
        let columns = wanted.filter(present.contains)
        let quoted = columns.map { $0.quotedDatabaseIdentifier }.joined(separator: ", ")
        let select =
            "SELECT rowid AS recoveredRowID, \(quoted) FROM \(table.quotedDatabaseIdentifier) WHERE rowid > ? ORDER BY rowid LIMIT ?"
        let insert = try target.makeStatement(
            sql: """
                INSERT OR REPLACE INTO \(table.quotedDatabaseIdentifier)(\(quoted)) \
                VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))
                """)
        var result = Table(name: table, copied: 0, damaged: false)
        var after = Int64.min
        var batch = 500
        while true {
            let rows: [Row]
            do {
                rows = try Row.fetchAll(source, sql: select, arguments: [after, batch])
            } catch  where batch > 1 {
                batch = 1  // read row by row up to the damage
                continue
            } catch {
                result.damaged = true
                let resume = firstReadableRowID(past: after) { start in
                    try Row.fetchOne(source, sql: select, arguments: [start - 1, 1])?["recoveredRowID"]
                }
                guard let resume else { break }
                // The row right after `after` just failed to read, so a resume there skips it.
                after = max(resume - 1, after + 1)
                batch = 500
                continue
            }
            guard let last = rows.last else { break }
            for row in rows {
                try insert.execute(arguments: StatementArguments(columns.map { row[$0] as DatabaseValue }))
            }
            result.copied += rows.count
            after = last["recoveredRowID"]
        }
        return result
    }

    /// The smallest rowid past `after` where reading starts to work again: step out in doubling
    /// strides until `read` (the first rowid from a start on, or nil past the last) succeeds, then narrow
    /// down to the edge of the damaged stretch. SQLite hands out rowids from 1 up, so the strides start at
    /// 0 at the earliest: from the bottom of the range (the copy's first read) they would stay negative,
    /// every one of them landing on the same damaged first page.
    private static func firstReadableRowID(past after: Int64, _ read: (Int64) throws -> Int64?) -> Int64? {
        func readable(from start: Int64) -> Int64?? {
            do {
                return .some(try read(start))
            } catch {
                return .none
            }
        }
        let after = max(after, 0)
        var failing = after
        var stride: Int64 = 1
        var found: (start: Int64, rowID: Int64?)?
        while found == nil {
            let (start, overflow) = after.addingReportingOverflow(stride)
            if overflow { return nil }
            if let answer = readable(from: start) { found = (start, answer) } else { failing = start }
            let (next, tooBig) = stride.multipliedReportingOverflow(by: 2)
            if tooBig { return nil }
            stride = next
        }
        var good = found!.start
        var first = found!.rowID
        while good > failing &+ 1 {
            let middle = failing / 2 + good / 2 + (failing % 2 + good % 2) / 2
            if let answer = readable(from: middle) { good = middle; first = answer } else { failing = middle }
        }
        return first
    }

    /// Rows whose parent row was lost, as PRAGMA foreign_key_check lists them, are treated as if the
    /// parent had been deleted: the link is cleared where the schema says ON DELETE SET NULL (an
    /// appointment keeps its time without its contact), the row is deleted otherwise (a dose of a lost
    /// medication). Returns how many rows were deleted.
    private static func dropOrphans(_ db: Database) throws -> Int {
        var dropped = 0
        while true {
            let orphans = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
            guard !orphans.isEmpty else { return dropped }
            for orphan in orphans {
                let table: String = orphan[0]
                guard let rowID: Int64 = orphan[1] else { continue }
                let key: Int = orphan[3]
                let links = try Row.fetchAll(
                    db, sql: "SELECT \"from\", on_delete FROM pragma_foreign_key_list(?) WHERE id = ?",
                    arguments: [table, key])
                if !links.isEmpty, links.allSatisfy({ ($0[1] as String) == "SET NULL" }) {
                    let columns = links.map { "\(($0[0] as String).quotedDatabaseIdentifier) = NULL" }.joined(
                        separator: ", ")
                    try db.execute(
                        sql: "UPDATE \(table.quotedDatabaseIdentifier) SET \(columns) WHERE rowid = ?",
                        arguments: [rowID])
                } else {
                    try db.execute(
                        sql: "DELETE FROM \(table.quotedDatabaseIdentifier) WHERE rowid = ?", arguments: [rowID])
                    dropped += 1
                }
            }
        }
    }
}
