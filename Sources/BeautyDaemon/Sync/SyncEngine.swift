import BeautyCalDAV
import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// What the sync engine asks of a CalDAV server: `CalDAVClient`'s calls on one calendar.
protocol CalendarServer: Sendable {
    func calendar(at url: URL) async throws -> CalDAVCalendar
    func syncCollection(_ calendar: URL, token: String?) async throws -> CalDAVChanges
    func etags(in calendar: URL) async throws -> [CalDAVResourceTag]
    func fetch(_ calendar: URL, hrefs: [String]) async throws -> [CalDAVResource]
    func put(_ href: String, ics: String, _ precondition: CalDAVWritePrecondition) async throws -> String?
    func delete(_ href: String, _ precondition: CalDAVWritePrecondition) async throws
    func href(forUID uid: String, in calendar: URL) -> String
    var statistics: CalDAVStatistics { get }
}

extension CalDAVClient: CalendarServer {}

/// One sync of one account: pull what changed on the server (sync-collection, or CTag and ETags),
/// apply it through the import path, then push the outbox with If-None-Match/If-Match. A conflict
/// (changed on both sides) keeps the server's version in place and the local one as a conflict copy.
struct SyncEngine {
    let store: SyncStore
    /// Gives the appointments without a UID theirs before a pull.
    let appointments: AppointmentStore
    let server: any CalendarServer
    let account: SyncAccount
    /// Whether local appointments no account has yet go to this one (the first account added).
    let takesNewEvents: Bool
    let zone: TimeZone
    let now: @Sendable () -> Date
    /// Checks what a server sends as an import is checked (category tree, default currency).
    let check:
        @Sendable ([Appointment], [String?], [String?]) throws -> (appointments: [Appointment], contacts: [Contact?])
    let logger: Logger

    /// Apply a pull's deletions even when `DeletionGuard` would hold them back (`sync now --allow-deletions`).
    var allowDeletions = false
    /// `[sync] max_deletion_share`: see `DeletionGuard`.
    var deletionShare = DeletionGuard.defaultShare

    /// Hrefs fetched and parsed at a time (the client splits them into multiget requests).
    static let fetchBatch = 1000

    var calendarURL: URL { URL(string: account.calendarURL)! }

    func run() async throws -> SyncReport {
        var report = SyncReport(account: account.name)
        let before = server.statistics
        let started = ContinuousClock.now
        try appointments.assignMissingUIDs()
        try await pull(&report)
        try Task.checkCancellation()
        try await push(&report)
        let after = server.statistics
        report.requests = after.requests - before.requests
        report.bytesSent = after.bytesSent - before.bytesSent
        report.bytesReceived = after.bytesReceived - before.bytesReceived
        let elapsed = ContinuousClock.now - started
        report.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return report
    }

    // MARK: - Pull

