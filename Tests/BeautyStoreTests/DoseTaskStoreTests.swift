import BeautyCore
@testable import BeautyStore
import Foundation
import GRDB
import Testing

/// The store of doses on the phone: an account's dose settings, each medication's task key, the
/// tasks beautyd has on the list and the reports for `sync status`.
@Suite("Store: dose tasks")
struct DoseTaskStoreTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func account(_ name: String = "phone") -> SyncAccount {
        SyncAccount(
            name: name, url: "http://127.0.0.1:5232/anna/", user: "anna", passwordFile: nil,
            calendarURL: "http://127.0.0.1:5232/anna/beauty/", calendarName: "Beauty", insecure: false,
            supportsSyncCollection: true, createdAt: now)
    }

    func task(_ uid: String, at offset: TimeInterval, state: DoseTaskAnswerKind? = nil, account: String = "phone")
        -> DoseTaskRow
    {
        DoseTaskRow(
            account: account, uid: uid, href: "/anna/leki/\(uid).ics", etag: "\"1\"", medicationID: 1,
            scheduledAt: now.addingTimeInterval(offset), ics: "BEGIN:VCALENDAR", writtenState: state, writtenAt: now,
            createdAt: now, sequence: 0)
    }

    @Test("a database from before doses on the phone gets a task key for each medication and accounts with doses off")
    func migrationBackfillsTaskKeys() throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v11: deliveries committed ahead of their instant")
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO syncAccount(name, url, user, calendarURL, createdAt) VALUES ('a', 'http://127.0.0.1/', 'anna', 'http://127.0.0.1/cal/', '2026-01-01 10:00:00.000');
                    INSERT INTO medication(name, position, schedule, createdAt, updatedAt) VALUES
                      ('A', 1, '{"kind":"none"}', '2026-01-01 10:00:00.000', '2026-01-01 10:00:00.000'),
                      ('B', 2, '{"kind":"none"}', '2026-01-01 10:00:00.000', '2026-01-01 10:00:00.000');
                    """)
        }
        let db = try AppDatabase(queue)
        let keys = try db.medications.tasked().map(\.key)
        #expect(keys.count == 2)
        #expect(keys.allSatisfy(DoseTaskUID.isKey))
        #expect(Set(keys).count == 2)
        let account = try #require(try db.sync.account(named: "a"))
        #expect(!account.dosesEnabled && !account.dosesPrivate && !account.dosesPaused)
        #expect(account.dosesListURL == nil && account.dosesSyncToken == nil)
    }

    @Test("add draws a task key that an edit keeps and a redraw changes")
    func taskKeys() throws {
        let db = try AppDatabase.inMemory()
        let added = try db.medications.add(Medication(name: "Witamina D"), now: now)
        let key = try #require(try db.medications.tasked().first?.key)
        #expect(DoseTaskUID.isKey(key))
        _ = try db.medications.update(id: added.id!, now: now) { $0.name = "Witamina D3" }
        #expect(try db.medications.tasked().first?.key == key)
        let redrawn = try db.medications.redrawTaskKey(id: added.id!)
        #expect(redrawn != key && DoseTaskUID.isKey(redrawn))
        #expect(try db.medications.tasked().first?.key == redrawn)
    }

    @Test("setDoses turns doses on with a list; another list forgets the old list's state and tasks")
    func doseSettings() throws {
        let db = try AppDatabase.inMemory()
        try db.sync.addAccount(account())
        #expect(!(try db.sync.setDoses(account: "nobody", enabled: true, listURL: nil, listName: nil, private: false)))
        try db.sync.setDoses(
            account: "phone", enabled: true, listURL: "http://127.0.0.1:5232/anna/leki/", listName: "Leki",
            private: true)
        try db.sync.recordDosesListState(account: "phone", syncToken: "t1", ctag: "c1", supportsSyncCollection: false)
        try db.sync.pauseDoses(account: "phone", true)
        try db.doseTasks.recordWritten(task("beautyd-dose-0000000a-20270101T080000Z", at: 3600))
        var stored = try #require(try db.sync.account(named: "phone"))
        #expect(stored.dosesEnabled && stored.dosesPrivate && stored.dosesPaused)
        #expect(stored.dosesListURL == "http://127.0.0.1:5232/anna/leki/" && stored.dosesListName == "Leki")
        #expect(stored.dosesSyncToken == "t1" && stored.dosesCtag == "c1" && !stored.dosesSupportsSyncCollection)

        // The same list: private mode off keeps where the list stands.
        try db.sync.setDoses(
            account: "phone", enabled: true, listURL: "http://127.0.0.1:5232/anna/leki/", listName: "Leki",
            private: false)
        stored = try #require(try db.sync.account(named: "phone"))
        #expect(!stored.dosesPrivate && stored.dosesSyncToken == "t1")
        #expect(try db.doseTasks.tasks(account: "phone").count == 1)

        try db.sync.setDoses(
            account: "phone", enabled: true, listURL: "http://127.0.0.1:5232/anna/other/", listName: "Other",
            private: false)
        stored = try #require(try db.sync.account(named: "phone"))
        #expect(stored.dosesSyncToken == nil && stored.dosesCtag == nil && !stored.dosesPaused)
        #expect(stored.dosesSupportsSyncCollection)
        #expect(try db.doseTasks.tasks(account: "phone").isEmpty)
    }

    @Test("tasks are recorded, read and forgotten per account; removing the account takes them along")
    func tasksPerAccount() throws {
        let db = try AppDatabase.inMemory()
        try db.sync.addAccount(account("phone"))
        try db.sync.addAccount(account("other"))
        try db.doseTasks.recordWritten(task("u1", at: 60))
        try db.doseTasks.recordWritten(task("u2", at: 120))
        try db.doseTasks.recordWritten(task("u1", at: 60, account: "other"))
        try db.doseTasks.recordRead(account: "phone", uid: "u1", etag: "\"2\"")
        #expect(try db.doseTasks.task(account: "phone", uid: "u1")?.etag == "\"2\"")
        #expect(try db.doseTasks.task(account: "other", uid: "u1")?.etag == "\"1\"")
        try db.doseTasks.forget(account: "phone", uid: "u2")
        #expect(try db.doseTasks.tasks(account: "phone").map(\.uid) == ["u1"])
        // Answered: written again with its state.
        try db.doseTasks.recordWritten(task("u1", at: 60, state: .taken))
        #expect(try db.doseTasks.task(account: "phone", uid: "u1")?.writtenState == .taken)
        try db.sync.removeAccount(named: "other")
        #expect(try db.doseTasks.tasks(account: "other").isEmpty)
    }

    @Test("times: open tasks are due and unanswered within their late window; the next due and late end")
    func times() throws {
        let db = try AppDatabase.inMemory()
        try db.sync.addAccount(account())
        let late: TimeInterval = 1800
        #expect(
            try db.doseTasks.times(account: "phone", now: now, lateWindow: late)
                == DoseTaskTimes(
                    open: 0, nextDue: nil, nextLateEnd: nil))
        try db.doseTasks.recordWritten(task("past-late", at: -3600))
        try db.doseTasks.recordWritten(task("open", at: -600))
        try db.doseTasks.recordWritten(task("answered", at: -300, state: .taken))
        try db.doseTasks.recordWritten(task("future", at: 7200))
        try db.doseTasks.recordWritten(task("later", at: 9000))
        #expect(
            try db.doseTasks.times(account: "phone", now: now, lateWindow: late)
                == DoseTaskTimes(
                    open: 1, nextDue: now.addingTimeInterval(7200), nextLateEnd: now.addingTimeInterval(-600 + late)))
    }

    @Test("reports name the medication, stay 30 days, and read in the user's language")
    func reports() throws {
        let db = try AppDatabase.inMemory()
        try db.sync.addAccount(account())
        let med = try db.medications.add(Medication(name: "Witamina D"), now: now)
        let old = DoseTaskReportRow(
            account: "phone", uid: "u0", medicationID: med.id!, scheduledAt: now, kind: .putBack,
            detectedAt: now.addingTimeInterval(-31 * 86_400))
        try db.doseTasks.recordReport(old)
        try db.doseTasks.recordReport(
            DoseTaskReportRow(
                account: "phone", uid: "u1", medicationID: med.id!, scheduledAt: now, kind: .phoneOverruled,
                answer: .skipped, answeredAt: now.addingTimeInterval(120), detectedAt: now))
        let reports = try db.doseTasks.reports(account: "phone", now: now)
        #expect(reports.map(\.uid) == ["u1"])
        let utc = TimeZone(identifier: "UTC")!
        #expect(reports[0].medicationName == "Witamina D")
        #expect(
            reports[0].text(zone: utc).english
                == "dose of Witamina D due 2027-01-15 08:00: skipped on the phone at 2027-01-15 08:02, after the desktop's answer; the desktop's stands"
        )
    }
}

/// A phone's answer: where each answer was given goes into history, and §8's revision when the
/// phone answered first.
@Suite("Store: dose answers from the phone")
struct PhoneDoseAnswerTests: WarsawJanuary2027 {
    func planned(stock: Double = 10, lowStock: Double? = nil) throws -> (AppDatabase, Dose) {
        let db = try AppDatabase.inMemory()
        let medication = try db.medications.add(
            Medication(
                name: "Iron", dose: "2 tablets",
                schedule: MedicationSchedule(kind: .times, times: [ClockTime(hour: 8, minute: 0)]), stock: stock,
                lowStock: lowStock), now: now)
        try db.medications.planDoses(now: now, zone: zone)
        let dose = try #require(
            try db.medications.doses(from: now, to: local(31, 0), medicationID: medication.id!).first)
        return (db, dose)
    }

    func stock(_ db: AppDatabase) throws -> Double? { try db.medications.all().first?.stock }

    @Test("an answer's source is kept in history: the phone's, the desktop's, none while unanswered")
    func sourceInHistory() throws {
        let (db, dose) = try planned()
        var rows = try db.history.entries(from: local(1, 0), to: local(31, 0), now: local(31, 0))
        #expect(rows.first { $0.id == dose.id }?.source == nil)
        _ = try db.medications.answerDose(
            id: dose.id!, .taken, confirmedAt: dose.scheduledAt.addingTimeInterval(60), now: now, source: .phone)
        rows = try db.history.entries(from: local(1, 0), to: local(31, 0), now: local(31, 0))
        #expect(rows.first { $0.id == dose.id }?.source == .phone)
        let next = try #require(
            try db.medications.doses(from: dose.scheduledAt.addingTimeInterval(1), to: local(31, 0)).first)
        _ = try db.medications.answerDose(id: next.id!, .skipped, confirmedAt: next.scheduledAt, now: now)
        rows = try db.history.entries(from: local(1, 0), to: local(31, 0), now: local(31, 0))
        #expect(rows.first { $0.id == next.id }?.source == .desktop)
    }

    @Test(
        "revising taken to skipped gives the units back and re-arms the low-stock warning; skipped to taken uses them")
    func revise() throws {
        let (db, dose) = try planned(stock: 3, lowStock: 1)
        let desk = dose.scheduledAt.addingTimeInterval(300), phone = dose.scheduledAt.addingTimeInterval(60)
        let taken = try db.medications.answerDose(id: dose.id!, .taken, confirmedAt: desk, now: desk)
        #expect(taken.lowStock != nil)
        #expect(try stock(db) == 1)

        let skipped = try db.medications.reviseDoseAnswer(id: dose.id!, to: .skipped, confirmedAt: phone, now: desk)
        #expect(skipped.changed && skipped.dose.state == .skipped && skipped.dose.confirmedAt == phone)
        #expect(try stock(db) == 3)
        let row = try db.history.entries(from: local(1, 0), to: local(31, 0), now: local(31, 0)).first {
            $0.id == dose.id
        }
        #expect(row?.source == .phone && row?.state == "skipped")

        // The same answer again changes nothing.
        #expect(
            !(try db.medications.reviseDoseAnswer(id: dose.id!, to: .skipped, confirmedAt: phone, now: desk)).changed)
        let back = try db.medications.reviseDoseAnswer(id: dose.id!, to: .taken, confirmedAt: phone, now: desk)
        #expect(back.changed && back.dose.state == .taken)
        #expect(try stock(db) == 1)
        // Warned again: the refill by revision re-armed it.
        #expect(back.lowStock != nil)
    }

    @Test("revising an unanswered dose answers it as answerDose would")
    func reviseOpen() throws {
        let (db, dose) = try planned()
        let answer = try db.medications.reviseDoseAnswer(
            id: dose.id!, to: .taken, confirmedAt: dose.scheduledAt, now: dose.scheduledAt)
        #expect(answer.changed && answer.dose.state == .taken)
        #expect(try stock(db) == 8)
    }
}
