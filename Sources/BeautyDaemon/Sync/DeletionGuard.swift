/// Whether a pull's deletions look like a server that lost or hid its data rather than a user who
/// deleted events: then they are held back until the user says so (as vdirsyncer refuses to delete
/// everything when one side turns up empty).
enum DeletionGuard {
    /// `[sync] max_deletion_share`'s default.
    static let defaultShare = 0.5
    /// Up to this many deletions in one pull always go through (unless they are all there is).
    static let alwaysAllowed = 5

    /// Held back: every appointment of the account (when it has two or more), or more than
    /// `alwaysAllowed` that are also more than `share` of them.
    static func holdsBack(removing removed: Int, of known: Int, share: Double) -> Bool {
        guard removed > 0 else { return false }
        if removed >= known, known >= 2 { return true }
        return removed > alwaysAllowed && Double(removed) > share * Double(known)
    }
}