    private func pull(_ report: inout SyncReport) async throws {
        let known = try store.resources(account: account.name)
        let knownByHref = Dictionary(known.map { (Self.key($0.href), $0) }) { first, _ in first }
        var tags: [CalDAVResourceTag] = []
        var removed: [String] = []
        var changes = ServerChanges()
        changes.syncToken = account.syncToken
        changes.ctag = account.ctag
        var warnings: [TranslatableText] = []
        let listing = try await CollectionListing.changes(
            of: calendarURL, on: server, token: account.syncToken, ctag: account.ctag,
            syncCollection: account.supportsSyncCollection, known: known.map(\.href))
        if listing.tokenForgotten {
            // ETags spare unchanged events a fetch.
            logger.notice("sync \(account.name): the server no longer knows the sync token; listing the whole calendar")
        }
        tags = listing.changed
        removed = listing.removed
        if let token = listing.token { changes.syncToken = token }
        if let ctag = listing.ctag { changes.ctag = ctag }
        let outside = tags.map(\.href).filter { CollectionScope.member($0, of: calendarURL) == nil }
        if !outside.isEmpty {
            tags.removeAll { CollectionScope.member($0.href, of: calendarURL) == nil }
            warnings.append(outsideWarning(outside))
        }
        let wanted = tags.filter { tag in
            knownByHref[Self.key(tag.href)].map { $0.etag != tag.etag || tag.etag.isEmpty } ?? true
        }
        .map(\.href)
        let outbox = try store.outbox()
        let pending = Set(outbox.filter { $0.account == account.name }.map(\.uid))
        let pendingUnsynced = Set(outbox.filter { $0.account == nil }.map(\.uid))
        var uids = UIDClaims(known: known, gone: Set(removed.map(Self.key)))
        for start in stride(from: 0, to: wanted.count, by: Self.fetchBatch) {
            try Task.checkCancellation()
            let batch = Array(wanted[start..<min(start + Self.fetchBatch, wanted.count)])
            for resource in try await server.fetch(calendarURL, hrefs: batch) {
                report.fetched += 1
                guard let event = serverEvent(resource, warnings: &warnings),
                    uids.claim(event.resource.uid, href: resource.href)
                else { continue }
                if pending.contains(event.resource.uid) {
                    try conflictCheck(uid: event.resource.uid, server: event.appointments, into: &changes)
                } else if pendingUnsynced.contains(event.resource.uid),
                    try store.localEvent(uid: event.resource.uid, account: account.name) == nil
                {
                    // A local event no account has yet, under the UID this server has: the pull takes it in.
                    try conflictCheck(
                        uid: event.resource.uid, unsynced: true, server: event.appointments, into: &changes)
                }
                changes.changed.append(event)
            }
        }
        if !uids.refused.isEmpty {
            logger.warning(
                "sync \(account.name): ignored \(uids.refused.count) resource(s) whose UID another one has: \(uids.refused.prefix(5).joined(separator: " "))"
            )
            warnings.append(
                TranslatableText(
                    "the server has %s item(s) whose UID another item of this calendar already has; they were ignored: %s",
                    [.plain(uids.refused.count), .plain(Self.named(uids.refused))]))
        }
        let gone = removed.compactMap { knownByHref[Self.key($0)] }
        if !allowDeletions, DeletionGuard.holdsBack(removing: gone.count, of: known.count, share: deletionShare) {
            // Not applied, and the token stays where it was: the next sync lists the same deletions
            // again, until the user lets them through (`sync now NAME --allow-deletions`).
            logger.warning(
                "sync \(account.name): the server would delete \(gone.count) of \(known.count) appointments; held back until 'beautyctl sync now \(account.name) --allow-deletions'"
            )
            warnings.append(
                TranslatableText(
                    "the server's listing would delete %s of %s appointments; nothing was deleted. If that is right: beautyctl sync now %s --allow-deletions",
                    [.plain(gone.count), .plain(known.count), .plain(account.name)]))
            report.heldBack = gone.count
            changes.syncToken = account.syncToken
            changes.ctag = account.ctag
        } else {
            for resource in gone {
                if pending.contains(resource.uid) { try conflictCheck(uid: resource.uid, server: nil, into: &changes) }
                changes.removed.append(resource.href)
            }
        }
        report.removed = changes.removed.count
        report.conflicts += changes.conflicts.count
        report.warnings = warnings.isEmpty ? nil : warnings
        changes.warnings = warnings
        try store.applyServerChanges(changes, account: account.name, now: now(), zone: zone)
    }

    /// Hrefs the server listed outside the calendar: named (the first few) so the user can tell the server's admin.
    private func outsideWarning(_ hrefs: [String]) -> TranslatableText {
        logger.warning(
            "sync \(account.name): ignored \(hrefs.count) href(s) outside \(calendarURL.absoluteString): \(hrefs.prefix(5).joined(separator: " "))"
        )
        return TranslatableText(
            "the server listed %s item(s) outside the calendar followed; they were ignored and nothing was sent to them: %s",
            [.plain(hrefs.count), .plain(Self.named(hrefs))])
    }

    /// The first few hrefs, for a warning.
    private static func named(_ hrefs: [String]) -> String {
        hrefs.prefix(3).map { String($0.prefix(200)) }.joined(separator: " ") + (hrefs.count > 3 ? " ..." : "")
    }

    /// The server's resource as appointments ready to store; nil (logged) when it holds no event
    /// beautyd can read: one bad event must not stop the others. An event left out because it cannot
    /// be placed in time (no DTSTART) is named in `warnings`, which `sync status` shows.
    private func serverEvent(_ resource: CalDAVResource, warnings: inout [TranslatableText]) -> ServerEvent? {
        do {
            let read = try ICalendar.read(resource.ics, defaultZone: zone)
            for skipped in read.skippedEvents {
                logger.warning("sync \(account.name): \(resource.href): line \(skipped.line): \(skipped.message)")
                warnings.append(
                    TranslatableText(
                        "the server's item %s: %s", [.plain(String(resource.href.prefix(200))), .message(skipped.text)])
                )
            }
            let events = read.events
            guard let uid = events.first?.uid else { return nil }
            let imported = CalendarEvent.importing(events, zone: zone)
            let phones = imported.events.map { events[$0].contactPhone }
            let checked = try check(imported.appointments, imported.contactNames, phones)
            let stored = SyncedResource(
                account: account.name, uid: uid, href: resource.href, etag: resource.etag, ics: resource.ics)
            if checked.appointments.contains(where: ReminderPlanner.remindsLessOftenThanItOccurs) {
                logger.notice(
                    "sync \(account.name): \(uid) repeats more often than once a minute; its reminders come at most once a minute"
                )
            }
            return ServerEvent(resource: stored, appointments: checked.appointments, contacts: checked.contacts)
        } catch {
            logger.warning("sync \(account.name): skipped \(resource.href): \(error)")
            return nil
        }
    }

