import BeautyCore
import BeautyStore
import Foundation
import GRDB
import Testing

/// Real files, damaged the way disks and people damage them: what opening them does.
@Suite("Store: refusing empty, damaged and newer databases")
struct DatabaseOpeningTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Some pages of real rows, the database closed (and so checkpointed into the main file).
    func filledDatabase(_ temp: TemporaryDatabase, version: String? = nil) throws {
        let db = try AppDatabase.open(path: temp.path, version: version)
        for n in 0..<200 {
            _ = try db.contacts.add(
                Contact(name: "Client \(n) " + String(repeating: "x", count: 100), phone: "600 100 \(n)"))
        }
    }

    func refusal(_ body: () throws -> Void) -> DatabaseRefusal? {
        do {
            try body()
            return nil
        } catch let refusal as DatabaseRefusal {
            return refusal
        } catch {
            Issue.record("expected a DatabaseRefusal, got \(error)")
            return nil
        }
    }

    func size(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
    }

    @Test func anEmptyFileIsRefusedAndLeftAsItIs() throws {
        let temp = try TemporaryDatabase()
        defer { withExtendedLifetime(temp) {} }
        #expect(FileManager.default.createFile(atPath: temp.path, contents: Data()))
        let refused = try #require(refusal { _ = try temp.open() })
        #expect(refused.reason == .empty)
        #expect(refused.description.contains(temp.path) && refused.description.contains("empty file"))
        #expect(!refused.description.contains("\n"))
        #expect(size(temp.path) == 0)
        #expect(!FileManager.default.fileExists(atPath: temp.path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: temp.path + "-shm"))
    }

    @Test func aPageOfRandomBytesIsFoundAtOpenAndRefusedWithTheWayToRecover() throws {
        let temp = try TemporaryDatabase()
        defer { withExtendedLifetime(temp) {} }
        try filledDatabase(temp)
        let pages = try #require(size(temp.path)) / 4096
        // The last page holds contacts (written last): a page only quick_check reads, whatever the schema's size.
        try overwrite(temp.path, page: pages - 1)

        let refused = try #require(refusal { _ = try temp.open() })
        #expect(refused.reason == .damaged)
        let text = refused.description
        #expect(
            text.contains(temp.path) && text.contains("quick_check") && text.contains("beautyd --recover"), "\(text)")
        #expect(!text.contains("\n"))
    }

    @Test func aFileThatIsNoDatabaseAtAllIsRefusedAsDamaged() throws {
        let temp = try TemporaryDatabase()
        defer { withExtendedLifetime(temp) {} }
        try filledDatabase(temp)
        try overwrite(temp.path, page: 1)
        let refused = try #require(refusal { _ = try temp.open() })
        #expect(refused.reason == .damaged)
        #expect(refused.description.contains(temp.path) && refused.description.contains("beautyd --recover"))
        // A refused open takes nothing away and leaves no side files behind.
        #expect(!FileManager.default.fileExists(atPath: temp.path + "-shm"))
    }

    @Test func aSchemaMigratedByANewerBeautydIsRefusedNamingBothVersionsAndLeftUnchanged() throws {
        let temp = try TemporaryDatabase()
        defer { withExtendedLifetime(temp) {} }
        try filledDatabase(temp, version: "0.1.0")
        // What a newer beautyd leaves: a migration this one does not know, and its version.
        do {
            let newer = try DatabaseQueue(path: temp.path)
            try newer.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations(identifier) VALUES ('v8: reminders by e-mail')")
                try db.execute(sql: "UPDATE setting SET value = '0.3.0' WHERE key = 'beautydVersion'")
            }
        }
        let refused = try #require(refusal { _ = try AppDatabase.open(path: temp.path, version: "0.1.0") })
        #expect(refused.reason == .newerSchema)
        for part in [
            temp.path, "0.3.0", "v8: reminders by e-mail", "0.1.0",
            "v12-dose-tasks: doses on the phone as CalDAV tasks",
        ] {
            #expect(refused.description.contains(part), "\(part) missing from: \(refused.description)")
        }
        let stored = try DatabaseQueue(path: temp.path).read { db in
            try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'beautydVersion'")
        }
        #expect(stored == "0.3.0")
    }

    @Test func theVersionThatOpenedTheFileIsRecorded() throws {
        let temp = try TemporaryDatabase()
        defer { withExtendedLifetime(temp) {} }
        let db = try AppDatabase.open(path: temp.path, version: "0.1.0")
        let stored = try db.writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'beautydVersion'")
        }
        #expect(stored == "0.1.0")
    }

    @Test func aRowThatCannotBeReadIsDamageAndIsToldInOneShortLineWithoutItsContents() throws {
        let temp = try TemporaryDatabase()
        defer { withExtendedLifetime(temp) {} }
        let db = try temp.open()
        let notes = "private: " + String(repeating: "n", count: 10_000)
        var visit = Appointment(title: "Dermatologist", start: now.addingTimeInterval(86_400), durationSeconds: 1800)
        visit.notes = notes
        _ = try db.appointments.add(visit, now: now)
        try db.writer.write { db in try db.execute(sql: "UPDATE appointment SET start = 'not a date'") }

        #expect(throws: (any Error).self) { try db.appointments.list() }
        do {
            _ = try db.appointments.list()
        } catch {
            #expect(DatabaseFault(error) == .damaged)
            let summary = DatabaseFault.summary(of: error)
            #expect(summary.count <= 201 && !summary.contains("private") && !summary.contains("\n"), "\(summary)")
            #expect(summary.contains("cannot be read"))
        }
    }

    @Test func lockedAndFullAreTheirOwnFaults() {
        #expect(DatabaseFault(DatabaseError(resultCode: .SQLITE_BUSY)) == .locked)
        #expect(DatabaseFault(DatabaseError(resultCode: .SQLITE_FULL)) == .full)
        #expect(DatabaseFault(DatabaseError(resultCode: .SQLITE_CORRUPT)) == .damaged)
        #expect(DatabaseFault(DatabaseError(resultCode: .SQLITE_CONSTRAINT)) == nil)
        let long = DatabaseError(
            resultCode: .SQLITE_BUSY, message: "database is locked",
            sql: "SELECT " + String(repeating: "x, ", count: 5000))
        #expect(DatabaseFault.summary(of: long) == "SQLite error 5: database is locked")
    }

    /// Random bytes (the same every run) over one page of 4096 bytes, counted from 1.
    func overwrite(_ path: String, page: Int) throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let bytes = (0..<4096).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64((page - 1) * 4096))
        try handle.write(contentsOf: bytes)
    }
}

