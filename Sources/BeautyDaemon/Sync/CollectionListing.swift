import BeautyCalDAV
import Foundation

/// What changed in a collection since the last look, as `SyncEngine` (events) and `PhoneTaskEngine`
/// (dose tasks) ask it: sync-collection with the token (the whole collection when the server forgot
/// it), else the CTag and, when it moved, the ETag listing. Hrefs recorded and not listed in a whole
/// listing are removed.
struct CollectionListing {
    var changed: [CalDAVResourceTag] = []
    var removed: [String] = []
    /// The new sync token (nil: the CTag served, the recorded token stays).
    var token: String?
    /// The new CTag (nil: sync-collection served, the recorded CTag stays).
    var ctag: String?
    /// The server no longer knew the token: the whole collection was listed.
    var tokenForgotten = false
    /// The server refused sync-collection (with `fallBack`): the CTag served instead.
    var syncCollectionRefused = false

    /// `known`: the hrefs recorded for the collection. `fallBack`: a server that refuses
    /// sync-collection (400, 403, 405, 501) is asked for its CTag instead of failing the run.
    static func changes(
        of collection: URL, on server: any CalendarServer, token: String?, ctag: String?, syncCollection: Bool,
        known: [String], fallBack: Bool = false
    ) async throws -> CollectionListing {
        var listing = CollectionListing()
        if syncCollection {
            var answer: CalDAVChanges?
            var whole = token == nil
            do {
                answer = try await server.syncCollection(collection, token: token)
            } catch CalDAVError.syncTokenInvalid {
                listing.tokenForgotten = true
                whole = true
                answer = try await server.syncCollection(collection, token: nil)
            } catch CalDAVError.server(let status, _) where fallBack && [400, 403, 405, 501].contains(status) {
                listing.syncCollectionRefused = true
            }
            if let answer {
                listing.changed = answer.changed
                listing.removed = answer.removed
                if whole { listing.removed += unlisted(known, in: answer.changed) }
                listing.token = answer.token
                return listing
            }
        }
        let calendar = try await server.calendar(at: collection)
        if calendar.ctag == nil || calendar.ctag != ctag {
            listing.changed = try await server.etags(in: collection)
            listing.removed = unlisted(known, in: listing.changed)
        }
        listing.ctag = calendar.ctag
        return listing
    }

    private static func unlisted(_ known: [String], in tags: [CalDAVResourceTag]) -> [String] {
        let listed = Set(tags.map { SyncEngine.key($0.href) })
        return known.filter { !listed.contains(SyncEngine.key($0)) }
    }
}
