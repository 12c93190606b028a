import GRDB

/// The two-level category tree the first migration fills (hair, hair/cut...), read-only.
public struct CategoryStore: Sendable {
    let writer: PrioritizedWriter

    /// The category tree's nodes, parents and children alike, by name.
    public func all() throws -> [CategoryRow] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT name, parent, title FROM category ORDER BY name").map {
                CategoryRow(name: $0["name"], parent: $0["parent"], title: $0["title"])
            }
        }
    }
}

/// A node of the two-level treatment category tree (`hair`, `hair/cut`).
public struct CategoryRow: Sendable, Equatable {
    public var name: String
    public var parent: String?
    public var title: String
}
