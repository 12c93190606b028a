import BeautyCore
import BeautyStore
import Foundation
import Testing

/// A fresh database file in its own temporary directory, removed when this object goes away
/// (tests pin its lifetime with `withExtendedLifetime`: Swift may release a local after its last use).
final class TemporaryDatabase {
    let directory: URL
    var path: String { directory.appendingPathComponent("beautyd.sqlite").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("beautyd-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func open() throws -> AppDatabase { try AppDatabase.open(path: path) }

    deinit { try? FileManager.default.removeItem(at: directory) }
}

@Suite("Store: migrations, round trips, reopen")
struct StoreTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)  // fixed: 2027-01-15

    func haircut(contact: Int64? = nil, reminders: [Reminder] = [.before(86_400), .before(7200)]) -> Appointment {
        Appointment(
            title: "Strzyżenie", start: now.addingTimeInterval(3 * 86_400), durationSeconds: 2700,
            address: "ul. Długa 5", notes: "ask for Anna\nbring photo", contactID: contact, category: "hair",
            color: "teal", price: Money(cents: 4550, currency: "PLN"), reminders: reminders)
    }

    @Test func migratesAnEmptyFileToTheCurrentSchemaWithWAL() throws {
        let temp = try TemporaryDatabase()
        defer { withExtendedLifetime(temp) {} }
        let db = try temp.open()
        #expect(
            try db.appliedMigrations() == [
                "v1: contacts, appointments, reminders, deliveries", "v2: medications and doses",
                "v3: zones, recurrence, cycles after done, iCalendar UIDs",
                "v4: measurements, water, budget, categories", "v5: series planning index",
                "v6: changed occurrences, free tags, kept iCalendar properties",
                "v7: contact UIDs (vCard)",
                "v8-sync: CalDAV accounts, resources, outbox, conflict copies",
                "v8-sync-safety: sync warnings, appointments removed by a pull",
                "v9-sync: UIDs per account",
                "v10-contact-language: the language of a contact's SMS texts",
                "v11: deliveries committed ahead of their instant",
                "v12-dose-tasks: doses on the phone as CalDAV tasks",
            ])
        let mode = try db.writer.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
        let permissions = try FileManager.default.attributesOfItem(atPath: temp.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
    }

    @Test func appointmentRoundTripKeepsEveryField() throws {
        let db = try AppDatabase.inMemory()
        let salon = try db.contacts.add(Contact(name: "Salon Anna", phone: "+48 600 100 200", email: "a@salon.pl"))
        let saved = try db.appointments.add(haircut(contact: salon.id), now: now)
        let loaded = try db.appointments.get(id: saved.id!)
        var expected = haircut(contact: salon.id)
        expected.id = saved.id
        expected.createdAt = now
        expected.updatedAt = now
        #expect(loaded == expected)
    }

    @Test func aFileDatabaseSurvivesReopen() throws {
        let temp = try TemporaryDatabase()
        defer { withExtendedLifetime(temp) {} }
        var id: Int64 = 0
        do {
            let db = try temp.open()
            id = try db.appointments.add(haircut(), now: now).id!
            _ = try db.contacts.add(Contact(name: "Nails Studio", phone: "600 200 300"))
        }
        let reopened = try temp.open()
        #expect(try reopened.appointments.get(id: id).title == "Strzyżenie")
        #expect(try reopened.contacts.all().map(\.name) == ["Nails Studio"])
        #expect(try reopened.appliedMigrations().count == 13)
    }

