import BeautyStore

/// Which server resource a UID belongs to during one pull. An account's appointment is stored by
/// its UID, so two resources of one calendar with one UID would make every sync fail on the
/// store's uniqueness. The first claim stands: a UID this calendar still has at another href, or
/// that an earlier resource of this pull took, is refused. (Other accounts' UIDs are theirs: the
/// store keeps each account's apart.)
struct UIDClaims {
    private var owner: [String: String]
    private let gone: Set<String>
    /// The hrefs refused, for `sync status`.
    private(set) var refused: [String] = []

    /// `known`: this account's resources; `gone`: their hrefs (unescaped) this pull removes.
    init(known: [SyncedResource], gone: Set<String>) {
        owner = Dictionary(known.map { ($0.uid, SyncEngine.key($0.href)) }) { first, _ in first }
        self.gone = gone
    }

    /// Whether the resource at `href` may be stored as the event `uid`.
    mutating func claim(_ uid: String, href: String) -> Bool {
        let key = SyncEngine.key(href)
        if let current = owner[uid], current != key, !gone.contains(current) {
            refused.append(href)
            return false
        }
        owner[uid] = key
        return true
    }
}
