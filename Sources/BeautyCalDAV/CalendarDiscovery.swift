import Foundation

/// Finding the user's calendars from whatever URL they were given (RFC 6764 §5, RFC 4791 §6.2.1):
/// a calendar's own URL, a principal or home URL, or just the server.
extension CalDAVClient {
    /// The event calendars reachable from the account URL; from a calendar's own URL, that calendar.
    public func discoverCalendars() async throws -> [CalDAVCalendar] {
        let start = try await firstAnswer()
        if let calendar = start.calendar { return [calendar] }
        var calendars: [CalDAVCalendar] = []
        for home in try await homes(from: start) {
            let listing = try await propfind(home, depth: "1", DAVRequestBodies.calendar)
            calendars += listing.responses.compactMap(calendar(from:)).filter(\.supportsEvents)
        }
        return calendars
    }

    /// The collections of the account's calendar homes that take tasks (VTODO, or no component set),
    /// whether the account's URL is a calendar, a principal or the server.
    public func discoverTaskLists() async throws -> [CalDAVCalendar] {
        var lists: [CalDAVCalendar] = []
        for home in try await calendarHomes() {
            let listing = try await propfind(home, depth: "1", DAVRequestBodies.calendar)
            lists += listing.responses.compactMap(calendar(from:)).filter(\.supportsTodos)
        }
        return lists
    }

    /// The calendar-home-set of the account's principal.
    func calendarHomes() async throws -> [URL] {
        try await homes(from: firstAnswer())
    }

    /// What the first URL that answers says: a calendar, a home set or a principal.
    private struct Start {
        var calendar: CalDAVCalendar?
        var homes: [URL] = []
        var principal: URL?
        /// A home or principal it names on another origin: not followed.
        var elsewhere: URL?
    }

    /// The account URL first; `/.well-known/caldav` first when the URL is only a server. A 401 stops the
    /// search (the credentials are wrong everywhere); other failures try the next candidate. When no
    /// candidate leads anywhere on the account's origin but one leads to another, `otherOrigin` names it.
    private func firstAnswer() async throws -> Start {
        let wellKnown = URL(string: "/.well-known/caldav", relativeTo: account.url)!.absoluteURL
        let bare = account.url.path.isEmpty || account.url.path == "/"
        var lastError: Error = CalDAVError.notFound("a CalDAV principal at \(account.url.absoluteString)")
        var elsewhere: URL?
        for candidate in bare ? [wellKnown, account.url] : [account.url, wellKnown] {
            do {
                let start = try await describe(candidate)
                if start.calendar != nil || !start.homes.isEmpty || start.principal != nil { return start }
                elsewhere = elsewhere ?? start.elsewhere
            } catch CalDAVError.unauthorized {
                throw CalDAVError.unauthorized
            } catch let CalDAVError.otherOrigin(url) {
                elsewhere = elsewhere ?? URL(string: url)
            } catch let error as CalDAVError {
                if case .unreachable = error { throw error }
                lastError = error
            }
        }
        if let elsewhere { throw CalDAVError.otherOrigin(elsewhere.absoluteString) }
        throw lastError
    }

    private func describe(_ url: URL) async throws -> Start {
        let status = try await propfind(url, depth: "0", DAVRequestBodies.calendarAndPrincipal, staysOnOrigin: true)
        guard let response = status.responses.first else { return Start() }
        let homes = response.property(DAVNamespace.caldav, "calendar-home-set").map(hrefs) ?? []
        let principals = response.property(DAVNamespace.dav, "current-user-principal").map(hrefs) ?? []
        // A home or principal on another origin is not followed: the password stays with the account's.
        let own = { (url: URL) in CollectionScope.sameOrigin(url, self.account.url) }
        return Start(
            calendar: calendar(from: response),
            homes: homes.filter(own),
            principal: principals.first(where: own),
            elsewhere: (homes + principals).first { !own($0) }
        )
    }

    private func homes(from start: Start) async throws -> [URL] {
        if !start.homes.isEmpty { return start.homes }
        guard let principal = start.principal else {
            throw CalDAVError.notFound("a current-user-principal at \(account.url.absoluteString)")
        }
        let described = try await describe(principal)
        if described.homes.isEmpty, let elsewhere = described.elsewhere {
            throw CalDAVError.otherOrigin(elsewhere.absoluteString)
        }
        guard !described.homes.isEmpty else {
            throw CalDAVError.notFound("a calendar-home-set for \(principal.absoluteString)")
        }
        return described.homes
    }

    private func hrefs(_ property: DAVElement) -> [URL] {
        property.children(DAVNamespace.dav, "href").map(\.trimmedText).filter { !$0.isEmpty }.map(resolve)
    }
}
