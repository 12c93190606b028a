import GRDB

/// A table's row by its id, for the stores whose items the user names by id (budget entries, water records).
extension FetchableRecord where Self: TableRecord {
    /// The row whose primary key is `id`; `StoreError.notFound` naming `kind` when there is none.
    static func fetch(_ db: Database, id: Int64, kind: String) throws -> Self {
        guard let record = try fetchOne(db, key: id) else { throw StoreError.notFound(kind: kind, id: id) }
        return record
    }

    /// Deletes the row whose primary key is `id` and answers it as it was (`StoreError.notFound` when there is none).
    static func delete(_ db: Database, id: Int64, kind: String) throws -> Self {
        let old = try fetch(db, id: id, kind: kind)
        _ = try deleteOne(db, key: id)
        return old
    }
}
