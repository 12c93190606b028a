import Foundation

/// A calendar collection on a CalDAV server, with what the sync engine needs to decide how to sync it:
/// `syncToken` and `supportsSyncCollection` for RFC 6578, `ctag` for the ETag-listing fallback.
public struct CalDAVCalendar: Sendable, Codable, Equatable {
    public var url: URL
    public var displayName: String?
    public var ctag: String?
    public var syncToken: String?
    public var supportsSyncCollection: Bool
    /// Whether the calendar takes VEVENTs (a calendar that names no component set takes all).
    public var supportsEvents: Bool
    /// Whether it takes VTODOs, tasks (likewise).
    public var supportsTodos: Bool

    public init(
        url: URL, displayName: String? = nil, ctag: String? = nil, syncToken: String? = nil,
        supportsSyncCollection: Bool, supportsEvents: Bool, supportsTodos: Bool = true
    ) {
        self.url = url
        self.displayName = displayName
        self.ctag = ctag
        self.syncToken = syncToken
        self.supportsSyncCollection = supportsSyncCollection
        self.supportsEvents = supportsEvents
        self.supportsTodos = supportsTodos
    }
}

/// A kind of calendar component a collection is made for (`supported-calendar-component-set`).
public enum CalendarComponent: String, Sendable, CaseIterable {
    case event = "VEVENT"
    case todo = "VTODO"
}

/// One calendar object resource as listed: its href (percent-encoded, as the server gives it) and ETag.
public struct CalDAVResourceTag: Sendable, Codable, Equatable {
    public var href: String
    public var etag: String

    public init(href: String, etag: String) {
        self.href = href
        self.etag = etag
    }
}

/// One calendar object resource with its iCalendar text.
public struct CalDAVResource: Sendable, Equatable {
    public var href: String
    public var etag: String
    public var ics: String

    public init(href: String, etag: String, ics: String) {
        self.href = href
        self.etag = etag
        self.ics = ics
    }
}

/// What changed in a collection since a sync token: resources to fetch, hrefs gone, and the token to
/// keep for the next time.
public struct CalDAVChanges: Sendable, Equatable {
    public var changed: [CalDAVResourceTag]
    public var removed: [String]
    public var token: String

    public init(changed: [CalDAVResourceTag], removed: [String], token: String) {
        self.changed = changed
        self.removed = removed
        self.token = token
    }
}

/// The condition a write is made under, so that a write never overwrites a change it has not seen:
/// `If-None-Match: *` for a new resource, `If-Match: <etag>` for a known one.
public enum CalDAVWritePrecondition: Sendable, Equatable {
    case mustNotExist
    case mustMatch(etag: String)
}

/// What a client has sent and received over its life: requests (each redirect hop counts), and bytes
/// of request and response lines, headers and bodies as they travel (compressed bodies at their
/// compressed size; TLS framing not counted).
public struct CalDAVStatistics: Sendable, Codable, Equatable {
    public var requests: Int
    public var bytesSent: Int
    public var bytesReceived: Int

    public init(requests: Int = 0, bytesSent: Int = 0, bytesReceived: Int = 0) {
        self.requests = requests
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
    }
}
