import BeautyCore
import GRDB

/// A restored file may carry schema objects beautyd never made (a trigger that deletes every
/// appointment at the next insert, a view, a table of its own) or beautyd's own ones changed. Only
/// beautyd's objects are kept, as a fresh migration to the file's schema step defines them.
enum RestoredSchema {
    private struct Object {
        let type: String
        let name: String
        let sql: String?

        var key: String { "\(type) \(name)" }
        var quotedName: String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        /// The text as SQLite keeps it, whitespace aside.
        var normalizedSQL: String { (sql ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ") }
    }

    /// Drops every object of `work` that is not beautyd's own and puts back its own indexes and
    /// triggers as they should be; a table that is missing or defined otherwise is refused (its rows
    /// cannot be trusted to fit). Answers what was left out, as "trigger evil", for the user.
    static func keepOwnObjects(
        _ work: DatabaseQueue, path: String, migratedUpTo last: String, migrator: DatabaseMigrator
    ) throws -> [String] {
        let reference = try DatabaseQueue()
        try migrator.migrate(reference, upTo: last)
        let own = try reference.read(objects)
        let ownByKey = Dictionary(own.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        return try work.write { db -> [String] in
            let present = try objects(db)
            let presentKeys = Set(present.map(\.key))
            for mine in own where mine.type == "table" && !presentKeys.contains(mine.key) {
                throw RestoreRefusal(
                    ValidationError(
                        field: "path", template: "%s lacks beautyd's table %s: nothing was restored", path, mine.name))
            }
            var leftOut: [String] = []
            var rebuilt: [Object] = []
            // Triggers and views first: dropping a table takes its triggers and indexes along.
            for object in present.sorted(by: { order($0.type) < order($1.type) }) {
                if let mine = ownByKey[object.key] {
                    if mine.normalizedSQL == object.normalizedSQL,
                        object.type != "trigger" || !SyncSchema.triggerNames.contains(object.name)
                    {
                        continue
                    }
                    guard object.type != "table" else {
                        throw RestoreRefusal(
                            ValidationError(
                                field: "path",
                                template: "%s defines beautyd's table %s otherwise: nothing was restored", path,
                                object.name))
                    }
                    rebuilt.append(mine)
                } else if !(object.type == "trigger" && SyncSchema.triggerNames.contains(object.name)) {
                    leftOut.append(object.key)
                }
                try db.execute(sql: "DROP \(object.type.uppercased()) IF EXISTS \(object.quotedName)")
            }
            // The outbox triggers are made again by SyncSchema from the accounts; any other own one as defined.
            for mine in own
            where mine.type != "table" && mine.sql != nil && !SyncSchema.triggerNames.contains(mine.name)
                && (!presentKeys.contains(mine.key) || rebuilt.contains(where: { $0.key == mine.key }))
            {
                try db.execute(sql: mine.sql!)
            }
            return leftOut
        }
    }

    private static func order(_ type: String) -> Int {
        ["trigger": 0, "view": 1, "index": 2, "table": 3][type] ?? 4
    }

    /// The schema's objects but SQLite's own (`sqlite_sequence`, automatic indexes, statistics).
    private static func objects(_ db: Database) throws -> [Object] {
        try Row.fetchAll(
            db, sql: "SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        )
        .map { Object(type: $0["type"], name: $0["name"], sql: $0["sql"]) }
    }
}
