import BeautyStore

/// Which server resource a UID belongs to during one pull. An appointment is stored by UID, so two
/// resources with one UID (in this calendar, or this one and another account's) would make every
/// sync fail on the store's uniqueness, or let one account's server overwrite and then delete
/// another's event. The first claim stands: a UID another account has, or that this calendar
/// still has at another href, or that an earlier resource of this pull took, is refused.
struct UIDClaims {
    private var owner: [String: String]
    private let gone: Set<String>
    private let otherAccounts: Set<String>
    /// The hrefs refused, for `sync status`.
    private(set) var refused: [String] = []

    /// `known`: this account's resources; `gone`: their hrefs (unescaped) this pull removes.
    init(known: [SyncedResource], gone: Set<String>, otherAccounts: Set<String>) {
        owner = Dictionary(known.map { ($0.uid, SyncEngine.key($0.href)) }) { first, _ in first }
        self.gone = gone
        self.otherAccounts = otherAccounts
    }

    /// Whether the resource at `href` may be stored as the event `uid`.
    mutating func claim(_ uid: String, href: String) -> Bool {
        let key = SyncEngine.key(href)
        if otherAccounts.contains(uid) {
            refused.append(href)
            return false
        }
        if let current = owner[uid], current != key, !gone.contains(current) {
            refused.append(href)
            return false
        }
        owner[uid] = key
        return true
    }
}