@Suite("Store: recovering what is readable of a damaged database")
struct DatabaseRecoveryTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// 200 contacts, each with an appointment; the database closed (and so checkpointed into the main file).
    func contactsWithAppointments(_ temp: TemporaryDatabase) throws {
        let db = try temp.open()
        let ids = try (0..<200).map { n in
            try db.contacts.add(
                Contact(name: "Client \(n) " + String(repeating: "x", count: 100), phone: "600 100 \(n)")
            )
            .id!
        }
        for id in ids {
            _ = try db.appointments.add(
                Appointment(
                    title: "Visit \(id)", start: now.addingTimeInterval(86_400), durationSeconds: 1800,
                    contactID: id), now: now)
        }
    }

    /// The contact table's leaf pages in rowid order (dbstat's paths sort as the tree does).
    func contactLeaves(_ temp: TemporaryDatabase) throws -> [Int] {
        try DatabaseQueue(path: temp.path).read { db in
            try Int.fetchAll(
                db, sql: "SELECT pageno FROM dbstat WHERE name = 'contact' AND pagetype = 'leaf' ORDER BY path")
        }
    }

    /// Fills `temp`, damages the contact leaf page `pick` chooses (given the leaves in rowid order), recovers it,
    /// and checks what one damaged contact page must leave: the contacts of the other pages, every appointment
    /// (those of lost contacts without the link), nothing dropped. Returns the recovered contacts' names.
    func recoverContacts(_ temp: TemporaryDatabase, damaging pick: ([Int]) -> Int) throws -> [String] {
        try contactsWithAppointments(temp)
        let leaves = try contactLeaves(temp)
        try #require(leaves.count >= 3)
        try DatabaseOpeningTests().overwrite(temp.path, page: pick(leaves))

        let target = temp.directory.appendingPathComponent("recovered.sqlite").path
        let report = try DatabaseRecovery.copyReadable(from: temp.path, to: target)
        let contacts = try #require(report.tables.first { $0.name == "contact" })
        #expect(contacts.damaged)
        let appointmentTable = try #require(report.tables.first { $0.name == "appointment" })
        #expect(appointmentTable.copied == 200 && !appointmentTable.damaged)

        let recovered = try AppDatabase.open(path: target)
        let names = try recovered.contacts.all().map(\.name)
        #expect(names.count == contacts.copied)
        // One page of about 30 rows is lost.
        #expect(names.count < 200 && names.count > 150, "\(names.count) contacts recovered")
        // Every appointment survives; those of lost contacts lose only the link (ON DELETE SET NULL).
        let appointments = try recovered.appointments.list()
        #expect(appointments.count == 200)
        #expect(appointments.filter { $0.contactID == nil }.count == 200 - names.count)
        #expect(report.orphansDropped == 0)
        return names
    }

    @Test func everyReadableRowIsCopiedPastADamagedPageAndLinksToLostRowsAreCleared() throws {
        let temp = try TemporaryDatabase()
        defer { withExtendedLifetime(temp) {} }
        let names = try recoverContacts(temp) { leaves in leaves[leaves.count / 2] }
        // The rows on both sides of the damaged page are there.
        #expect(names.contains { $0.hasPrefix("Client 0 ") } && names.contains { $0.hasPrefix("Client 199 ") })
    }

    @Test func everyRowPastADamagedFirstPageIsCopied() throws {
        let temp = try TemporaryDatabase()
        defer { withExtendedLifetime(temp) {} }
        let names = try recoverContacts(temp) { leaves in leaves[0] }
        #expect(!names.contains { $0.hasPrefix("Client 0 ") } && names.contains { $0.hasPrefix("Client 199 ") })
    }
}
