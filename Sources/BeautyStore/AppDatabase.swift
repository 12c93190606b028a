import BeautyCore
import Foundation
import GRDB
import Synchronization

/// The store: every method that changes something user-visible is one transaction, so a crash or an
/// error leaves either all of the change or none of it. Its file is WAL with synchronous=FULL, so an
/// answered write survives a crash; tests hand it an in-memory queue instead (`inMemory()`).
public final class AppDatabase: Sendable {
    public let writer: PrioritizedWriter
    /// The database file (":memory:" for an in-memory one), for messages.
    public let path: String
    /// How far the Notify calls of a committed instant got (`<database>-showing`).
    public let showingProgress: ShowingProgress
    /// The time of day an all-day appointment's reminders are counted back from (`AllDayReminders`);
    /// the daemon sets it from its configuration.
    public var allDayReminderTime: ClockTime {
        get { allDayReminderTimeValue.withLock { $0 } }
        set { allDayReminderTimeValue.withLock { $0 = newValue } }
    }
    private let allDayReminderTimeValue = Mutex(AllDayReminders.defaultTime)

    public var budget: BudgetStore { BudgetStore(writer: writer) }
    public var categories: CategoryStore { CategoryStore(writer: writer) }
    public var contacts: ContactStore { ContactStore(writer: writer) }
    public var status: StatusStore { StatusStore(writer: writer) }
    /// Backup and restore copy the whole file through the one writer: they need its path too.
    public var backup: BackupStore { BackupStore(writer: writer, path: path) }
    public var sync: SyncStore { SyncStore(writer: writer, appointments: self) }
    public var appointments: AppointmentStore { AppointmentStore(database: self) }
    public var occurrences: OccurrenceStore { OccurrenceStore(database: self) }
    public var measurements: MeasurementStore { MeasurementStore(writer: writer) }
    public var water: WaterStore { WaterStore(writer: writer) }
    public var medications: MedicationStore { MedicationStore(writer: writer) }
    public var deliveries: DeliveryStore { DeliveryStore(writer: writer) }
    public var history: HistoryStore { HistoryStore(writer: writer) }
    public var doseTasks: DoseTaskStore { DoseTaskStore(writer: writer) }

    /// Brings the schema of `database` up to date and keeps it as the store's only writer.
    public init(_ database: any DatabaseWriter) throws {
        try Self.migrator.migrate(database)
        try database.write { db in try SyncSchema.matchTriggersToAccounts(db) }
        self.writer = PrioritizedWriter(database)
        self.path = database.path
        showingProgress = ShowingProgress(databasePath: database.path)
    }

    /// A store in memory, for tests: the same schema and connection settings, without a file.
    public static func inMemory() throws -> AppDatabase {
        try AppDatabase(DatabaseQueue(configuration: configuration))
    }

    /// Opens (creating if needed) the database file and brings its schema up to date. A file that is
    /// empty, unwritable, damaged or migrated by a newer beautyd is refused (`DatabaseRefusal`).
    /// `version` (beautyd's) is recorded in the file so that an older beautyd can name it.
    public static func open(path: String, version: String? = nil) throws -> AppDatabase {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        try DatabaseOpening.refusePlanted(path)
        try DatabaseOpening.refuseSecondName(path)
        let created = !FileManager.default.fileExists(atPath: path)
        try DatabaseOpening.refuseEmptyFile(path)
        DatabaseOpening.restoreOwnSideFileModes(path)
        try DatabaseOpening.refuseNotWritable(path)
        // SQLite gives -wal and -shm the database file's own mode whatever the umask, so a file left
        // readable by others (restored from a backup, made with sqlite3) would leak through all three.
        for file in [path, path + "-wal", path + "-shm"] { Self.makePrivate(file) }
        return try DatabaseOpening.open(path, configuration: configuration) { pool in
            if created { chmod(path, 0o600) }
            try DatabaseOpening.refuseDamaged(pool, path: path)
            try DatabaseOpening.refuseNewerSchema(pool, path: path, migrator: Self.migrator, version: version)
            let store = try AppDatabase(pool)
            try DatabaseOpening.recordVersion(pool, version)
            return store
        }
    }

