import BeautyCore
import Foundation
import GRDB

/// A CalDAV calendar beautyd keeps in sync with its store, and where its sync stands.
public struct SyncAccount: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "syncAccount"
    public var name: String
    /// The URL the user gave (a server's base URL or the calendar's own).
    public var url: String
    public var user: String
    public var passwordFile: String?
    /// The calendar followed (found by discovery, or `url` itself).
    public var calendarURL: String
    public var calendarName: String?
    /// Plain HTTP to a host other than loopback, allowed by the user.
    public var insecure: Bool
    public var supportsSyncCollection: Bool
    public var syncToken: String?
    public var ctag: String?
    public var lastSyncAt: Date?
    public var lastError: String?
    /// Failed syncs in a row (back-off grows with them).
    public var failures: Int
    /// No automatic sync before this (back-off after failures).
    public var nextAttemptAt: Date?
    public var createdAt: Date
    /// What the last pull left aside and why (hrefs outside the calendar, deletions held back).
    public var warnings: [TranslatableText]?
    /// Doses travel as tasks to `dosesListURL` (docs/PHONE_TASKS.md).
    public var dosesEnabled = false
    /// The dose task list: a collection of its own beside the event calendar.
    public var dosesListURL: String?
    public var dosesListName: String?
    /// "Dose 08:00" instead of the medication's name on the server.
    public var dosesPrivate = false
    public var dosesSyncToken: String?
    public var dosesCtag: String?
    /// Whether the list answers sync-collection (else its CTag and ETag listing are compared).
    public var dosesSupportsSyncCollection = true
    /// The deletion guard held back a poll: nothing is skipped or put back until the user says.
    public var dosesPaused = false

    public init(
        name: String, url: String, user: String, passwordFile: String?, calendarURL: String, calendarName: String?,
        insecure: Bool, supportsSyncCollection: Bool, createdAt: Date
    ) {
        self.name = name; self.url = url; self.user = user; self.passwordFile = passwordFile
        self.calendarURL = calendarURL; self.calendarName = calendarName; self.insecure = insecure
        self.supportsSyncCollection = supportsSyncCollection; self.createdAt = createdAt
        failures = 0
    }
}

/// An event as it was on the server at the last sync.
public struct SyncedResource: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "syncResource"
    public var account: String
    public var uid: String
    public var href: String
    public var etag: String?
    /// The server's iCalendar text of it.
    public var ics: String

    public init(account: String, uid: String, href: String, etag: String?, ics: String) {
        self.account = account; self.uid = uid; self.href = href; self.etag = etag; self.ics = ics
    }
}

