import BeautyCore
import GRDB

/// A database failure that is not a bug: someone else holds a lock, the disk is full, or the file is
/// damaged. Each has its own cure, so callers tell people which one it is.
public enum DatabaseFault: String, Equatable, Sendable {
    case locked, full, damaged

    /// The fault behind `error`, nil for any other error.
    public init?(_ error: any Error) {
        // A stored value that cannot be read back (text where a date belongs…) is damage too.
        if error is RowDecodingError {
            self = .damaged
            return
        }
        guard let error = error as? DatabaseError else { return nil }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: self = .locked
        case .SQLITE_FULL: self = .full
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: self = .damaged
        default: return nil
        }
    }

    /// What people are told, e.g. "the database /x/beautyd.sqlite is locked by another program".
    public func explanation(path: String) -> String { explanationText(path: path).english }

    /// `explanation` as a template, for a client to show in its user's language.
    public func explanationText(path: String) -> TranslatableText {
        switch self {
        case .locked: TranslatableText("the database %s is locked by another program", [.plain(path)])
        case .full: TranslatableText("the disk holding %s is full", [.plain(path)])
        case .damaged: TranslatableText("the database %s is damaged", [.plain(path)])
        }
    }

    /// SQLite's own words, on one short line: never the SQL or the row (which may be kilobytes of a
    /// user's notes).
    public static func summary(of error: any Error, limit: Int = 200) -> String {
        let text: String
        if let error = error as? DatabaseError {
            text = "SQLite error \(error.resultCode.rawValue): \(error.message ?? "no message")"
        } else if error is RowDecodingError {
            // "could not decode Date from database value … - column: …, row: [every column]"
            text = "a stored row cannot be read: " + ("\(error)".components(separatedBy: " - ").first ?? "")
        } else {
            text = "\(error)"
        }
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return line.count > limit ? String(line.prefix(limit)) + "…" : line
    }
}