    @Test func missingRowsAreNotFound() throws {
        let db = try AppDatabase.inMemory()
        #expect(throws: StoreError.notFound(kind: "appointment", id: 42)) { try db.appointments.get(id: 42) }
        #expect(throws: StoreError.notFound(kind: "contact", id: 9)) { try db.contacts.delete(id: 9) }
        #expect(throws: StoreError.notFound(kind: "contact", id: 5)) {
            try db.appointments.add(haircut(contact: 5), now: now)
        }
    }

    @Test func deletingAContactKeepsTheAppointmentWithoutTheLink() throws {
        let db = try AppDatabase.inMemory()
        let salon = try db.contacts.add(Contact(name: "Salon", phone: "600 100 200"))
        let a = try db.appointments.add(haircut(contact: salon.id), now: now)
        try db.contacts.delete(id: salon.id!)
        #expect(try db.appointments.get(id: a.id!).contactID == nil)
    }

    @Test func listsAreSortedByStartThenTitleAndFilterByRangeAndStatus() throws {
        let db = try AppDatabase.inMemory()
        let day = now.addingTimeInterval(86_400)
        _ = try db.appointments.add(Appointment(title: "b", start: day), now: now)
        _ = try db.appointments.add(Appointment(title: "A", start: day), now: now)
        let early = try db.appointments.add(Appointment(title: "z", start: day.addingTimeInterval(-60)), now: now)
        #expect(try db.appointments.list().map(\.title) == ["z", "A", "b"])
        #expect(try db.appointments.list(from: day).map(\.title) == ["A", "b"])
        #expect(try db.appointments.list(to: day).map(\.title) == ["z"])
        var done = early
        done.status = .done
        _ = try db.appointments.update(done, now: now)
        #expect(try db.appointments.list(statuses: [.done]).map(\.title) == ["z"])
    }

    @Test func contactsRoundTripAndUpdate() throws {
        let db = try AppDatabase.inMemory()
        var c = try db.contacts.add(
            Contact(name: "Salon Ewa", phone: "600 100 200", firstName: "Ewa", address: "Rynek 1"))
        c.phone = "+48 600 999 999"
        c.address = nil
        _ = try db.contacts.update(c)
        #expect(try db.contacts.contact(id: c.id!) == c)
    }
}

