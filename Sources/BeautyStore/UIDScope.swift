import GRDB

/// Whose appointment a UID names. A UID is unique within one sync account's appointments (and
/// within those no account has yet), not across accounts: two servers serving one UID hold two
/// events, and neither server's sync can reach the other's.
public enum UIDScope: Sendable, Equatable {
    /// A user's import, export or lookup: the appointment no account has yet, else the one of the
    /// account added first.
    case user
    /// One account's appointments, as its sync reads and writes them (nil: those no account has yet).
    case account(String?)

    /// The account a new appointment with an unknown UID goes to.
    var newAppointmentAccount: String? {
        if case let .account(name) = self { return name }
        return nil
    }
}

extension AppDatabase {
    /// The account whose appointment `uid` names in `scope` (nil: one no account has yet).
    func owner(_ db: Database, uid: String?, _ scope: UIDScope) throws -> String? {
        guard case .user = scope, let uid else { return scope.newAppointmentAccount }
        let candidates: [String?] = [nil] + (try Self.accountsInOrder(db)).map { $0 }
        for account in candidates
        where try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM appointment WHERE IFNULL(account, '') = ? AND uid = ?)
                """, arguments: [account ?? "", uid]) == true
        {
            return account
        }
        return nil
    }

    /// The order `.user` prefers accounts in: no account first, then the accounts as they were added.
    static func accountPreference(_ db: Database) throws -> [String: Int] {
        Dictionary(uniqueKeysWithValues: try accountsInOrder(db).enumerated().map { ($1, $0 + 1) })
    }

    private static func accountsInOrder(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT name FROM syncAccount ORDER BY createdAt, name")
    }
}