/// A local version that lost to the server's (see README, "conflicts"): kept whole, as iCalendar text.
public struct SyncConflict: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "syncConflict"
    public var id: Int64?
    public var account: String
    public var uid: String
    public var title: String
    public var reason: String
    /// The local version, nil when the local change was a deletion.
    public var ics: String?
    public var detectedAt: Date

    public init(account: String, uid: String, title: String, reason: String, ics: String?, detectedAt: Date) {
        self.account = account; self.uid = uid; self.title = title; self.reason = reason; self.ics = ics;
        self.detectedAt = detectedAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// An appointment a pull removed (deleted on the server), kept as iCalendar text for
/// `SyncStore.trashDays` days so that `beautyctl sync restore-deleted` brings it back.
public struct SyncTrashEntry: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "syncTrash"
    public var id: Int64?
    public var account: String
    public var uid: String
    public var title: String
    public var start: Date
    /// The local version as it was when removed, with its reminders (VALARMs).
    public var ics: String
    public var removedAt: Date
    /// When `sync restore-deleted` brought it back (it then goes to `account` again).
    public var restoredAt: Date?

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A local change waiting to go to a server: the account and UID of the event it touched.
public struct OutboxEntry: Sendable, Equatable {
    /// The account whose event it is; nil for one no account has yet (it goes to the first account).
    public var account: String?
    public var uid: String
    public var queuedAt: Date
}

/// An event (one server resource: a series with its changed occurrences) as the server has it now,
/// ready to be stored: the appointments it describes, checked, and the contacts they name.
public struct ServerEvent: Sendable {
    public var resource: SyncedResource
    public var appointments: [Appointment]
    public var contacts: [Contact?]

    public init(resource: SyncedResource, appointments: [Appointment], contacts: [Contact?]) {
        self.resource = resource; self.appointments = appointments; self.contacts = contacts
    }
}

/// What a pull brings to the store, applied in one transaction.
public struct ServerChanges: Sendable {
    public var changed: [ServerEvent] = []
    /// Hrefs of events deleted on the server.
    public var removed: [String] = []
    /// Local versions that lost to the server's.
    public var conflicts: [SyncConflict] = []
    public var syncToken: String?
    public var ctag: String?
    /// The account's warnings from now on; nil leaves them as they are.
    public var warnings: [TranslatableText]?

    public init() {}
}

/// A local event as it goes to a server: the series (or single appointment) first, then its changed occurrences.
public struct LocalEvent: Sendable {
    public var appointments: [Appointment]
    public var contactNames: [String?]
    public var contactPhones: [String?]
}

/// The CalDAV accounts, the outbox of local changes, what each server has, conflict copies and the
/// trash of appointments pulls removed (the tables `SyncSchema` makes).
public struct SyncStore: Sendable {
    let writer: PrioritizedWriter
    /// The appointments' helpers a pull and a restore call inside their own transaction (an event by
    /// its UID, its changed occurrences, their pending deliveries, the import).
    let appointments: AppDatabase

    // MARK: - Accounts

    /// Adds an account. The first one also takes every appointment already stored to its server.
    public func addAccount(_ account: SyncAccount) throws {
        try writer.write { db in
            let first = try SyncAccount.fetchCount(db) == 0
            guard try SyncAccount.fetchOne(db, key: account.name) == nil else {
                throw ValidationError(field: "name", template: "a sync account named '%s' exists already", account.name)
            }
            try account.insert(db)
            try SyncSchema.matchTriggersToAccounts(db)
            if first {
                try db.execute(
                    sql: """
                        INSERT INTO syncOutbox(account, uid, queuedAt)
                        SELECT DISTINCT \(SyncSchema.outboxAccount("appointment")), \(SyncSchema.resourceUID("appointment")), \(SyncSchema.now)
                        FROM appointment WHERE true ON CONFLICT(account, uid) DO NOTHING
                        """)
            }
        }
    }

    public func accounts() throws -> [SyncAccount] {
        try writer.read { db in try SyncAccount.order(Column("createdAt"), Column("name")).fetchAll(db) }
    }

    public func account(named name: String) throws -> SyncAccount? {
        try writer.read { db in try SyncAccount.fetchOne(db, key: name) }
    }

    /// Forgets an account, what it knew of its server and its conflict copies; the appointments stay,
    /// as ones no account has yet (unless such a one has their UID already), and so do their changes
    /// waiting in the outbox. With no account left, the outbox is emptied (nothing is waiting to go anywhere).
    @discardableResult
    public func removeAccount(named name: String) throws -> Bool {
        try writer.write { db in
            let removed = try SyncAccount.deleteOne(db, key: name)
            try db.execute(sql: "DELETE FROM syncConflict WHERE account = ?", arguments: [name])
            try db.execute(sql: "UPDATE OR IGNORE appointment SET account = NULL WHERE account = ?", arguments: [name])
            try db.execute(sql: "UPDATE OR IGNORE syncOutbox SET account = '' WHERE account = ?", arguments: [name])
            try db.execute(sql: "DELETE FROM syncOutbox WHERE account = ?", arguments: [name])
            if try SyncAccount.fetchCount(db) == 0 { try db.execute(sql: "DELETE FROM syncOutbox") }
            try SyncSchema.matchTriggersToAccounts(db)
            return removed
        }
    }

    /// A sync ended (well or not): where it stands now, for `sync status` and the back-off.
    public func recordOutcome(account name: String, at: Date, error: String?, nextAttemptAt: Date?) throws {
        try writer.write { db in
            guard var account = try SyncAccount.fetchOne(db, key: name) else { return }
            if let error {
                account.lastError = error
                account.failures += 1
            } else {
                account.lastError = nil
                account.failures = 0
                account.lastSyncAt = at
            }
            account.nextAttemptAt = nextAttemptAt
            try account.update(db)
        }
    }

    /// Sets how `account`'s doses travel as tasks: on or off, the list and its name, private mode.
    /// Another list than before starts afresh (`resetDosesList`): its tasks are not the old list's.
    /// Answers false when there is no such account.
    @discardableResult
    public func setDoses(
        account name: String, enabled: Bool, listURL: String?, listName: String?, private isPrivate: Bool
    ) throws -> Bool {
        try writer.write { db in
            guard var account = try SyncAccount.fetchOne(db, key: name) else { return false }
            if account.dosesListURL != listURL { try Self.resetDosesList(db, account: &account) }
            account.dosesEnabled = enabled
            account.dosesListURL = listURL
            account.dosesListName = listName
            account.dosesPrivate = isPrivate
            try account.update(db)
            return true
        }
    }

    /// Forgets where `account`'s dose list stands (sync token, CTag, the pause, the tasks beautyd
    /// knew there): the next dose sync reads the list whole and writes what is missing.
    public func resetDosesList(account name: String) throws {
        try writer.write { db in
            guard var account = try SyncAccount.fetchOne(db, key: name) else { return }
            try Self.resetDosesList(db, account: &account)
            try account.update(db)
        }
    }

    private static func resetDosesList(_ db: Database, account: inout SyncAccount) throws {
        account.dosesSyncToken = nil
        account.dosesCtag = nil
        account.dosesSupportsSyncCollection = true
        account.dosesPaused = false
        try db.execute(sql: "DELETE FROM doseTask WHERE account = ?", arguments: [account.name])
    }

    /// A dose poll got this far: the list's sync token and CTag, and whether sync-collection served.
    public func recordDosesListState(
        account name: String, syncToken: String?, ctag: String?, supportsSyncCollection: Bool
    ) throws {
        try writer.write { db in
            try db.execute(
                sql:
                    "UPDATE syncAccount SET dosesSyncToken = ?, dosesCtag = ?, dosesSupportsSyncCollection = ? WHERE name = ?",
                arguments: [syncToken, ctag, supportsSyncCollection, name])
        }
    }

    /// The deletion guard held a dose poll back (true), or the user let it go on (false).
    public func pauseDoses(account name: String, _ paused: Bool) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE syncAccount SET dosesPaused = ? WHERE name = ?", arguments: [paused, name])
        }
    }

    // MARK: - Outbox and resources

    public func outbox() throws -> [OutboxEntry] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT account, uid, queuedAt FROM syncOutbox ORDER BY queuedAt, account, uid")
                .map { row in
                    let account: String = row["account"]
                    return OutboxEntry(
                        account: account.isEmpty ? nil : account, uid: row["uid"], queuedAt: row["queuedAt"])
                }
        }
    }

    public func resources(account: String) throws -> [SyncedResource] {
        try writer.read { db in try SyncedResource.filter(Column("account") == account).fetchAll(db) }
    }

    public func resource(account: String, uid: String) throws -> SyncedResource? {
        try writer.read { db in try SyncedResource.fetchOne(db, key: ["account": account, "uid": uid]) }
    }

    public func conflicts(account: String? = nil) throws -> [SyncConflict] {
        try writer.read { db in
            var request = SyncConflict.order(Column("detectedAt"), Column("id"))
            if let account { request = request.filter(Column("account") == account) }
            return try request.fetchAll(db)
        }
    }

    /// The event `account` has under this UID (nil account: the one no account has yet) with its
    /// changed occurrences and contacts; nil when there is none.
    public func localEvent(uid: String, account: String?) throws -> LocalEvent? {
        try writer.read { db in try localEvent(db, uid: uid, account: account) }
    }

    private func localEvent(_ db: Database, uid: String, account: String?) throws -> LocalEvent? {
        guard let root = try appointments.fetchAppointment(db, uid: uid, account: account) else { return nil }
        let all = [root] + (try appointments.changedOccurrences(db, ofSeries: root.id!))
        let contacts = try all.map { a in try a.contactID.flatMap { try ContactRecord.fetchOne(db, key: $0)?.contact } }
        return LocalEvent(
            appointments: all, contactNames: contacts.map { $0?.name }, contactPhones: contacts.map { $0?.phone })
    }

    /// A push went through: the server has `resource` now. The UID leaves the outbox (`queued`'s
    /// account) unless it was queued again after `queuedBefore` (changed while the push was under
    /// way). An event no account had becomes the account's, and so does such a later change.
    public func recordPushed(_ resource: SyncedResource, queued: String?, queuedBefore: Date) throws {
        try writer.write { db in
            try remember(db, resource)
            try dropFromOutbox(db, account: queued, uid: resource.uid, queuedBefore: queuedBefore)
            if queued == nil, try adopt(db, uid: resource.uid, into: resource.account) {
                try db.execute(
                    sql: "UPDATE OR REPLACE syncOutbox SET account = ? WHERE account = '' AND uid = ?",
                    arguments: [resource.account, resource.uid])
            }
        }
    }

    /// A deletion reached the server (or there was nothing there to delete).
    public func recordDeleted(account: String, uid: String, queuedBefore: Date) throws {
        try writer.write { db in
            _ = try SyncedResource.deleteOne(db, key: ["account": account, "uid": uid])
            try dropFromOutbox(db, account: account, uid: uid, queuedBefore: queuedBefore)
        }
    }

    /// Nothing to send for this UID of `account` (nil: of no account yet): the server already has what is stored.
    public func dropFromOutbox(account: String? = nil, uid: String, queuedBefore: Date) throws {
        try writer.write { db in try dropFromOutbox(db, account: account, uid: uid, queuedBefore: queuedBefore) }
    }

    /// The event no account has yet under `uid` becomes `account`'s, unless that account has one
    /// under this UID already. Answers whether it did.
    private func adopt(_ db: Database, uid: String, into account: String) throws -> Bool {
        // Asked first through a cached statement: an UPDATE of `appointment` compiles the outbox
        // triggers with it, a millisecond for every event a pull brings.
        let unsynced = try db.cachedStatement(
            sql: """
                SELECT EXISTS (SELECT 1 FROM appointment WHERE IFNULL(account, '') = '' AND uid = ?)
                   AND NOT EXISTS (SELECT 1 FROM appointment WHERE IFNULL(account, '') = ? AND uid = ?)
                """)
        guard try Bool.fetchOne(unsynced, arguments: [uid, account, uid]) == true else { return false }
        try db.execute(
            sql: "UPDATE appointment SET account = ? WHERE IFNULL(account, '') = '' AND uid = ?",
            arguments: [account, uid])
        return true
    }

    /// Records where an event is on the server; an href that held another UID before (deleted and
    /// made again on the server) now names this one.
    private func remember(_ db: Database, _ resource: SyncedResource) throws {
        try db.execute(
            sql: "DELETE FROM syncResource WHERE account = ? AND href = ? AND uid <> ?",
            arguments: [resource.account, resource.href, resource.uid])
        try resource.save(db)
    }

    private func dropFromOutbox(_ db: Database, account: String?, uid: String, queuedBefore: Date) throws {
        try db.execute(
            sql: "DELETE FROM syncOutbox WHERE account = ? AND uid = ? AND queuedAt <= ?",
            arguments: [account ?? "", uid, queuedBefore])
    }

    /// Stores what a pull brought, in one transaction, without queueing any of it to go back:
    /// changed events are imported by the account's UID (rows keep their ids, so a reminder already
    /// shown keeps its delivery and is not shown again; an event no account has yet under that UID
    /// becomes this account's), deleted ones go, conflict copies are kept, and the account's sync
    /// token or CTag moves on. Another account's appointment is never touched: the store's
    /// uniqueness of (account, UID) is the arbiter, whatever syncs run at the same time.
    @discardableResult
    public func applyServerChanges(_ changes: ServerChanges, account name: String, now: Date, zone: TimeZone) throws
        -> AppointmentImportCounts
    {
        try writer.write { db in
            try db.execute(sql: "INSERT INTO syncQuiet(since) VALUES (?)", arguments: [now])
            for var conflict in changes.conflicts { try conflict.insert(db) }
            try db.execute(
                sql: "DELETE FROM syncTrash WHERE removedAt < ?",
                arguments: [now.addingTimeInterval(-Self.trashDays * 86_400)])
            for href in changes.removed {
                guard
                    let resource = try SyncedResource.filter(Column("account") == name && Column("href") == href)
                        .fetchOne(db)
                else { continue }
                if let local = try localEvent(db, uid: resource.uid, account: name), let root = local.appointments.first
                {
                    try keepInTrash(db, local, account: name, uid: resource.uid, now: now, zone: zone)
                    let occurrences = try appointments.changedOccurrences(db, ofSeries: root.id!).compactMap(\.id)
                    try appointments.deletePendingDeliveries(db, ids: [root.id!] + occurrences)
                    _ = try AppointmentRecord.deleteOne(db, key: root.id!)
                }
                try resource.delete(db)
                try db.execute(
                    sql: "DELETE FROM syncOutbox WHERE account = ? AND uid = ?", arguments: [name, resource.uid])
            }
            var incoming: [Appointment] = [], contacts: [Contact?] = []
            for event in changes.changed {
                if try adopt(db, uid: event.resource.uid, into: name) {
                    try db.execute(
                        sql: "DELETE FROM syncOutbox WHERE account = '' AND uid = ?", arguments: [event.resource.uid])
                }
                try dropStaleOccurrences(
                    db, uid: event.resource.uid, account: name, kept: event.appointments.compactMap(\.recurrenceID))
                incoming += event.appointments
                contacts +=
                    event.contacts.count == event.appointments.count
                    ? event.contacts : Array(repeating: nil, count: event.appointments.count)
                try remember(db, event.resource)
                try db.execute(
                    sql: "DELETE FROM syncOutbox WHERE account = ? AND uid = ?", arguments: [name, event.resource.uid])
            }
            let counts = try appointments.importAppointments(
                db, incoming, contacts: contacts, scope: .account(name), now: now, zone: zone)
            try db.execute(
                sql: "UPDATE syncAccount SET syncToken = ?, ctag = ? WHERE name = ?",
                arguments: [changes.syncToken, changes.ctag, name])
            if let warnings = changes.warnings {
                try db.execute(
                    sql: "UPDATE syncAccount SET warnings = ? WHERE name = ?",
                    arguments: [
                        warnings.isEmpty ? nil : String(decoding: try JSONEncoder().encode(warnings), as: UTF8.self),
                        name,
                    ])
            }
            try db.execute(sql: "DELETE FROM syncQuiet")
            return counts
        }
    }

    /// How long an appointment a pull removed stays recoverable.
    public static let trashDays: Double = 30

    /// The local version of an event a pull is about to remove, kept whole (reminders, changed
    /// occurrences, contact) as the push would send it.
    private func keepInTrash(
        _ db: Database, _ local: LocalEvent, account: String, uid: String, now: Date, zone: TimeZone
    ) throws {
        let events = CalendarEvent.exporting(
            local.appointments, contactNames: local.contactNames, contactPhones: local.contactPhones)
        let root = local.appointments[0]
        var entry = SyncTrashEntry(
            account: account, uid: uid, title: root.title, start: root.start,
            ics: ICalendar.serialize(events, stamp: now, defaultZone: zone), removedAt: now)
        try entry.insert(db)
    }

    /// Appointments pulls removed in the last `trashDays` days, the latest first.
    public func trash(account: String? = nil, now: Date) throws -> [SyncTrashEntry] {
        try writer.read { db in
            var request = SyncTrashEntry.filter(
                Column("removedAt") >= now.addingTimeInterval(-Self.trashDays * 86_400) && Column("restoredAt") == nil
            )
            .order(Column("removedAt").desc, Column("id").desc)
            if let account { request = request.filter(Column("account") == account) }
            return try request.fetchAll(db)
        }
    }

    /// An entry not restored yet.
    public func trashEntry(id: Int64) throws -> SyncTrashEntry? {
        try writer.read { db in
            try SyncTrashEntry.filter(Column("id") == id && Column("restoredAt") == nil).fetchOne(db)
        }
    }

    /// Brings back what trash entry `id` kept: the entry is marked restored and its appointments (their
    /// reminders, changed occurrences, contacts) imported in one transaction, so a failure anywhere
    /// leaves the entry in the trash and nothing of it imported. Nil when the entry is not in the trash
    /// (any more).
    public func restoreFromTrash(
        id: Int64, _ appointments: [Appointment], contacts: [Contact?], scope: UIDScope, now: Date,
        zone: TimeZone
    ) throws -> AppointmentImportCounts? {
        try writer.write { db in
            try db.execute(
                sql: "UPDATE syncTrash SET restoredAt = ? WHERE id = ? AND restoredAt IS NULL", arguments: [now, id])
            guard db.changesCount == 1 else { return nil }
            return try self.appointments.importAppointments(
                db, appointments, contacts: contacts, scope: scope, now: now, zone: zone)
        }
    }

    /// Changed occurrences the server no longer has: their rows go (the series plans those
    /// occurrences again, or its EXDATEs leave them out).
    private func dropStaleOccurrences(_ db: Database, uid: String, account: String, kept: [Date]) throws {
        guard let root = try appointments.fetchAppointment(db, uid: uid, account: account), root.recurrenceID == nil
        else { return }
        var stale: [Int64] = []
        for row in try appointments.changedOccurrences(db, ofSeries: root.id!) {
            guard let rid = row.recurrenceID, !kept.contains(where: { SeriesOccurrence.same($0, rid) }) else {
                continue
            }
            stale.append(row.id!)
        }
        guard !stale.isEmpty else { return }
        try appointments.deletePendingDeliveries(db, ids: stale)
        for id in stale { _ = try AppointmentRecord.deleteOne(db, key: id) }
        var series = try appointments.fetchAppointment(db, id: root.id!)
        series.recurrence?.changed.removeAll { date in !kept.contains { SeriesOccurrence.same($0, date) } }
        try AppointmentRecord(series).update(db)
    }

    /// Calls `onChange` after each committed transaction that touched the outbox (a local change was
    /// queued, or a sync sent one). Keep the answer: the observation ends when it is released.
    public func observeOutbox(_ onChange: @escaping @Sendable () -> Void) throws -> OutboxObservation {
        let observation = DatabaseRegionObservation(tracking: Table("syncOutbox"))
        return OutboxObservation(
            try observation.start(in: writer.database, onError: { _ in }, onChange: { _ in onChange() }))
    }
}

/// A running watch of the outbox; it ends when cancelled or released.
public final class OutboxObservation: @unchecked Sendable {
    private let cancellable: AnyDatabaseCancellable

    init(_ cancellable: AnyDatabaseCancellable) { self.cancellable = cancellable }

    public func cancel() { cancellable.cancel() }
}

extension SyncAccount {
    /// Why an account a restore brought does not sync by itself (kept as its last error, in English).
    public static func restoredPause(_ name: String) -> TranslatableText {
        TranslatableText("restored from a backup: paused until you run 'beautyctl sync now %s'", [.plain(name)])
    }
}