@Suite("Store: the delivery ledger (exactly once)")
struct DeliveryLedgerTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func addingSchedulesOnlyFutureReminders() throws {
        let db = try AppDatabase.inMemory()
        let start = now.addingTimeInterval(3600)
        let a = try db.appointments.add(
            Appointment(title: "Facial", start: start, reminders: [.before(7200), .before(600)]), now: now)
        let deliveries = try db.deliveries.of(itemKind: .appointment, itemID: a.id!)
        #expect(deliveries.map(\.trigger.fireAt) == [start.addingTimeInterval(-600)])
        #expect(deliveries.map(\.state) == [.pending])
        #expect(try db.deliveries.next(after: now)?.fireAt == start.addingTimeInterval(-600))
    }

    @Test func firingIsRecordedOnceAndNeverRepeatsAcrossReopen() throws {
        let temp = try TemporaryDatabase()
        defer { withExtendedLifetime(temp) {} }
        let fireAt = now.addingTimeInterval(60)
        var key = ""
        do {
            let db = try temp.open()
            _ = try db.appointments.add(
                Appointment(title: "Nails", start: now.addingTimeInterval(3600), reminders: [.at(fireAt)]), now: now)
            let due = try db.deliveries.due(at: fireAt)
            #expect(due.count == 1)
            key = due[0].key
            #expect(try db.deliveries.markFired([key], at: fireAt) == 1)
            #expect(try db.deliveries.markFired([key], at: fireAt) == 0)  // a second delivery attempt changes nothing
        }
        let reopened = try temp.open()
        #expect(try reopened.deliveries.due(at: fireAt.addingTimeInterval(3600)).isEmpty)
        #expect(try reopened.deliveries.find(key: key)?.state == .fired)
        #expect(try reopened.deliveries.find(key: key)?.firedAt == fireAt)
    }

    @Test func anEditKeepsDeliveredRemindersAndSchedulesMovedOnes() throws {
        let db = try AppDatabase.inMemory()
        var a = try db.appointments.add(
            Appointment(title: "Hair", start: now.addingTimeInterval(7200), reminders: [.before(3600), .before(600)]),
            now: now)
        let first = try db.deliveries.due(at: now.addingTimeInterval(3600))
        try db.deliveries.markFired(first.map(\.key), at: now.addingTimeInterval(3600))
        // Editing the title only: the delivered reminder stays delivered, the other stays pending.
        a.title = "Hair & colour"
        _ = try db.appointments.update(a, now: now.addingTimeInterval(3601))
        var states = try db.deliveries.of(itemKind: .appointment, itemID: a.id!).map(\.state)
        #expect(states == [.fired, .pending])
        // Moving the visit: new instants are scheduled, the old pending one goes, history stays.
        a.start = a.start.addingTimeInterval(86_400)
        _ = try db.appointments.update(a, now: now.addingTimeInterval(3602))
        states = try db.deliveries.of(itemKind: .appointment, itemID: a.id!).map(\.state)
        #expect(states == [.fired, .pending, .pending])
    }

    @Test func doneOrCancelledAppointmentsDropTheirPendingReminders() throws {
        let db = try AppDatabase.inMemory()
        var a = try db.appointments.add(
            Appointment(title: "Massage", start: now.addingTimeInterval(7200), reminders: [.before(600)]), now: now)
        a.status = .cancelled
        _ = try db.appointments.update(a, now: now)
        #expect(try db.deliveries.pendingCount() == 0)
        a.status = .scheduled
        _ = try db.appointments.update(a, now: now)
        #expect(try db.deliveries.pendingCount() == 1)
    }

    @Test func failuresStayPendingWithTheReason() throws {
        let db = try AppDatabase.inMemory()
        _ = try db.appointments.add(
            Appointment(title: "Spa", start: now.addingTimeInterval(7200), reminders: [.before(7000)]), now: now)
        let due = try db.deliveries.due(at: now.addingTimeInterval(300))
        try db.deliveries.recordFailure(due.map(\.key), error: "no notification server")
        let waiting = try db.deliveries.waiting(at: now.addingTimeInterval(300))
        #expect(waiting.count == 1)
        #expect(
            waiting[0].state == .pending && waiting[0].attempts == 1 && waiting[0].lastError == "no notification server"
        )
    }

    @Test func snoozeSchedulesOneRepeatAndSettlesTheOriginal() throws {
        let db = try AppDatabase.inMemory()
        _ = try db.appointments.add(
            Appointment(title: "Brows", start: now.addingTimeInterval(7200), reminders: [.before(3600)]), now: now)
        let key = try db.deliveries.due(at: now.addingTimeInterval(3600))[0].key
        try db.deliveries.markFired([key], at: now.addingTimeInterval(3600))
        #expect(try db.deliveries.settle(key, as: .snoozed, at: now.addingTimeInterval(3610)) == 1)
        // Already settled.
        #expect(try db.deliveries.settle(key, as: .dismissed, at: now.addingTimeInterval(3611)) == 0)
        let repeatAt = now.addingTimeInterval(4210)
        let snoozed = try db.deliveries.scheduleSnooze(of: key, until: repeatAt)
        #expect(snoozed?.fireAt == repeatAt)
        #expect(try db.deliveries.next(after: now.addingTimeInterval(3611))?.key == snoozed?.key)
    }

    @Test func expiredRemindersAreRecordedMissed() throws {
        let db = try AppDatabase.inMemory()
        _ = try db.appointments.add(
            Appointment(title: "Pedicure", start: now.addingTimeInterval(7200), reminders: [.before(3600)]), now: now)
        let key = try db.deliveries.due(at: now.addingTimeInterval(86_400))[0].key
        #expect(try db.deliveries.markMissed([key], at: now.addingTimeInterval(86_400)) == 1)
        #expect(try db.deliveries.find(key: key)?.state == .missed)
        #expect(try db.deliveries.pendingCount() == 0)
    }
}
