import Foundation

/// What one run of `PhoneTaskEngine` did, for the log, `sync now` and the tests.
public struct PhoneTaskReport: Sendable, Equatable {
    public var account: String
    /// Requests sent to the server (from `CalDAVStatistics`).
    public var requests = 0
    /// Whether the list was read (a poll), or only written to.
    public var polled = false
    /// Tasks whose new ETag was read (a phone's change, or the phone's deletion).
    public var read = 0
    public var created = 0
    /// Rewrites, desktop answers and missed closes written.
    public var written = 0
    public var deleted = 0
    public var putBack = 0
    /// Phone answers recorded on the desktop (ticks, cancels, deletions of due doses, revisions).
    public var answersApplied = 0
    /// Lines added to `sync status` (an answer that gave way, a task put back).
    public var reports = 0
    /// Writes the server refused because the task had changed meanwhile (re-read at once).
    public var preconditionFailures = 0
    /// The deletion guard held the poll back: dose sync is paused for the account.
    public var paused = false

    public init(account: String) { self.account = account }
}