    /// A local change of `uid` (this account's event, or with `unsynced` one no account has yet) waits
    /// while the server changed it too: keep the local version as a conflict copy unless both say the same.
    private func conflictCheck(
        uid: String, unsynced: Bool = false, server: [Appointment]?, into changes: inout ServerChanges
    ) throws {
        let local = try store.localEvent(uid: uid, account: unsynced ? nil : account.name)
        if let copy = conflictCopy(uid: uid, local: local, server: server) { changes.conflicts.append(copy) }
    }

    /// The local version as a conflict copy when it loses to the server's; nil when both agree.
    private func conflictCopy(uid: String, local: LocalEvent?, server: [Appointment]?) -> SyncConflict? {
        guard case let .serverWins(reason) = SyncDecision.resolve(local: local?.appointments, server: server) else {
            return nil
        }
        logger.notice("sync \(account.name): conflict on \(uid): \(reason)")
        return SyncConflict(
            account: account.name, uid: uid, title: local?.appointments.first?.title ?? server?.first?.title ?? uid,
            reason: reason, ics: local.map { ics($0) }, detectedAt: now())
    }

    // MARK: - Push

    private func push(_ report: inout SyncReport) async throws {
        var refused: CalDAVError?
        // This account's events, and the new ones no account has yet when this is the first account.
        for entry in try store.outbox() where entry.account.map({ $0 == account.name }) ?? takesNewEvents {
            // A sync stopped (the daemon stopping, `[sync] sync_timeout`) sends nothing more.
            try Task.checkCancellation()
            // An event no account has is new to this server too: whatever it holds under the UID is
            // another event, never overwritten or deleted from here.
            let known = entry.account == nil ? nil : try store.resource(account: account.name, uid: entry.uid)
            let local = try store.localEvent(uid: entry.uid, account: entry.account)
            do {
                if let local {
                    try await put(local, entry, known: known, report: &report)
                } else if let known {
                    try await delete(known, entry, report: &report)
                } else {
                    try store.dropFromOutbox(account: entry.account, uid: entry.uid, queuedBefore: entry.queuedAt)
                }
            } catch let CalDAVError.outsideCollection(href) {
                // Recorded before hrefs were checked: it stays queued and the sync fails, naming it, rather than write there.
                logger.warning("sync \(account.name): not sending \(entry.uid) to \(href), outside the calendar")
                refused = refused ?? CalDAVError.outsideCollection(href)
            } catch let CalDAVError.server(status, detail) {
                // One event the server refuses must not hold back the others: it stays queued, and the
                // sync ends as failed (with back-off) once the rest went.
                logger.warning("sync \(account.name): the server refused \(entry.uid) (HTTP \(status)): \(detail)")
                refused = refused ?? CalDAVError.server(status: status, detail: "\(entry.uid): \(detail)")
            }
        }
        if let refused { throw refused }
    }

    private func put(_ local: LocalEvent, _ entry: OutboxEntry, known: SyncedResource?, report: inout SyncReport)
        async throws
    {
        let uid = entry.uid
        if let known, let server = try? appointments(of: known.ics), SyncDecision.same(local.appointments, server) {
            try store.dropFromOutbox(account: entry.account, uid: uid, queuedBefore: entry.queuedAt)
            return
        }
        let text = ics(local)
        let href = known?.href ?? server.href(forUID: uid, in: calendarURL)
        do {
            var precondition = CalDAVWritePrecondition.mustNotExist
            if let known { precondition = .mustMatch(etag: try await etag(of: known)) }
            let newETag = try await server.put(href, ics: text, precondition)
            try store.recordPushed(
                SyncedResource(account: account.name, uid: uid, href: href, etag: newETag, ics: text),
                queued: entry.account, queuedBefore: entry.queuedAt)
            report.pushed += 1
        } catch CalDAVError.preconditionFailed {
            if known == nil, try await createUnderAnotherName(entry, text: text, taken: href, report: &report) {
                return
            }
            // Changed (or created, or deleted) on the server since the last pull: decide now.
            try await settle(entry, href: href, local: local, report: &report)
        }
    }

