import BeautyCore
import BeautyStore
import Foundation
import Testing

/// The sync tables: local changes queue their UID in the same transaction, what sync applies from a
/// server does not, and an event updated from the server keeps its row (and so its reminders' ledger).
@Suite("Store: sync outbox, server changes, accounts")
struct SyncStoreTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let zone = TimeZone(identifier: "Europe/Warsaw")!

    func account(_ name: String = "phone") -> SyncAccount {
        SyncAccount(
            name: name, url: "http://127.0.0.1:5232/anna/", user: "anna", passwordFile: "/tmp/pw",
            calendarURL: "http://127.0.0.1:5232/anna/beauty/", calendarName: "Beauty", insecure: false,
            supportsSyncCollection: true, createdAt: now)
    }

    func visit(_ title: String, uid: String? = nil, hours: Double = 30) -> Appointment {
        Appointment(title: title, start: now.addingTimeInterval(hours * 3600), reminders: [.before(3600)], uid: uid)
    }

    @Test(
        "without an account nothing is queued; the first account takes what is stored; edits, reminder and contact changes and deletes queue the UID once"
    )
    func localChangesQueue() throws {
        let db = try AppDatabase.inMemory()
        let early = try db.appointments.add(visit("Early", uid: "early@x"), now: now, zone: zone)
        #expect(try db.sync.outbox().isEmpty)
        try db.sync.addAccount(account())
        #expect(try db.sync.outbox().map(\.uid) == ["early@x"])
        try db.sync.dropFromOutbox(uid: "early@x", queuedBefore: Date().addingTimeInterval(60))

        let added = try db.appointments.add(visit("Nails"), now: now, zone: zone)
        #expect(
            try db.sync.outbox().map(\.uid) == ["appointment-\(added.id!)@beautyd"], "\((try? db.sync.outbox()) ?? [])")
        _ = try db.appointments.update(id: early.id!, now: now, zone: zone) { $0.reminders = [.before(7200)] }
        _ = try db.appointments.update(id: early.id!, now: now, zone: zone) { $0.title = "Early visit" }
        #expect(Set(try db.sync.outbox().map(\.uid)) == ["appointment-\(added.id!)@beautyd", "early@x"])
        try db.sync.dropFromOutbox(uid: "early@x", queuedBefore: Date().addingTimeInterval(60))

        // Planning deliveries further ahead touches the row without changing the event.
        _ = try db.appointments.add(
            Appointment(
                title: "Weekly", start: now, recurrence: AppointmentRecurrence(rule: "FREQ=WEEKLY"), uid: "weekly@x"),
            now: now, zone: zone)
        try db.sync.dropFromOutbox(uid: "weekly@x", queuedBefore: Date().addingTimeInterval(60))
        try db.planSeries(now: now.addingTimeInterval(20 * 86_400), zone: zone)
        #expect(!(try db.sync.outbox().map(\.uid)).contains("weekly@x"))

        // A contact's new phone number travels with the events that name it.
        let contact = try db.contacts.add(Contact(name: "Ola", phone: "600 100 200"))
        _ = try db.appointments.update(id: early.id!, now: now, zone: zone) { $0.contactID = contact.id }
        try db.sync.dropFromOutbox(uid: "early@x", queuedBefore: Date().addingTimeInterval(60))
        var renumbered = contact
        renumbered.phone = "600 100 300"
        _ = try db.contacts.update(renumbered)
        #expect(try db.sync.outbox().map(\.uid).contains("early@x"))
        try db.sync.dropFromOutbox(uid: "early@x", queuedBefore: Date().addingTimeInterval(60))

        try db.appointments.delete(id: early.id!)
        #expect(try db.sync.outbox().map(\.uid).contains("early@x"))
        // A change made after the push began stays queued.
        let queued = try #require(try db.sync.outbox().first { $0.uid == "early@x" })
        try db.sync.dropFromOutbox(uid: "early@x", queuedBefore: queued.queuedAt.addingTimeInterval(-1))
        #expect(try db.sync.outbox().map(\.uid).contains("early@x"))
        try db.sync.removeAccount(named: "phone")
        #expect(try db.sync.outbox().isEmpty)
    }

    @Test(
        "an edit made while a push of the same event is under way stays queued: the UID takes the later change's time")
    func anEditDuringAPushStaysQueued() throws {
        let db = try AppDatabase.inMemory()
        try db.sync.addAccount(account())
        let visit = try db.appointments.add(visit("Nails", uid: "nails@x"), now: now, zone: zone)
        let firstQueued = try #require(try db.sync.outbox().first { $0.uid == "nails@x" }?.queuedAt)
        Thread.sleep(forTimeInterval: 0.01)  // the triggers stamp the wall clock (milliseconds)
        _ = try db.appointments.update(id: visit.id!, now: now, zone: zone) { $0.title = "Nails and pedicure" }
        // The push read the event as it was when first queued; it drops what was queued up to then.
        try db.sync.dropFromOutbox(uid: "nails@x", queuedBefore: firstQueued)
        #expect(try db.sync.outbox().map(\.uid) == ["nails@x"], "the later edit must still go to the server")
    }

    @Test(
        "the outbox's triggers exist only while an account does, and a file opened with accounts but without them gets them"
    )
    func triggersFollowTheAccounts() throws {
        func triggers(_ db: AppDatabase) throws -> Int {
            try db.writer.read {
                try Int.fetchOne(
                    $0, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'syncQueue%'")
                    ?? -1
            }
        }
        let temp = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sync-triggers-\(UUID().uuidString).sqlite"
        ).path
        defer { for suffix in ["", "-wal", "-shm"] { unlink(temp + suffix) } }
        do {
            let db = try AppDatabase.open(path: temp)
            #expect(try triggers(db) == 0, "no account: an insert pays for no trigger")
            try db.sync.addAccount(account("one"))
            try db.sync.addAccount(account("two"))
            #expect(try triggers(db) == 6)
            try db.sync.removeAccount(named: "one")
            #expect(try triggers(db) == 6, "one account left")
            try db.sync.removeAccount(named: "two")
            #expect(try triggers(db) == 0)
            // What `beautyd --recover` or an old copy could leave: an account, no triggers.
            try db.sync.addAccount(account("three"))
            try db.writer.write { db in
                for name in ["syncQueueInsert", "syncQueueUpdate"] { try db.execute(sql: "DROP TRIGGER \(name)") }
            }
        }
        let reopened = try AppDatabase.open(path: temp)
        #expect(try triggers(reopened) == 6)
        _ = try reopened.appointments.add(visit("After reopening", uid: "after@x"), now: now, zone: zone)
        #expect(try reopened.sync.outbox().map(\.uid).contains("after@x"))
    }

    @Test(
        "a server change updates the row in place without queueing it; a server deletion removes it; conflict copies are kept"
    )
    func serverChangesApplyQuietly() throws {
        let db = try AppDatabase.inMemory()
        try db.sync.addAccount(account())
        let stored = try db.appointments.add(visit("Haircut", uid: "cut@phone"), now: now, zone: zone)
        try db.sync.dropFromOutbox(uid: "cut@phone", queuedBefore: Date().addingTimeInterval(60))

        var changes = ServerChanges()
        var moved = visit("Haircut", uid: "cut@phone", hours: 31)
        moved.extraProperties = ["X-PHONE-APP:kept"]
        let resource = SyncedResource(
            account: "phone", uid: "cut@phone", href: "/anna/beauty/cut.ics", etag: "\"1\"", ics: "BEGIN:VCALENDAR")
        changes.changed = [
            ServerEvent(resource: resource, appointments: [moved], contacts: [nil]),
            ServerEvent(
                resource: SyncedResource(
                    account: "phone", uid: "new@phone", href: "/anna/beauty/new.ics", etag: "\"2\"", ics: "x"),
                appointments: [visit("Brows", uid: "new@phone")], contacts: [nil]),
        ]
        changes.conflicts = [
            SyncConflict(
                account: "phone", uid: "cut@phone", title: "Haircut", reason: "changed on both sides", ics: "local",
                detectedAt: now)
        ]
        changes.syncToken = "token-1"
        let counts = try db.sync.applyServerChanges(changes, account: "phone", now: now, zone: zone)
        #expect(counts.updated == 1 && counts.inserted == 1)
        #expect(try db.sync.outbox().isEmpty, "what came from the server is not sent back")
        let updated = try #require(try db.appointments.get(uid: "cut@phone"))
        #expect(
            updated.id == stored.id && updated.start == now.addingTimeInterval(31 * 3600)
                && updated.extraProperties == ["X-PHONE-APP:kept"])
        #expect(try db.sync.account(named: "phone")?.syncToken == "token-1")
        #expect(try db.sync.resource(account: "phone", uid: "cut@phone")?.etag == "\"1\"")
        #expect(try db.sync.conflicts(account: "phone").map(\.ics) == ["local"])

        // The server made another event at the same href: that href names the new UID now.
        var reused = ServerChanges()
        reused.changed = [
            ServerEvent(
                resource: SyncedResource(
                    account: "phone", uid: "other@phone", href: "/anna/beauty/cut.ics", etag: "\"3\"", ics: "y"),
                appointments: [visit("Waxing", uid: "other@phone")], contacts: [nil])
        ]
        try db.sync.applyServerChanges(reused, account: "phone", now: now, zone: zone)
        #expect(try db.sync.resource(account: "phone", uid: "cut@phone") == nil)
        #expect(try db.sync.resource(account: "phone", uid: "other@phone")?.href == "/anna/beauty/cut.ics")

        var removal = ServerChanges()
        removal.removed = ["/anna/beauty/new.ics"]
        try db.sync.applyServerChanges(removal, account: "phone", now: now, zone: zone)
        #expect(try db.appointments.get(uid: "new@phone") == nil)
        #expect(try db.sync.resource(account: "phone", uid: "new@phone") == nil)
        #expect(try db.sync.outbox().isEmpty)
    }
}
