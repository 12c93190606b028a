import GRDB

/// The tables of CalDAV sync, in a migration of their own: accounts, which server resource each
/// appointment UID is, the outbox of local changes and the conflict copies.
///
/// While an account exists, the outbox is filled by triggers on `appointment`, `appointmentReminder`
/// and `contact` (whose name and phone events carry), so every local
/// change (an RPC, an import, a restore, a series split) queues its UID in the very transaction
/// that makes it, and none can be forgotten by a code path. While sync applies the server's
/// changes it holds a row in `syncQuiet` (inside its own transaction, never committed), and the
/// triggers stay silent: what came from the server is not sent back to it.
enum SyncSchema {
    /// The name of the UID an appointment stands under on a server: its own, its series', or the
    /// `appointment-ID@beautyd` beautyd exports for one without a UID (a push gives it a real one,
    /// which then takes its place in the outbox).
    static func resourceUID(_ row: String) -> String {
        "COALESCE(\(row).uid, 'appointment-' || COALESCE(\(row).seriesId, \(row).id) || '@beautyd')"
    }

    /// The outbox's account of an appointment row: its account's name, or '' while no account has it.
    static func outboxAccount(_ row: String) -> String {
        "IFNULL(\(row).account, '')"
    }

    static let enabled = "NOT EXISTS (SELECT 1 FROM syncQuiet)"
    static let now = "strftime('%Y-%m-%d %H:%M:%f', 'now')"

    /// The columns that travel to a server; `plannedUntil` and `updatedAt` change without the event changing.
    static let syncedColumns = [
        "title", "start", "durationSeconds", "allDay", "address", "notes", "contactId", "category",
        "color", "priceCents", "currency", "status", "timeZone", "recurrence", "repeatAfterDoneSeconds",
        "uid", "seriesId", "recurrenceId", "tags", "extraProperties",
    ]