    /// A new event's name is taken on the server (412 on `If-None-Match: *`). When this very event is
    /// there (a creation retried after a lost answer) `settle` decides (false). When something else
    /// is, or nothing the server lets beautyd read, the event goes under another name: it is not a
    /// conflict, and nothing here was deleted on the server.
    private func createUnderAnotherName(_ entry: OutboxEntry, text: String, taken: String, report: inout SyncReport)
        async throws -> Bool
    {
        let uid = entry.uid
        if let current = try await server.fetch(calendarURL, hrefs: [taken]).first,
            (try? ICalendar.parse(current.ics, defaultZone: zone))?.first?.uid == uid
        {
            return false
        }
        for attempt in 1...3 {
            let href = server.href(forUID: "\(uid)-\(attempt)", in: calendarURL)
            do {
                let newETag = try await server.put(href, ics: text, .mustNotExist)
                try store.recordPushed(
                    SyncedResource(account: account.name, uid: uid, href: href, etag: newETag, ics: text),
                    queued: entry.account, queuedBefore: entry.queuedAt)
                report.pushed += 1
                logger.notice(
                    "sync \(account.name): \(taken) is taken on the server by another resource; \(uid) went to \(href)")
                return true
            } catch CalDAVError.preconditionFailed {
                continue
            }
        }
        // It stays queued, and the sync says why.
        throw CalDAVError.server(
            status: 412, detail: "\(uid): \(taken) and the other names tried are taken on the server")
    }

    private func delete(_ known: SyncedResource, _ entry: OutboxEntry, report: inout SyncReport) async throws {
        do {
            try await server.delete(known.href, .mustMatch(etag: try await etag(of: known)))
            report.pushed += 1
        } catch CalDAVError.notFound {
            // Already gone: what the deletion wanted.
        } catch CalDAVError.preconditionFailed {
            try await settle(entry, href: known.href, local: nil, report: &report)
            return
        }
        try store.recordDeleted(account: account.name, uid: known.uid, queuedBefore: entry.queuedAt)
    }

    /// A write was refused because the server's version is not the one last seen: fetch it and let the
    /// server's version win in place, keeping the local one as a conflict copy unless both agree.
    private func settle(_ entry: OutboxEntry, href: String, local: LocalEvent?, report: inout SyncReport) async throws {
        let uid = entry.uid
        let current = try await server.fetch(calendarURL, hrefs: [href]).first
        report.fetched += current == nil ? 0 : 1
        // The pull of this sync moved the token on: keep it.
        let fresh = try store.account(named: account.name) ?? account
        var changes = ServerChanges()
        changes.syncToken = fresh.syncToken
        changes.ctag = fresh.ctag
        var unplaced: [TranslatableText] = []  // logged: the pull that lists the item reports them
        let event = current.flatMap { serverEvent($0, warnings: &unplaced) }
        if let copy = conflictCopy(uid: uid, local: local, server: event?.appointments) {
            report.conflicts += 1
            changes.conflicts.append(copy)
        }
        if let event {
            changes.changed.append(event)
        } else if try store.resource(account: account.name, uid: uid) != nil {
            changes.removed.append(href)
        }
        try store.applyServerChanges(changes, account: account.name, now: now(), zone: zone)
        try store.dropFromOutbox(account: entry.account, uid: uid, queuedBefore: entry.queuedAt)
    }

    /// The ETag to match: the one recorded, or (when the server gave none with the write) the current one.
    private func etag(of known: SyncedResource) async throws -> String {
        if let etag = known.etag, !etag.isEmpty { return etag }
        guard let current = try await server.fetch(calendarURL, hrefs: [known.href]).first else {
            throw CalDAVError.notFound(known.href)
        }
        return current.etag
    }

    // MARK: - Text

    private func ics(_ local: LocalEvent) -> String {
        let events = CalendarEvent.exporting(
            local.appointments, contactNames: local.contactNames, contactPhones: local.contactPhones)
        return ICalendar.serialize(events, stamp: now(), defaultZone: zone)
    }

    private func appointments(of text: String) throws -> [Appointment] {
        let events = try ICalendar.parse(text, defaultZone: zone)
        let imported = CalendarEvent.importing(events, zone: zone)
        return try check(imported.appointments, imported.contactNames, imported.events.map { events[$0].contactPhone })
            .appointments
    }

    /// Servers differ in how they escape an href (`@` or `%40`): compare them unescaped.
    static func key(_ href: String) -> String { href.removingPercentEncoding ?? href }
}
