import BeautyCore
@testable import BeautyStore
import Foundation
import GRDB
import Testing

/// A UID names an event within one sync account (or among the appointments no account has yet):
/// one server serving another's UID makes an appointment of its own and never reaches the other's.
@Suite("Store: UIDs per sync account")
struct UIDPerAccountTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    func account(_ name: String, createdAt: Date) -> SyncAccount {
        SyncAccount(
            name: name, url: "http://127.0.0.1:5232/\(name)/", user: "anna", passwordFile: "/tmp/pw",
            calendarURL: "http://127.0.0.1:5232/\(name)/beauty/", calendarName: "Beauty", insecure: false,
            supportsSyncCollection: true, createdAt: createdAt)
    }

    func visit(_ title: String, uid: String, hours: Double = 30) -> Appointment {
        Appointment(title: title, start: now.addingTimeInterval(hours * 3600), reminders: [.before(3600)], uid: uid)
    }

    func serverEvent(_ account: String, _ appointment: Appointment) -> ServerChanges {
        var changes = ServerChanges()
        let uid = appointment.uid!
        changes.changed = [
            ServerEvent(
                resource: SyncedResource(
                    account: account, uid: uid, href: "/\(account)/beauty/\(uid).ics", etag: "\"1\"", ics: "x"),
                appointments: [appointment], contacts: [nil])
        ]
        return changes
    }

    func rows(_ db: AppDatabase) throws -> [String] {
        try db.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT title, IFNULL(account, '-') AS account FROM appointment ORDER BY id").map
            { "\($0["title"] as String)@\($0["account"] as String)" }
        }
    }

    /// A store with accounts a and b (a added first) whose servers each served an event under `uid`.
    func twoAccounts(serving uid: String, a: String, b: String) throws -> AppDatabase {
        let db = try AppDatabase.inMemory()
        try db.sync.addAccount(account("a", createdAt: now))
        try db.sync.addAccount(account("b", createdAt: now.addingTimeInterval(1)))
        // b's first: which one a UID names must not depend on which came first.
        try db.sync.applyServerChanges(
            serverEvent("b", visit(b, uid: uid, hours: 40)), account: "b", now: now, zone: zone)
        try db.sync.applyServerChanges(serverEvent("a", visit(a, uid: uid)), account: "a", now: now, zone: zone)
        return db
    }

    @Test(
        "two accounts' servers with one UID: two appointments; one account's change and deletion leave the other's alone"
    )
    func oneUIDInTwoAccounts() throws {
        let db = try twoAccounts(serving: "same@x", a: "Mine", b: "Theirs")
        #expect(try rows(db) == ["Theirs@b", "Mine@a"])
        #expect(try db.sync.outbox().isEmpty)

        try db.sync.applyServerChanges(
            serverEvent("b", visit("Theirs, moved", uid: "same@x", hours: 41)), account: "b", now: now, zone: zone)
        var removal = ServerChanges()
        removal.removed = ["/b/beauty/same@x.ics"]
        try db.sync.applyServerChanges(removal, account: "b", now: now, zone: zone)
        #expect(try rows(db) == ["Mine@a"])
        #expect(try db.sync.resource(account: "a", uid: "same@x") != nil)

        // A local edit of A's queues A's event, not B's.
        let mine = try #require(try db.appointments.get(uid: "same@x", scope: .account("a")))
        var edited = mine
        edited.title = "Mine, edited"
        _ = try db.appointments.update(edited, now: now, zone: zone)
        #expect(try db.sync.outbox().map { "\($0.account ?? "-") \($0.uid)" } == ["a same@x"])

        // Removing the account keeps its appointment and its waiting change, as no account's.
        try db.sync.removeAccount(named: "a")
        #expect(try rows(db) == ["Mine, edited@-"])
        #expect(try db.sync.outbox().map { "\($0.account ?? "-") \($0.uid)" } == ["- same@x"])
    }

    @Test(
        "a user's import with a UID updates the appointment no account has yet, else the first account's; it never makes a second one"
    )
    func importMatchesTheUnsyncedOneFirst() throws {
        let db = try twoAccounts(serving: "u@x", a: "A's", b: "B's")
        let first = try db.appointments.importAll([visit("Imported", uid: "u@x")], now: now, zone: zone)
        #expect(first.updated == 1 && first.inserted == 0)
        #expect(try rows(db) == ["B's@b", "Imported@a"])

        _ = try db.appointments.importAll([visit("Local", uid: "local@x")], now: now, zone: zone)
        try db.sync.applyServerChanges(
            serverEvent("b", visit("Served", uid: "local@x", hours: 50)), account: "b", now: now, zone: zone)
        // The pull took the local event in (it was no account's yet): one appointment, B's now.
        #expect(try rows(db) == ["B's@b", "Imported@a", "Served@b"])
        #expect(try db.sync.outbox().filter { $0.uid == "local@x" }.isEmpty)
    }

    @Test("a database from before UIDs were per account keeps its synced appointments, their accounts and its outbox")
    func migrationFromTheSharedUIDSchema() throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v8-sync-safety: sync warnings, appointments removed by a pull")
        try queue.write { db in
            for (name, created) in [("a", "2026-01-01 10:00:00.000"), ("b", "2026-01-02 10:00:00.000")] {
                try db.execute(
                    sql: """
                        INSERT INTO syncAccount(name, url, user, calendarURL, createdAt) VALUES (?, 'http://127.0.0.1/', 'anna', 'http://127.0.0.1/cal/', ?)
                        """, arguments: [name, created])
            }
            for (title, uid) in [("Synced with a", "a1@x"), ("Synced with b", "b1@x"), ("Only here", "local@x")] {
                try db.execute(
                    sql: """
                        INSERT INTO appointment(title, start, durationSeconds, createdAt, updatedAt, uid)
                        VALUES (?, '2030-01-01 10:00:00.000', 3600, '2026-01-01 10:00:00.000', '2026-01-01 10:00:00.000', ?)
                        """, arguments: [title, uid])
            }
            try db.execute(
                sql:
                    "INSERT INTO syncResource(account, uid, href, etag, ics) VALUES ('a', 'a1@x', '/cal/a1.ics', '1', 'x'), ('b', 'b1@x', '/cal/b1.ics', '2', 'y')"
            )
            try db.execute(
                sql:
                    "INSERT INTO syncOutbox(uid, queuedAt) VALUES ('b1@x', '2026-01-03 10:00:00.000'), ('local@x', '2026-01-03 10:00:00.000')"
            )
        }
        let db = try AppDatabase(queue)
        #expect(try rows(db) == ["Synced with a@a", "Synced with b@b", "Only here@-"])
        #expect(try db.sync.outbox().map { "\($0.account ?? "-") \($0.uid)" }.sorted() == ["- local@x", "b b1@x"])
        #expect(try db.sync.accounts().map(\.name) == ["a", "b"])
        #expect(try db.sync.resource(account: "a", uid: "a1@x")?.href == "/cal/a1.ics")

        // The triggers follow the new outbox, and A serving B's UID makes A's own appointment.
        try db.sync.applyServerChanges(
            serverEvent("a", visit("A's copy", uid: "b1@x")), account: "a", now: now, zone: zone)
        #expect(try rows(db) == ["Synced with a@a", "Synced with b@b", "Only here@-", "A's copy@a"])
        let local = try #require(try db.appointments.get(uid: "local@x"))
        var edited = local
        edited.title = "Only here, edited"
        _ = try db.appointments.update(edited, now: now, zone: zone)
        #expect(try db.sync.outbox().map { "\($0.account ?? "-") \($0.uid)" }.sorted() == ["- local@x", "b b1@x"])
    }

    @Test(
        "an occurrence changed here and a series split here stay in the series' account: pushed to its server only, never duplicated by its next pull"
    )
    func occurrencesAndSplitsStayInTheSeriesAccount() throws {
        let db = try AppDatabase.inMemory()
        try db.sync.addAccount(account("a", createdAt: now))
        try db.sync.addAccount(account("b", createdAt: now.addingTimeInterval(1)))
        var weekly = visit("Nails", uid: "nails@b")
        weekly.recurrence = AppointmentRecurrence(rule: "FREQ=WEEKLY;COUNT=6")
        try db.sync.applyServerChanges(serverEvent("b", weekly), account: "b", now: now, zone: zone)
        let series = try #require(
            try db.writer.read { try Int64.fetchOne($0, sql: "SELECT id FROM appointment WHERE uid = 'nails@b'") })
        let first = weekly.start

        let changed = try db.occurrences.change(
            seriesID: series, occurrence: first.addingTimeInterval(7 * 86_400), now: now, zone: zone
        ) { $0.title = "Gel" }
        #expect(try rows(db) == ["Nails@b", "Gel@b"])
        let queued = try db.sync.outbox()
        #expect(queued.allSatisfy { $0.account == "b" }, "\(queued)")
        // b's server sends the series back with that occurrence: the same row, not a second one.
        var override = weekly
        override.title = "Gel"
        override.recurrence = nil
        override.recurrenceID = changed.recurrenceID
        override.start = changed.start
        var pulled = serverEvent("b", weekly)
        pulled.changed[0].appointments.append(override)
        pulled.changed[0].contacts.append(nil)
        try db.sync.applyServerChanges(pulled, account: "b", now: now, zone: zone)
        #expect(try rows(db).filter { $0.hasPrefix("Gel") } == ["Gel@b"])

        let tail = try db.occurrences.split(
            id: series, at: first.addingTimeInterval(3 * 7 * 86_400), now: now, zone: zone)
        let after = try rows(db), outbox = try db.sync.outbox()
        #expect(after.allSatisfy { $0.hasSuffix("@b") }, "\(after)")
        #expect(
            outbox.contains { $0.account == "b" && $0.uid == tail.uid } && outbox.allSatisfy { $0.account == "b" },
            "\(outbox)")
    }
}