    private static var configuration: Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(5)
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        return config
    }

    /// Takes away group and other permissions from an existing file; a missing file is left alone.
    static func makePrivate(_ file: String) {
        var info = stat()
        guard stat(file, &info) == 0, info.st_mode & 0o077 != 0 else { return }
        chmod(file, info.st_mode & 0o700)
    }

    /// The schema, one versioned step at a time; never edit a shipped migration, add a new one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: contacts, appointments, reminders, deliveries") { db in
            try db.create(table: "contact") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("phone", .text).notNull()
                t.column("email", .text)
                t.column("firstName", .text)
                t.column("lastName", .text)
                t.column("address", .text)
            }
            try db.create(table: "appointment") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text).notNull()
                t.column("start", .datetime).notNull().indexed()
                t.column("durationSeconds", .integer).notNull()
                t.column("allDay", .boolean).notNull().defaults(to: false)
                t.column("address", .text)
                t.column("notes", .text)
                t.belongsTo("contact", onDelete: .setNull)
                t.column("category", .text)
                t.column("color", .text)
                t.column("priceCents", .integer)
                t.column("currency", .text)
                t.column("status", .text).notNull().defaults(to: "scheduled")
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .datetime).notNull()
            }
            try db.create(table: "appointmentReminder") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("appointment", onDelete: .cascade).notNull()
                t.column("beforeSeconds", .integer)
                t.column("at", .datetime)
            }
            // One row per (item, occurrence, fire instant): the exactly-once ledger of the scheduler.
            try db.create(table: "delivery") { t in
                t.primaryKey("key", .text)
                t.column("itemKind", .text).notNull()
                t.column("itemID", .integer).notNull()
                t.column("occurrence", .datetime).notNull()
                t.column("fireAt", .datetime).notNull()
                t.column("state", .text).notNull().defaults(to: "pending")
                t.column("source", .text).notNull().defaults(to: "plan")
                t.column("firedAt", .datetime)
                t.column("settledAt", .datetime)
                t.column("attempts", .integer).notNull().defaults(to: 0)
                t.column("lastError", .text)
            }
            try db.create(index: "delivery_on_state_fireAt", on: "delivery", columns: ["state", "fireAt"])
            try db.create(index: "delivery_on_item", on: "delivery", columns: ["itemKind", "itemID"])
            try db.create(table: "setting") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
        }
        migrator.registerMigration("v2: medications and doses") { db in
            try db.create(table: "medication") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("dose", .text)
                t.column("notes", .text)
                t.column("startDate", .text)
                t.column("endDate", .text)
                t.column("position", .integer).notNull()
                t.column("schedule", .jsonText).notNull()
                t.column("stock", .double)
                t.column("lowStock", .double)
                t.column("lowStockWarned", .boolean).notNull().defaults(to: false)
                // Doses exist as rows up to this instant; the scheduler extends it as time passes.
                t.column("plannedUntil", .datetime)
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .datetime).notNull()
            }
            try db.create(table: "dose") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("medication", onDelete: .cascade).notNull()
                t.column("scheduledAt", .datetime).notNull()
                t.column("state", .text).notNull().defaults(to: "pending")
                t.column("confirmedAt", .datetime)
                t.column("nagCount", .integer).notNull().defaults(to: 0)
                // Delivery key of the notification now on screen for this dose (re-notified in place).
                t.column("shownKey", .text)
                t.uniqueKey(["medicationId", "scheduledAt"])
            }
            try db.create(index: "dose_on_scheduledAt", on: "dose", columns: ["scheduledAt"])
        }
        migrator.registerMigration("v3: zones, recurrence, cycles after done, iCalendar UIDs") { db in
            try db.alter(table: "appointment") { t in
                t.add(column: "timeZone", .text)
                t.add(column: "recurrence", .jsonText)
                t.add(column: "repeatAfterDoneSeconds", .integer)
                t.add(column: "uid", .text)
                // Recurring appointments have deliveries up to this instant; the scheduler extends it.
                t.add(column: "plannedUntil", .datetime)
            }
            try db.create(index: "appointment_on_uid", on: "appointment", columns: ["uid"], unique: true)
            try db.alter(table: "medication") { t in
                t.add(column: "timeZone", .text)
            }
        }
        migrator.registerMigration("v4: measurements, water, budget, categories") { db in
            // One body measurement per local day; a second one for the same day replaces it.
            try db.create(table: "measurement") { t in
                t.primaryKey("day", .text)
                t.column("weightKg", .double).notNull()
                t.column("heightCm", .double)
                t.column("bmi", .double)
                t.column("updatedAt", .datetime).notNull()
            }
            try db.create(table: "water") { t in
                t.autoIncrementedPrimaryKey("id")
                // Imported records keep their source's UUID, so importing twice inserts nothing new.
                t.column("uuid", .text).notNull().unique()
                t.column("amountMl", .integer).notNull()
                t.column("startAt", .datetime).notNull().indexed()
                t.column("endAt", .datetime)
            }
            try db.create(table: "budgetEntry") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                // Income positive, expense negative, in cents.
                t.column("amountCents", .integer).notNull()
                t.column("currency", .text).notNull()
                t.column("at", .datetime).notNull().indexed()
                // The done appointment an expense was recorded for (at most one each).
                t.column("appointmentId", .integer).unique().references("appointment", onDelete: .setNull)
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .datetime).notNull()
            }
            // A two-level tree of treatment categories; a parent includes its children.
            try db.create(table: "category") { t in
                t.primaryKey("name", .text)
                t.column("parent", .text).references("category", onDelete: .cascade)
                t.column("title", .text).notNull()
            }
            let tree: [(String, String, [(String, String)])] = [
                ("hair", "Hair", [("hair/cut", "Haircut"), ("hair/colour", "Colouring"), ("hair/styling", "Styling")]),
                ("nails", "Nails", [("nails/manicure", "Manicure"), ("nails/pedicure", "Pedicure")]),
                (
                    "face", "Face",
                    [("face/facial", "Facial"), ("face/brows", "Brows and lashes"), ("face/makeup", "Make-up")]
                ),
                ("body", "Body", [("body/massage", "Massage"), ("body/waxing", "Waxing"), ("body/spa", "Spa")]),
            ]
            for (name, title, children) in tree {
                try db.execute(
                    sql: "INSERT INTO category(name, parent, title) VALUES (?, NULL, ?)", arguments: [name, title])
                for (child, childTitle) in children {
                    try db.execute(
                        sql: "INSERT INTO category(name, parent, title) VALUES (?, ?, ?)",
                        arguments: [child, name, childTitle])
                }
            }
        }
        migrator.registerMigration("v5: series planning index") { db in
            // Every scheduler pass asks for the next series-planning instant and the series to extend;
            // without this both scan the whole appointment table (12-25 ms at 100,000 appointments).
            try db.execute(
                sql:
                    "CREATE INDEX appointment_series_planning ON appointment(plannedUntil) WHERE recurrence IS NOT NULL"
            )
        }
        migrator.registerMigration("v6: changed occurrences, free tags, kept iCalendar properties") { db in
            try db.alter(table: "appointment") { t in
                // A changed occurrence of a series: the series and the start it had there (RECURRENCE-ID).
                t.add(column: "seriesId", .integer).references("appointment", onDelete: .cascade)
                t.add(column: "recurrenceId", .datetime)
                t.add(column: "tags", .jsonText)
                t.add(column: "extraProperties", .jsonText)
            }
            // A series and its changed occurrences share a UID; each occurrence once.
            try db.execute(sql: "DROP INDEX appointment_on_uid")
            try db.execute(sql: "CREATE UNIQUE INDEX appointment_on_uid ON appointment(uid, IFNULL(recurrenceId, ''))")
            try db.execute(
                sql: "CREATE INDEX appointment_on_series ON appointment(seriesId) WHERE seriesId IS NOT NULL")
        }
        migrator.registerMigration("v7: contact UIDs (vCard)") { db in
            try db.alter(table: "contact") { t in t.add(column: "uid", .text) }
            try db.execute(sql: "CREATE UNIQUE INDEX contact_on_uid ON contact(uid) WHERE uid IS NOT NULL")
        }
        SyncSchema.register(&migrator)
        migrator.registerMigration("v10-contact-language: the language of a contact's SMS texts") { db in
            try db.alter(table: "contact") { t in t.add(column: "language", .text) }
        }
        migrator.registerMigration("v11: deliveries committed ahead of their instant") { db in
            // The instant a pending delivery was committed to be shown at (`commitAhead`); NULL otherwise.
            try db.alter(table: "delivery") { t in t.add(column: "committedFor", .datetime) }
        }
        DoseTaskSchema.register(&migrator)
        return migrator
    }

    /// Names of applied migrations, oldest first (for `status` and tests).
    public func appliedMigrations() throws -> [String] {
        try writer.read { db in try Self.migrator.appliedMigrations(db) }
    }
}

/// A store error a client can act on.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    case notFound(kind: String, id: Int64)

    public var description: String {
        switch self {
        case let .notFound(kind, id): return "no \(kind) with id \(id)"
        }
    }
}
