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

    /// The calendar-home-set of the account's principal.
    func calendarHomes() async throws -> [URL] {
        try await homes(from: firstAnswer())
    }

    /// What the first URL that answers says: a calendar, a home set or a principal.
    private struct Start {
        var calendar: CalDAVCalendar?
        var homes: [URL] = []
        var principal: URL?
    }

    /// The account URL first; `/.well-known/caldav` first when the URL is only a server. A 401 stops the
    /// search (the credentials are wrong everywhere); other failures try the next candidate.
    private func firstAnswer() async throws -> Start {
        let wellKnown = URL(string: "/.well-known/caldav", relativeTo: account.url)!.absoluteURL
        let bare = account.url.path.isEmpty || account.url.path == "/"
        var lastError: Error = CalDAVError.notFound("a CalDAV principal at \(account.url.absoluteString)")
        for candidate in bare ? [wellKnown, account.url] : [account.url, wellKnown] {
            do {
                let start = try await describe(candidate)
                if start.calendar != nil || !start.homes.isEmpty || start.principal != nil { return start }
            } catch CalDAVError.unauthorized {
                throw CalDAVError.unauthorized
            } catch let error as CalDAVError {
                if case .unreachable = error { throw error }
                lastError = error
            }
        }
        throw lastError
    }

    private func describe(_ url: URL) async throws -> Start {
        let status = try await propfind(url, depth: "0", DAVRequestBodies.calendarAndPrincipal)
        guard let response = status.responses.first else { return Start() }
        return Start(
            calendar: calendar(from: response),
            homes: response.property(DAVNamespace.caldav, "calendar-home-set").map(hrefs) ?? [],
            principal: response.property(DAVNamespace.dav, "current-user-principal").flatMap { hrefs($0).first }
        )
    }

    private func homes(from start: Start) async throws -> [URL] {
        if !start.homes.isEmpty { return start.homes }
        guard let principal = start.principal else {
            throw CalDAVError.notFound("a current-user-principal at \(account.url.absoluteString)")
        }
        let homes = try await describe(principal).homes
        guard !homes.isEmpty else { throw CalDAVError.notFound("a calendar-home-set for \(principal.absoluteString)") }
        return homes
    }

    private func hrefs(_ property: DAVElement) -> [URL] {
        // A home or principal on another origin is not followed: the password stays with the account's.
        property.children(DAVNamespace.dav, "href").map(\.trimmedText).filter { !$0.isEmpty }.map(resolve)
            .filter { CollectionScope.sameOrigin($0, account.url) }
    }
}
