import Foundation

/// `backup` and `restore`: `path` is an absolute file name, read or written by the daemon (same user).
public struct BackupParams: Codable, Sendable {
    public var path: String
    public init(path: String) { self.path = path }
}

public struct BackupResult: Codable, Sendable {
    public var path: String
    public var bytes: Int64
    /// The last schema step of the copy.
    public var schema: String
    public init(path: String, bytes: Int64, schema: String) {
        self.path = path
        self.bytes = bytes
        self.schema = schema
    }
}

/// A sync account a restore brought: where it would sync, with which password file.
public struct RestoredSyncAccount: Codable, Sendable, Equatable {
    public var name: String
    public var calendarURL: String
    public var user: String
    public var passwordFile: String?
    public init(name: String, calendarURL: String, user: String, passwordFile: String?) {
        self.name = name
        self.calendarURL = calendarURL
        self.user = user
        self.passwordFile = passwordFile
    }
}

public struct RestoreResult: Codable, Sendable {
    public var path: String
    /// Where the database as it was before the restore is kept.
    public var kept: String
    /// The restored file's last schema step (before it was brought up to date).
    public var restoredSchema: String
    /// Reminders already shown before the restore that stay recorded as shown.
    public var deliveriesKept: Int
    /// The sync accounts the restored file brought, each paused until `sync now NAME`.
    public var syncAccounts: [RestoredSyncAccount] = []
    /// Schema objects of the file that are not beautyd's own, left out ("trigger evil").
    public var leftOut: [String] = []
    public init(path: String, kept: String, restoredSchema: String, deliveriesKept: Int) {
        self.path = path
        self.kept = kept
        self.restoredSchema = restoredSchema
        self.deliveriesKept = deliveriesKept
    }
}

public enum BackupRPC {
    public static let backup = RPC<BackupParams, BackupResult>("backup")
    public static let restore = RPC<BackupParams, RestoreResult>("restore")

    static let methods = [backup.method, restore.method]
}
