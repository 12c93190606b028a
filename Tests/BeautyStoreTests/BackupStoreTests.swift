import BeautyCore
import BeautyStore
import Foundation
import Testing

/// `database.backup`: a copy of the whole file while it is open, and putting one back in place.
@Suite("Store: backup and restore through database.backup")
struct BackupStoreTests {
    @Test func aCopyPutBackRestoresItsRowsAndKeepsTheReplacedDatabase() throws {
        let temp = try TemporaryDatabase()
        let db = try temp.open()
        _ = try db.contacts.add(Contact(name: "Salon Anna", phone: "600 100 200"))
        let copy = temp.directory.appendingPathComponent("copy.sqlite").path
        let bytes = try db.backup.copy(to: copy)
        let size = try FileManager.default.attributesOfItem(atPath: copy)[.size] as? Int64
        #expect(bytes > 0 && bytes == size)

        _ = try db.contacts.add(Contact(name: "Spa Ewa", phone: "600 100 300"))
        let kept = temp.path + ".before-restore"
        let outcome = try db.backup.restore(from: copy, keepingOldAt: kept)

        #expect(outcome.kept == kept && outcome.leftOut.isEmpty && outcome.syncAccounts.isEmpty)
        #expect(outcome.restoredSchema == (try db.appliedMigrations().last))
        #expect(try db.contacts.all().map(\.name) == ["Salon Anna"])
        let replaced = try AppDatabase.open(path: kept)
        #expect(try replaced.contacts.all().map(\.name) == ["Salon Anna", "Spa Ewa"])
    }

    @Test func aFileThatIsNoDatabaseIsRefusedAndNothingChanges() throws {
        let temp = try TemporaryDatabase()
        let db = try temp.open()
        _ = try db.contacts.add(Contact(name: "Salon Anna", phone: "600 100 200"))
        let junk = temp.directory.appendingPathComponent("junk.sqlite").path
        #expect(FileManager.default.createFile(atPath: junk, contents: Data("not a database".utf8)))
        #expect(throws: RestoreRefusal.self) {
            _ = try db.backup.restore(from: junk, keepingOldAt: temp.path + ".before-restore")
        }
        #expect(try db.contacts.all().map(\.name) == ["Salon Anna"])
    }
}
