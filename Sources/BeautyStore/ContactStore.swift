import BeautyCore
import Foundation
import GRDB

/// Contacts: who an appointment is with, as typed, imported from vCards and exported to them.
public struct ContactStore: Sendable {
    let writer: PrioritizedWriter

    public func add(_ contact: Contact) throws -> Contact {
        try writer.write { db in
            var record = ContactRecord(contact)
            record.id = nil
            try record.insert(db)
            return record.contact
        }
    }

    public func update(_ contact: Contact) throws -> Contact {
        guard let id = contact.id else { throw StoreError.notFound(kind: "contact", id: 0) }
        return try writer.write { db in
            guard try ContactRecord.exists(db, key: id) else { throw StoreError.notFound(kind: "contact", id: id) }
            let record = ContactRecord(contact)
            try record.update(db)
            return record.contact
        }
    }

    /// Deletes a contact; appointments that pointed at it keep their data but lose the link.
    public func delete(id: Int64) throws {
        try writer.write { db in
            guard try ContactRecord.deleteOne(db, key: id) else { throw StoreError.notFound(kind: "contact", id: id) }
        }
    }

    /// How many appointments (series and their changed occurrences each count) link to the contact.
    public func appointmentCount(of contactID: Int64) throws -> Int {
        try writer.read { db in try AppointmentRecord.filter(Column("contactId") == contactID).fetchCount(db) }
    }

    public func contact(id: Int64) throws -> Contact {
        try writer.read { db in
            guard let record = try ContactRecord.fetchOne(db, key: id) else {
                throw StoreError.notFound(kind: "contact", id: id)
            }
            return record.contact
        }
    }

    public func count() throws -> Int {
        try writer.read { db in try ContactRecord.fetchCount(db) }
    }

    /// All contacts by name (case-insensitive), then id, so the order is stable.
    public func all() throws -> [Contact] {
        try writer.read { db in
            try ContactRecord.order(sql: "name COLLATE NOCASE, id").fetchAll(db).map(\.contact)
        }
    }
}

extension ContactStore {
    /// Gives every contact without a UID a random, permanent `urn:uuid:` one, so that an export
    /// names each contact the same way every time and an import of it finds the contact again.
    public func assignMissingUIDs() throws {
        try writer.write { db in
            for id in try Int64.fetchAll(db, sql: "SELECT id FROM contact WHERE uid IS NULL") {
                try db.execute(
                    sql: "UPDATE contact SET uid = ? WHERE id = ?",
                    arguments: ["urn:uuid:\(UUID().uuidString.lowercased())", id])
            }
        }
    }

    /// Inserts or updates contacts in one transaction: all or nothing. A contact is matched by its
    /// UID, else by name (any case) when the stored one has no other UID; fields the incoming
    /// contact lacks keep their stored values, so importing the same file again changes nothing.
    public func `import`(_ incoming: [Contact]) throws -> ContactImportCounts {
        var counts = ContactImportCounts()
        try writer.write { db in
            for contact in incoming {
                var match = try contact.uid.flatMap { try ContactRecord.filter(Column("uid") == $0).fetchOne(db) }
                if match == nil {
                    // SQLite's NOCASE folds ASCII only: "ŁUCJA" must find "Łucja" too.
                    match = try ContactRecord.filter(
                        sql: "name = ? COLLATE swiftCaseInsensitiveCompare", arguments: [contact.name]
                    ).order(Column("id"))
                        .fetchAll(db).first { $0.uid == nil || contact.uid == nil }
                }
                guard let old = match else {
                    var record = ContactRecord(contact)
                    record.id = nil
                    try record.insert(db)
                    counts.inserted += 1
                    continue
                }
                var merged = ContactRecord(contact)
                merged.id = old.id
                merged.email = contact.email ?? old.email
                merged.firstName = contact.firstName ?? old.firstName
                merged.lastName = contact.lastName ?? old.lastName
                merged.address = contact.address ?? old.address
                merged.uid = contact.uid ?? old.uid
                merged.language = contact.language?.rawValue ?? old.language
                if merged.contact == old.contact {
                    counts.unchanged += 1
                } else {
                    try merged.update(db)
                    counts.updated += 1
                }
            }
        }
        return counts
    }
}

/// What a contact import did.
public struct ContactImportCounts: Sendable, Equatable {
    public var inserted: Int
    public var updated: Int
    public var unchanged: Int

    public init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
    }
}
