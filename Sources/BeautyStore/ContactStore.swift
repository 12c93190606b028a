import BeautyCore
import Foundation
import GRDB

extension AppDatabase {
    public func addContact(_ contact: Contact) throws -> Contact {
        try writer.write { db in
            var record = ContactRecord(contact)
            record.id = nil
            try record.insert(db)
            return record.contact
        }
    }

    public func updateContact(_ contact: Contact) throws -> Contact {
        guard let id = contact.id else { throw StoreError.notFound(kind: "contact", id: 0) }
        return try writer.write { db in
            guard try ContactRecord.exists(db, key: id) else { throw StoreError.notFound(kind: "contact", id: id) }
            let record = ContactRecord(contact)
            try record.update(db)
            return record.contact
        }
    }

    /// Deletes a contact; appointments that pointed at it keep their data but lose the link.
    public func deleteContact(id: Int64) throws {
        try writer.write { db in
            guard try ContactRecord.deleteOne(db, key: id) else { throw StoreError.notFound(kind: "contact", id: id) }
        }
    }

    public func contact(id: Int64) throws -> Contact {
        try writer.read { db in
            guard let record = try ContactRecord.fetchOne(db, key: id) else {
                throw StoreError.notFound(kind: "contact", id: id)
            }
            return record.contact
        }
    }

    /// All contacts by name (case-insensitive), then id, so the order is stable.
    public func contacts() throws -> [Contact] {
        try writer.read { db in
            try ContactRecord.order(sql: "name COLLATE NOCASE, id").fetchAll(db).map(\.contact)
        }
    }
}