    static func register(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v8-sync: CalDAV accounts, resources, outbox, conflict copies") { db in
            try db.create(table: "syncAccount") { t in
                t.primaryKey("name", .text)
                t.column("url", .text).notNull()
                t.column("user", .text).notNull()
                t.column("passwordFile", .text)
                t.column("calendarURL", .text).notNull()
                t.column("calendarName", .text)
                t.column("insecure", .boolean).notNull().defaults(to: false)
                t.column("supportsSyncCollection", .boolean).notNull().defaults(to: false)
                t.column("syncToken", .text)
                t.column("ctag", .text)
                t.column("lastSyncAt", .datetime)
                t.column("lastError", .text)
                t.column("failures", .integer).notNull().defaults(to: 0)
                t.column("nextAttemptAt", .datetime)
                t.column("createdAt", .datetime).notNull()
            }
            // One row per (account, UID): where the event is on the server and the text it had at the last sync.
            try db.create(table: "syncResource") { t in
                t.column("account", .text).notNull().references("syncAccount", onDelete: .cascade)
                t.column("uid", .text).notNull()
                t.column("href", .text).notNull()
                t.column("etag", .text)
                t.column("ics", .text).notNull()
                t.primaryKey(["account", "uid"])
            }
            try db.create(
                index: "syncResource_on_href", on: "syncResource", columns: ["account", "href"], unique: true)
            try db.create(table: "syncOutbox") { t in
                t.primaryKey("uid", .text)
                t.column("queuedAt", .datetime).notNull()
            }
            try db.create(table: "syncConflict") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("account", .text).notNull()
                t.column("uid", .text).notNull()
                t.column("title", .text).notNull()
                t.column("reason", .text).notNull()
                // The local version as iCalendar text, so nothing is lost (`beautyctl import` takes it back).
                t.column("ics", .text)
                t.column("detectedAt", .datetime).notNull()
            }
            try db.create(table: "syncQuiet") { t in t.column("since", .datetime) }
        }
        migrator.registerMigration("v8-sync-safety: sync warnings, appointments removed by a pull") { db in
            // What the last sync left aside (hrefs outside the calendar, deletions held back), as
            // JSON templates for `sync status`.
            try db.alter(table: "syncAccount") { t in t.add(column: "warnings", .text) }
            // Each appointment a pull removed, as iCalendar text, for 30 days (`beautyctl sync trash`).
            try db.create(table: "syncTrash") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("account", .text).notNull()
                t.column("uid", .text).notNull()
                t.column("title", .text).notNull()
                t.column("start", .datetime).notNull()
                t.column("ics", .text).notNull()
                t.column("removedAt", .datetime).notNull()
                // Brought back by the user: out of the listing, and the UID goes back to this account.
                t.column("restoredAt", .datetime)
            }
        }
        migrator.registerMigration("v9-sync: UIDs per account") { db in
            // A UID names an event in one account's calendar (or, NULL, one no account has yet): two
            // servers serving one UID make two appointments, and neither server reaches the other's.
            try db.alter(table: "appointment") { t in t.add(column: "account", .text) }
            let owners = "SELECT uid, min(account) AS account FROM syncResource GROUP BY uid"
            try db.execute(
                sql:
                    "UPDATE appointment SET account = owner.account FROM (\(owners)) AS owner WHERE appointment.uid = owner.uid"
            )
            try db.execute(sql: "DROP INDEX appointment_on_uid")
            try db.execute(
                sql:
                    "CREATE UNIQUE INDEX appointment_on_uid ON appointment(IFNULL(account, ''), uid, IFNULL(recurrenceId, ''))"
            )
            // The outbox is keyed by (account, UID) too; '' is the account of an appointment no account has yet.
            // Its triggers name the old table: they go, and `matchTriggersToAccounts` makes them again.
            for name in triggerNames { try db.execute(sql: "DROP TRIGGER IF EXISTS \(name)") }
            try db.create(table: "syncOutboxByAccount") { t in
                t.column("account", .text).notNull()
                t.column("uid", .text).notNull()
                t.column("queuedAt", .datetime).notNull()
                t.primaryKey(["account", "uid"])
            }
            try db.execute(
                sql: """
                    INSERT INTO syncOutboxByAccount(account, uid, queuedAt)
                    SELECT IFNULL(owner.account, ''), syncOutbox.uid, syncOutbox.queuedAt
                    FROM syncOutbox LEFT JOIN (\(owners)) AS owner ON owner.uid = syncOutbox.uid
                    """)
            try db.drop(table: "syncOutbox")
            try db.rename(table: "syncOutboxByAccount", to: "syncOutbox")
        }
    }

    static let triggerNames = [
        "syncQueueInsert", "syncQueueDelete", "syncQueueUpdate", "syncQueueReminderInsert",
        "syncQueueContact", "syncQueueReminderDelete",
    ]

    /// The outbox's triggers exist while an account does, and only then: every trigger costs each
    /// insert its call even when its WHEN is false (an import of 100,000 events took 4.7 s with them
    /// and 3.7 s without), and a user without sync should not pay for it. Called when an account is
    /// added or removed (in that transaction) and at every open (a recovered or restored file may
    /// carry accounts without triggers or the other way round).
    static func matchTriggersToAccounts(_ db: Database) throws {
        let wanted = try Int.fetchOne(db, sql: "SELECT count(*) FROM syncAccount") ?? 0 > 0
        let present =
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'syncQueue%'") ?? 0
        if wanted, present == triggerNames.count { return }
        if !wanted, present == 0 { return }
        for name in triggerNames { try db.execute(sql: "DROP TRIGGER IF EXISTS \(name)") }
        if wanted { try createTriggers(db) }
    }

    private static func createTriggers(_ db: Database) throws {
        // A UID queued again takes the later time: a push that began before this change then leaves
        // it queued (it drops only what was queued before it read the event).
        let queue = { (row: String) in
            "INSERT INTO syncOutbox(account, uid, queuedAt) VALUES (\(outboxAccount(row)), \(resourceUID(row)), \(now)) ON CONFLICT(account, uid) DO UPDATE SET queuedAt = excluded.queuedAt;"
        }
        let changed = syncedColumns.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR ")
        try db.execute(
            sql: """
                CREATE TRIGGER syncQueueInsert AFTER INSERT ON appointment WHEN \(enabled)
                BEGIN \(queue("NEW")) END;
                CREATE TRIGGER syncQueueDelete AFTER DELETE ON appointment WHEN \(enabled)
                BEGIN \(queue("OLD")) END;
                CREATE TRIGGER syncQueueUpdate AFTER UPDATE ON appointment WHEN (\(enabled)) AND (\(changed))
                BEGIN \(queue("OLD")) \(queue("NEW"))
                      DELETE FROM syncOutbox WHERE OLD.uid IS NULL AND NEW.uid IS NOT NULL AND uid = \(resourceUID("OLD"))
                      AND account = \(outboxAccount("OLD")); END;
                CREATE TRIGGER syncQueueReminderInsert AFTER INSERT ON appointmentReminder WHEN \(enabled)
                BEGIN INSERT INTO syncOutbox(account, uid, queuedAt) SELECT \(outboxAccount("appointment")), \(resourceUID("appointment")), \(now)
                      FROM appointment WHERE appointment.id = NEW.appointmentId ON CONFLICT(account, uid) DO UPDATE SET queuedAt = excluded.queuedAt; END;
                CREATE TRIGGER syncQueueContact AFTER UPDATE OF name, phone ON contact
                WHEN (\(enabled)) AND (OLD.name IS NOT NEW.name OR OLD.phone IS NOT NEW.phone)
                BEGIN INSERT INTO syncOutbox(account, uid, queuedAt) SELECT \(outboxAccount("appointment")), \(resourceUID("appointment")), \(now)
                      FROM appointment WHERE appointment.contactId = NEW.id ON CONFLICT(account, uid) DO UPDATE SET queuedAt = excluded.queuedAt; END;
                CREATE TRIGGER syncQueueReminderDelete AFTER DELETE ON appointmentReminder WHEN \(enabled)
                BEGIN INSERT INTO syncOutbox(account, uid, queuedAt) SELECT \(outboxAccount("appointment")), \(resourceUID("appointment")), \(now)
                      FROM appointment WHERE appointment.id = OLD.appointmentId ON CONFLICT(account, uid) DO UPDATE SET queuedAt = excluded.queuedAt; END;
                """)
    }
}
