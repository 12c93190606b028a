import Foundation

/// How long before an instant its deliveries are committed: `commit_ahead_ms`, or twice the longest
/// of the last commits when that is more (up to `longest`). A commit ahead waits for a client's write in
/// progress and for its own fsync, and its pass may start late on a busy machine: under 4 clients
/// writing flat out, 10 of 176 commits made 5 ms ahead ended after their instant (up to 7.5 ms), and
/// that instant was shown late by as much. A quiet machine keeps the configured lead, and with it the
/// short window in which a crash counts a reminder as shown before its instant.
struct CommitLead {
    /// The configured lead (`commit_ahead_ms`).
    var configured: TimeInterval
    /// From the timer's deadline to the end of the commit (and the building of its notifications), for the
    /// last `remembered` commits.
    private(set) var recent: [TimeInterval] = []

    static let longest: TimeInterval = 0.1
    static let remembered = 32

    var lead: TimeInterval {
        guard configured > 0, let slowest = recent.max() else { return configured }
        return max(configured, min(2 * slowest, Self.longest))
    }

    /// A commit ahead that took `duration` from its timer's deadline to its end.
    mutating func record(_ duration: TimeInterval) {
        recent.append(min(max(duration, 0), Self.longest))
        if recent.count > Self.remembered { recent.removeFirst(recent.count - Self.remembered) }
    }
}
