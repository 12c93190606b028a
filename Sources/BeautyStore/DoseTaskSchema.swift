import GRDB

/// The tables of doses on the phone (docs/PHONE_TASKS.md): an account's dose task list, each
/// medication's random task key, the tasks beautyd has on the list and what it reported of them.
enum DoseTaskSchema {
    static func register(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v12-dose-tasks: doses on the phone as CalDAV tasks") { db in
            try db.alter(table: "syncAccount") { t in
                t.add(column: "dosesEnabled", .boolean).notNull().defaults(to: false)
                // The task list (a collection of its own, never the event calendar) and its name.
                t.add(column: "dosesListURL", .text)
                t.add(column: "dosesListName", .text)
                // "Dose 08:00" instead of the medication's name on the server.
                t.add(column: "dosesPrivate", .boolean).notNull().defaults(to: false)
                t.add(column: "dosesSyncToken", .text)
                t.add(column: "dosesCtag", .text)
                t.add(column: "dosesSupportsSyncCollection", .boolean).notNull().defaults(to: true)
                // The deletion guard held a poll back: nothing is skipped or put back until the user says.
                t.add(column: "dosesPaused", .boolean).notNull().defaults(to: false)
            }
            // Eight random hex digits naming the medication in task UIDs: no name leaves the machine,
            // and a rename keeps its tasks.
            try db.alter(table: "medication") { t in t.add(column: "taskKey", .text) }
            try db.execute(sql: "UPDATE medication SET taskKey = lower(hex(randomblob(4))) WHERE taskKey IS NULL")
            // Where a dose was answered: 'desktop' (a button, beautyctl) or 'phone' (its task); NULL before.
            try db.alter(table: "dose") { t in t.add(column: "answerSource", .text) }
            // One row per task beautyd has on an account's list: where it is, the ETag beautyd last
            // wrote or read there, and the text it last wrote (what a rewrite compares against).
            try db.create(table: "doseTask") { t in
                t.column("account", .text).notNull().references("syncAccount", onDelete: .cascade)
                t.column("uid", .text).notNull()
                t.column("href", .text).notNull()
                t.column("etag", .text)
                // No foreign key: an answered task stays as history after its medication is removed.
                t.column("medicationId", .integer).notNull()
                t.column("scheduledAt", .datetime).notNull()
                t.column("ics", .text).notNull()
                // beautyd's answer on the task (taken, skipped, missed); NULL while it is open.
                t.column("writtenState", .text)
                t.column("writtenAt", .datetime).notNull()
                t.column("createdAt", .datetime).notNull()
                t.column("sequence", .integer).notNull().defaults(to: 0)
                t.primaryKey(["account", "uid"])
            }
            try db.create(index: "doseTask_on_href", on: "doseTask", columns: ["account", "href"], unique: true)
            try db.create(index: "doseTask_on_scheduledAt", on: "doseTask", columns: ["scheduledAt"])
            // What a dose sync reports for `sync status`: an answer that gave way, a task put back.
            try db.create(table: "doseTaskReport") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("account", .text).notNull().references("syncAccount", onDelete: .cascade)
                t.column("uid", .text).notNull()
                t.column("medicationId", .integer).notNull()
                t.column("scheduledAt", .datetime).notNull()
                t.column("kind", .text).notNull()
                t.column("answer", .text)
                t.column("answeredAt", .datetime)
                t.column("detectedAt", .datetime).notNull()
            }
        }
    }
}
