import Foundation
import GRDB

/// Small key/value switches kept in the database (notifications on/off, the zone planned in, water settings).
extension AppDatabase {
    public func setting(_ key: String) throws -> String? {
        try writer.read { db in try Self.setting(db, key) }
    }

    static func setting(_ db: Database, _ key: String) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM setting WHERE key = ?"), arguments: [key])
    }

    public func setSetting(_ key: String, _ value: String) throws {
        try writer.write { db in try Self.setSetting(db, key, value) }
    }

    static func setSetting(_ db: Database, _ key: String, _ value: String) throws {
        try db.execute(
            sql: "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            arguments: [key, value])
    }
}
