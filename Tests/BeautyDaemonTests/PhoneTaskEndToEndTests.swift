import BeautyCalDAV
import BeautyCore
@testable import BeautyDaemon
import BeautyProtocol
import BeautyStore
import BeautyTestSupport
import Foundation
import Testing

/// Doses on the phone end to end (docs/PHONE_TASKS.md): a daemon in process (`makeDaemon`, the
/// Scheduler's answer path, injected clock) with an account whose doses are on, a task list made
/// with MKCALENDAR for VTODO on a real Radicale or Xandikos, and a phone that is a real CalDAV client
/// (python3-caldav, `CalDAVPhone`). Each run of the dose engine is started by the test
/// (`syncDoses`), as the dose loop would at its deadline.
@Suite("Doses on the phone: Radicale and Xandikos with a python3-caldav phone")
struct PhoneTaskEndToEndTests {
    /// Friday 15 January 2030, 07:00 in Warsaw; doses at 08:00 and 20:00.
    static let start = instant("2030-01-15 07:00")
    static let morning = instant("2030-01-15 08:00")
    static let evening = instant("2030-01-15 20:00")

    struct Rig {
        let server: CalDAVTestServer
        let client: CalDAVClient
        let list: CalDAVCalendar
        let daemon: InProcessDaemon
        let phone: CalDAVPhone
        let medicationID: Int64

        var store: AppDatabase { daemon.store }
        var sync: SyncCoordinator { daemon.daemon.sync }

        func run(poll: Bool) async throws -> PhoneTaskReport {
            let report = await sync.syncDoses("phone", poll: poll)
            let error = await sync.dosesStatus(account: "phone")?.lastError
            return try #require(report, "the dose run failed: \(error ?? "-")")
        }

        func uid(_ due: Date) throws -> String {
            let key = try #require(try store.medications.tasked().first { $0.medication.id == medicationID }?.key)
            return DoseTaskUID.make(key: key, due: due)
        }

        /// The task's text on the server now.
        func serverText(_ due: Date) async throws -> String {
            let href = client.href(forUID: try uid(due), in: list.url)
            return try #require(try await client.fetch(list.url, hrefs: [href]).first?.ics)
        }

        /// Every task's text on the server.
        func allTexts() async throws -> [String] {
            let tags = try await client.etags(in: list.url)
            return try await client.fetch(list.url, hrefs: tags.map(\.href)).map(\.ics)
        }

        func dose(_ due: Date) throws -> Dose {
            try #require(
                try store.medications.doses(from: due, to: due.addingTimeInterval(1), medicationID: medicationID).first)
        }

        func stock() throws -> Double? { try store.medications.find(id: medicationID).stock }

        /// The phone ticks the dose due at `due` one minute after; the desktop skips it five minutes after.
        func tickOnThePhoneThenSkipOnTheDesktop(_ due: Date) async throws {
            daemon.clock.set(due.addingTimeInterval(5 * 60))
            try await phone.complete(try uid(due), at: due.addingTimeInterval(60))
            let doseID = try #require(try dose(due).id)
            _ = try await daemon.call(MedicationRPC.doseSkip, DoseParams(id: doseID))
        }
    }

    static func rig(
        _ kind: CalDAVTestServer.Kind, privateMode: Bool = false, schedule: MedicationSchedule? = nil,
        dosesPollSeconds: Int = 60
    ) async throws -> Rig {
        let server = try await CalDAVTestServer.start(kind)
        let client = try CalDAVClient(
            account: CalDAVAccount(
                url: server.baseURL,
                credentials: try PasswordFileCredentials(user: server.user, passwordFile: server.passwordFile)))
        let list = try await client.makeCalendar(named: "Leki", components: [.todo])
        var config = DaemonConfig()
        config.dosesDays = 2
        config.dosesPollSeconds = dosesPollSeconds
        let daemon = try await InProcessDaemon(now: start, config: config)
        try daemon.store.sync.addAccount(
            SyncAccount(
                name: "phone", url: server.baseURL.absoluteString, user: server.user,
                passwordFile: server.passwordFile, calendarURL: server.calendarURL.absoluteString, calendarName: nil,
                insecure: false, supportsSyncCollection: true, createdAt: start))
        try daemon.store.sync.setDoses(
            account: "phone", enabled: true, listURL: list.url.absoluteString, listName: "Leki", private: privateMode)
        var params = MedicationAddParams(name: "Witamina D")
        params.dose = "1 kapsułka"
        params.stock = 10
        params.schedule =
            schedule
            ?? MedicationSchedule(kind: .times, times: [ClockTime(hour: 8, minute: 0), ClockTime(hour: 20, minute: 0)])
        let added = try await daemon.call(MedicationRPC.add, params)
        return Rig(
            server: server, client: client, list: list, daemon: daemon,
            phone: CalDAVPhone(server: server, listPath: list.url.path), medicationID: try #require(added.medication.id)
        )
    }

    @Test(
        "the window appears on the phone with alarms; a tick there is taken on the desktop at the phone's time, stock down",
        arguments: CalDAVTestServer.Kind.allCases)
    func windowAndTick(_ kind: CalDAVTestServer.Kind) async throws {
        let rig = try await Self.rig(kind)
        let created = try await rig.run(poll: false)
        // Two days ahead from 07:00: 08:00 and 20:00 today and tomorrow.
        #expect(created.created == 4, "\(created)")
        let open = try await rig.phone.openTasks()
        #expect(open.count == 4 && open.values.allSatisfy { $0 == "Witamina D — 1 kapsułka" }, "\(open)")
        let written = try await rig.serverText(Self.morning)
        #expect(written.contains("BEGIN:VALARM") && written.contains("DUE;TZID=Europe/Warsaw:20300115T080000"))

        // Nothing open yet: the next run is a poll at the first due instant.
        let account = try #require(try rig.store.sync.account(named: "phone"))
        #expect(await rig.sync.nextDoseRun(account, now: Self.start)?.at == Self.morning)

        rig.daemon.clock.set(Self.morning.addingTimeInterval(30))
        try await rig.phone.complete(try rig.uid(Self.morning), at: Self.morning.addingTimeInterval(60))
        rig.daemon.clock.set(Self.morning.addingTimeInterval(90))
        let polled = try await rig.run(poll: true)
        #expect(polled.answersApplied == 1 && polled.read == 1 && polled.written == 0, "\(polled)")
        let dose = try rig.dose(Self.morning)
        #expect(dose.state == .taken && dose.confirmedAt == Self.morning.addingTimeInterval(60), "\(dose)")
        #expect(try rig.stock() == 9)
        let history = try rig.store.history.entries(from: Self.start, to: Self.evening, now: Self.evening)
        #expect(history.first { $0.id == dose.id }?.source == .phone)
        // The tick stays as the phone wrote it: beautyd writes nothing over it.
        #expect(try await rig.serverText(Self.morning).contains("X-BEAUTYD-ANSWER") == false)
        // And it is not read again.
        let again = try await rig.run(poll: true)
        #expect(again.read == 0 && again.answersApplied == 0, "\(again)")
    }

    @Test(
        "cancel on the phone is skipped; deleting a due task is skipped; deleting a coming one puts it back",
        arguments: CalDAVTestServer.Kind.allCases)
    func cancelAndDelete(_ kind: CalDAVTestServer.Kind) async throws {
        let rig = try await Self.rig(kind)
        _ = try await rig.run(poll: false)
        let tomorrow = Self.morning.addingTimeInterval(86_400)
        rig.daemon.clock.set(Self.morning.addingTimeInterval(60))
        try await rig.phone.cancel(try rig.uid(Self.morning))
        try await rig.phone.delete(try rig.uid(tomorrow))
        let report = try await rig.run(poll: true)
        #expect(report.answersApplied == 1 && report.putBack == 1 && report.reports == 1, "\(report)")
        #expect(try rig.dose(Self.morning).state == .skipped)
        #expect(try await rig.phone.openTasks().keys.contains(try rig.uid(tomorrow)))
        #expect(try rig.store.doseTasks.reports(account: "phone", now: rig.daemon.clock.now).map(\.kind) == [.putBack])

        rig.daemon.clock.set(Self.evening.addingTimeInterval(60))
        try await rig.phone.delete(try rig.uid(Self.evening))
        let deleted = try await rig.run(poll: true)
        #expect(deleted.answersApplied == 1 && deleted.putBack == 0, "\(deleted)")
        let evening = try rig.dose(Self.evening)
        #expect(evening.state == .skipped && evening.confirmedAt == Self.evening.addingTimeInterval(60))
        #expect(try rig.stock() == 10)
    }

    @Test(
        "a task deleted on the phone right after beautyd made it is put back: the poll's token is read past beautyd's writes",
        arguments: CalDAVTestServer.Kind.allCases)
    func deletedRightAfterItWasMade(_ kind: CalDAVTestServer.Kind) async throws {
        let rig = try await Self.rig(kind)
        // A poll first, so a sync token is recorded before the window is written.
        let made = try await rig.run(poll: true)
        #expect(made.created == 4, "\(made)")
        let tomorrow = Self.morning.addingTimeInterval(86_400)
        try await rig.phone.delete(try rig.uid(tomorrow))
        let report = try await rig.run(poll: true)
        #expect(report.putBack == 1 && report.reports == 1, "\(report)")
        #expect(try await rig.phone.openTasks().keys.contains(try rig.uid(tomorrow)))
    }

    @Test(
        "a desktop answer completes the task without its alarm; a dose left unanswered is closed as missed",
        arguments: CalDAVTestServer.Kind.allCases)
    func desktopAnswerAndMissed(_ kind: CalDAVTestServer.Kind) async throws {
        let rig = try await Self.rig(kind)
        _ = try await rig.run(poll: false)
        rig.daemon.clock.set(Self.morning.addingTimeInterval(120))
        let doseID = try #require(try rig.dose(Self.morning).id)
        _ = try await rig.daemon.call(MedicationRPC.doseTaken, DoseParams(id: doseID))
        let pushed = try await rig.run(poll: false)
        // The answer, the dose that entered the window meanwhile, and after a new task one sync-collection that
        // reads the token past it.
        let tokenRead = pushed.created > 0 ? 1 : 0
        #expect(pushed.written == 1 && pushed.requests == pushed.written + pushed.created + tokenRead, "\(pushed)")
        let answered = try await rig.serverText(Self.morning)
        #expect(answered.contains("STATUS:COMPLETED") && !answered.contains("VALARM"), "\(answered)")
        #expect(!(try await rig.phone.openTasks().keys.contains(try rig.uid(Self.morning))))

        // The evening dose: no answer by the end of its late window (3 × 10 min).
        rig.daemon.clock.set(Self.evening.addingTimeInterval(31 * 60))
        let closed = try await rig.run(poll: true)
        #expect(closed.written == 1, "\(closed)")
        let missed = try await rig.serverText(Self.evening)
        #expect(
            missed.contains("STATUS:CANCELLED") && missed.contains("X-BEAUTYD-ANSWER:missed")
                && missed.contains("Missed: no answer by 20:30") && !missed.contains("VALARM"), "\(missed)")
    }

    @Test(
        "both sides answered: the earlier answer stands and the other is reported",
        arguments: CalDAVTestServer.Kind.allCases)
    func bothSidesAnswered(_ kind: CalDAVTestServer.Kind) async throws {
        let rig = try await Self.rig(kind)
        _ = try await rig.run(poll: false)
        // Morning: the phone ticks at 08:01, the desktop skips at 08:05: the phone was first.
        try await rig.tickOnThePhoneThenSkipOnTheDesktop(Self.morning)
        rig.daemon.clock.set(Self.morning.addingTimeInterval(6 * 60))
        let first = try await rig.run(poll: true)
        #expect(first.answersApplied == 1 && first.reports == 1 && first.written == 0, "\(first)")
        let morning = try rig.dose(Self.morning)
        #expect(morning.state == .taken && morning.confirmedAt == Self.morning.addingTimeInterval(60))
        #expect(try rig.stock() == 9)

        // Evening: the desktop takes it at 20:01, the phone cancels later: the desktop's stands and goes back.
        rig.daemon.clock.set(Self.evening.addingTimeInterval(60))
        let eveningID = try #require(try rig.dose(Self.evening).id)
        _ = try await rig.daemon.call(MedicationRPC.doseTaken, DoseParams(id: eveningID))
        rig.daemon.clock.set(Self.evening.addingTimeInterval(3 * 60))
        try await rig.phone.cancel(try rig.uid(Self.evening))
        let second = try await rig.run(poll: true)
        #expect(second.reports == 1 && second.written == 1 && second.preconditionFailures == 0, "\(second)")
        #expect(try rig.dose(Self.evening).state == .taken)
        #expect(try await rig.serverText(Self.evening).contains("STATUS:COMPLETED"))
        let kinds = try rig.store.doseTasks.reports(account: "phone", now: rig.daemon.clock.now).map(\.kind)
        #expect(Set(kinds) == [.desktopOverruled, .phoneOverruled], "\(kinds)")
    }

    @Test(
        "a medication edited rewrites its open tasks; removed, its open tasks go and answered ones stay",
        arguments: CalDAVTestServer.Kind.allCases)
    func editAndRemove(_ kind: CalDAVTestServer.Kind) async throws {
        let rig = try await Self.rig(kind)
        _ = try await rig.run(poll: false)
        rig.daemon.clock.set(Self.morning.addingTimeInterval(60))
        let morningID = try #require(try rig.dose(Self.morning).id)
        _ = try await rig.daemon.call(MedicationRPC.doseTaken, DoseParams(id: morningID))
        var edit = MedicationEditParams(id: rig.medicationID)
        edit.name = "Witamina D3"
        _ = try await rig.daemon.call(MedicationRPC.edit, edit)
        let edited = try await rig.run(poll: false)
        // The answer and the three open tasks renamed.
        #expect(edited.written == 4, "\(edited)")
        #expect(try await rig.phone.openTasks().values.allSatisfy { $0 == "Witamina D3 — 1 kapsułka" })
        #expect(try await rig.serverText(Self.morning).contains("SUMMARY:Witamina D — 1 kapsułka"))

        _ = try await rig.daemon.call(MedicationRPC.remove, IDParams(id: rig.medicationID))
        let removed = try await rig.run(poll: false)
        // Tonight's, tomorrow's two, and the one that entered the window at 08:00.
        #expect(removed.deleted == 4, "\(removed)")
        #expect(try await rig.phone.openTasks().isEmpty)
        #expect(try await rig.allTexts().count == 1)
    }

    @Test(
        "a zone change replaces the unanswered tasks of unpinned doses: new instants, new UIDs",
        arguments: CalDAVTestServer.Kind.allCases)
    func zoneChange(_ kind: CalDAVTestServer.Kind) async throws {
        let rig = try await Self.rig(kind)
        _ = try await rig.run(poll: false)
        let before = Set(try await rig.phone.openTasks().keys)
        rig.daemon.zone.set(TimeZone(identifier: "Europe/London")!)
        let moved = try await rig.run(poll: false)
        // 08:00 and 20:00 in London are 09:00 and 21:00 in Warsaw: all four tasks are new ones.
        #expect(moved.deleted == 4 && moved.created == 4, "\(moved)")
        let after = try await rig.phone.openTasks()
        #expect(after.count == 4 && before.isDisjoint(with: after.keys), "\(after)")
        #expect(after.keys.contains(try rig.uid(instant("2030-01-15 09:00"))))
        #expect(
            try await rig.serverText(instant("2030-01-15 09:00")).contains("DUE;TZID=Europe/London:20300115T080000"))
    }

    @Test(
        "a database that lost its record of the list takes its tasks over and records a tick made meanwhile",
        arguments: CalDAVTestServer.Kind.allCases)
    func tasksOfALostRecordAreTakenOver(_ kind: CalDAVTestServer.Kind) async throws {
        let rig = try await Self.rig(kind)
        _ = try await rig.run(poll: false)
        rig.daemon.clock.set(Self.morning.addingTimeInterval(5 * 60))
        try await rig.phone.complete(try rig.uid(Self.morning), at: Self.morning.addingTimeInterval(60))
        // As a restore of a backup made before the list was written would leave it.
        try rig.store.sync.resetDosesList(account: "phone")
        let report = try await rig.run(poll: false)
        // The four tasks there are taken over; the one that entered the window at 08:00 is made.
        #expect(report.created == 1 && report.preconditionFailures == 4 && report.polled, "\(report)")
        #expect(report.answersApplied == 1, "\(report)")
        let dose = try rig.dose(Self.morning)
        #expect(dose.state == .taken && dose.confirmedAt == Self.morning.addingTimeInterval(60), "\(dose)")
        #expect(try await rig.phone.openTasks().count == 4)
        #expect(try rig.store.doseTasks.tasks(account: "phone").count == 5)
    }

    @Test("private mode: no name anywhere in the list", arguments: CalDAVTestServer.Kind.allCases)
    func privateMode(_ kind: CalDAVTestServer.Kind) async throws {
        let rig = try await Self.rig(kind, privateMode: true)
        _ = try await rig.run(poll: false)
        let texts = try await rig.allTexts()
        #expect(texts.count == 4)
        #expect(texts.allSatisfy { !$0.contains("Witamina") && !$0.contains("kapsułka") }, "\(texts)")
        #expect(Set(try await rig.phone.openTasks().values) == ["Dose 08:00", "Dose 20:00"])
    }

    @Test(
        "private mode turned on later takes the name off every task, answered history beyond the window included",
        arguments: CalDAVTestServer.Kind.allCases)
    func privateModeLater(_ kind: CalDAVTestServer.Kind) async throws {
        let rig = try await Self.rig(kind)
        _ = try await rig.run(poll: false)
        rig.daemon.clock.set(Self.morning.addingTimeInterval(60))
        let doseID = try #require(try rig.dose(Self.morning).id)
        _ = try await rig.daemon.call(MedicationRPC.doseTaken, DoseParams(id: doseID))
        _ = try await rig.run(poll: false)
        // Two days on, the morning's answered task is history, beyond the window.
        rig.daemon.clock.set(Self.morning.addingTimeInterval(2 * 86_400 + 60))
        try rig.store.sync.setDoses(
            account: "phone", enabled: true, listURL: rig.list.url.absoluteString, listName: "Leki", private: true)
        _ = try await rig.run(poll: false)
        let texts = try await rig.allTexts()
        #expect(texts.allSatisfy { !$0.contains("Witamina") }, "\(texts.filter { $0.contains("Witamina") })")
        let morning = try await rig.serverText(Self.morning)
        #expect(morning.contains("SUMMARY:Dose 08:00") && morning.contains("STATUS:COMPLETED"), "\(morning)")
    }

    @Test("nothing pending: no requests, and no run planned", arguments: CalDAVTestServer.Kind.allCases)
    func nothingPending(_ kind: CalDAVTestServer.Kind) async throws {
        let rig = try await Self.rig(kind, schedule: MedicationSchedule(kind: .asNeeded))
        let before = rig.server.requestCount
        let report = try await rig.run(poll: false)
        #expect(report.requests == 0 && report.created == 0, "\(report)")
        #expect(rig.server.requestCount == before)
        let account = try #require(try rig.store.sync.account(named: "phone"))
        #expect(await rig.sync.nextDoseRun(account, now: rig.daemon.clock.now)?.at == nil)
    }

    @Test(
        "a desktop answer written while the phone answered otherwise meets 412, is read again and the earlier answer stands",
        arguments: CalDAVTestServer.Kind.allCases)
    func preconditionFailedIsReadAgain(_ kind: CalDAVTestServer.Kind) async throws {
        let rig = try await Self.rig(kind)
        _ = try await rig.run(poll: false)
        // The phone ticks at 08:01 after beautyd's last look; the desktop skips at 08:05 and pushes without a poll.
        try await rig.tickOnThePhoneThenSkipOnTheDesktop(Self.morning)
        let report = try await rig.run(poll: false)
        #expect(report.preconditionFailures == 1 && report.polled && report.answersApplied == 1, "\(report)")
        let dose = try rig.dose(Self.morning)
        #expect(dose.state == .taken && dose.confirmedAt == Self.morning.addingTimeInterval(60), "\(dose)")
        #expect(try rig.stock() == 9)
        #expect(try await rig.serverText(Self.morning).contains("STATUS:COMPLETED"))
        #expect(
            try rig.store.doseTasks.reports(account: "phone", now: rig.daemon.clock.now).map(\.kind) == [
                .desktopOverruled
            ])
    }

    @Test(
        "the phone losing every open task pauses dose sync: nothing skipped or put back until allowed",
        arguments: CalDAVTestServer.Kind.allCases)
    func deletionGuardPauses(_ kind: CalDAVTestServer.Kind) async throws {
        let rig = try await Self.rig(kind)
        _ = try await rig.run(poll: false)
        rig.daemon.clock.set(Self.morning.addingTimeInterval(60))
        for uid in try await rig.phone.openTasks().keys { try await rig.phone.delete(uid) }
        let held = try await rig.run(poll: true)
        #expect(held.paused && held.answersApplied == 0 && held.putBack == 0, "\(held)")
        #expect(try rig.dose(Self.morning).state != .skipped)
        let status = try #require(await rig.sync.dosesStatus(account: "phone"))
        #expect(status.paused)
        let account = try #require(try rig.store.sync.account(named: "phone"))
        #expect(await rig.sync.nextDoseRun(account, now: rig.daemon.clock.now)?.at == nil)
        // Held again at the next poll.
        #expect(try await rig.run(poll: true).paused)

        let allowed = try #require(await rig.sync.syncDosesNow(name: "phone", allowDeletions: true))
        #expect(!allowed.paused && allowed.answersApplied == 1 && allowed.putBack == 3, "\(allowed)")
        #expect(try rig.dose(Self.morning).state == .skipped)
        #expect(try await rig.sync.dosesStatus(account: "phone")?.paused == false)
    }

    @Test(
        "the dose loop: the window at start, a desktop answer goes by itself, a tick is read by the poll while a dose is open",
        arguments: CalDAVTestServer.Kind.allCases)
    func theLoop(_ kind: CalDAVTestServer.Kind) async throws {
        let rig = try await Self.rig(kind, dosesPollSeconds: 10)
        rig.daemon.clock.set(Self.morning.addingTimeInterval(30))
        let sync = rig.sync
        let loop = Task { await sync.runDoses() }
        defer { loop.cancel() }
        let patience = InProcessDaemon.patience
        // The window: today's two, tomorrow's two, and the day after's 08:00 (two days from 08:00:30).
        let written = await eventuallyAsync(timeout: patience, interval: .milliseconds(200)) {
            ((try? await rig.phone.openTasks())?.count == 5) ? true : nil
        }
        #expect(written == true)

        let doseID = try #require(try rig.dose(Self.morning).id)
        _ = try await rig.daemon.call(MedicationRPC.doseTaken, DoseParams(id: doseID))
        let completed = await eventuallyAsync(timeout: patience, interval: .milliseconds(200)) {
            ((try? await rig.serverText(Self.morning))?.contains("STATUS:COMPLETED") == true) ? true : nil
        }
        #expect(completed == true)
        // Nothing open: the loop sleeps until the evening dose is due.
        let sleeps = await eventuallyAsync(timeout: patience, interval: .milliseconds(50)) {
            let wait = await sync.doseLoopWait
            return wait.waiting && wait.until == Self.evening ? true : nil
        }
        let sleepsWait = await sync.doseLoopWait
        #expect(sleeps == true, "\(sleepsWait)")

        // The evening dose is due: a poll every 10 s while it is open reads the phone's tick.
        rig.daemon.clock.set(Self.evening.addingTimeInterval(30))
        sync.noticeDoses()
        let polling = await eventuallyAsync(timeout: patience, interval: .milliseconds(50)) {
            let wait = await sync.doseLoopWait
            return wait.waiting && wait.until.map { $0 > Self.evening } == true ? true : nil
        }
        let pollingWait = await sync.doseLoopWait
        #expect(polling == true, "\(pollingWait)")
        try await rig.phone.complete(try rig.uid(Self.evening), at: Self.evening.addingTimeInterval(40))
        rig.daemon.clock.set(Self.evening.addingTimeInterval(45))
        let taken = await eventuallyAsync(timeout: patience, interval: .milliseconds(200)) {
            (try? rig.dose(Self.evening))?.state == .taken ? true : nil
        }
        #expect(taken == true)
        #expect(try rig.dose(Self.evening).confirmedAt == Self.evening.addingTimeInterval(40))
    }

    @Test(
        "the dose loop with nothing pending waits for a notice alone: no timer",
        arguments: CalDAVTestServer.Kind.allCases)
    func theLoopIdle(_ kind: CalDAVTestServer.Kind) async throws {
        let rig = try await Self.rig(kind, schedule: MedicationSchedule(kind: .asNeeded))
        let sync = rig.sync
        let before = rig.server.requestCount
        let loop = Task { await sync.runDoses() }
        defer { loop.cancel() }
        let idle = await eventuallyAsync(timeout: InProcessDaemon.patience, interval: .milliseconds(50)) {
            let wait = await sync.doseLoopWait
            return wait.waiting && wait.until == nil ? true : nil
        }
        let idleWait = await sync.doseLoopWait
        #expect(idle == true, "\(idleWait)")
        // A notice (an edit) brings the lists in line and sends nothing: there is nothing to write.
        let wakes = await sync.doseLoopWakes
        rig.daemon.daemon.scheduler.wake(.edited)
        let again = await eventuallyAsync(timeout: InProcessDaemon.patience, interval: .milliseconds(50)) {
            let wait = await sync.doseLoopWait, woke = await sync.doseLoopWakes
            return woke > wakes && wait.waiting && wait.until == nil ? true : nil
        }
        #expect(again == true)
        #expect(rig.server.requestCount == before)
    }

    @Test(
        "a day of two doses ticked on the phone within a minute, run at the loop's deadlines: about five requests a dose",
        arguments: CalDAVTestServer.Kind.allCases)
    func requestsPerDay(_ kind: CalDAVTestServer.Kind) async throws {
        let rig = try await Self.rig(kind)
        _ = try await rig.run(poll: false)
        let account = try #require(try rig.store.sync.account(named: "phone"))
        let end = Self.start.addingTimeInterval(86_400)
        var requests = 0, runs = 0, polls = 0
        var ticked: Set<Date> = []
        while let next = await rig.sync.nextDoseRun(account, now: rig.daemon.clock.now), next.at < end, runs < 100 {
            rig.daemon.clock.set(next.at)
            let report = try #require(await rig.sync.syncDoses("phone", poll: next.polls))
            requests += report.requests
            runs += 1
            if report.polled { polls += 1 }
            // Each dose due by now is ticked on the phone half a minute later, once.
            for due in [Self.morning, Self.evening, Self.morning.addingTimeInterval(86_400)]
            where due <= next.at && !ticked.contains(due) {
                try await rig.phone.complete(try rig.uid(due), at: next.at.addingTimeInterval(30))
                ticked.insert(due)
            }
        }
        print(
            "[figure] \(kind): a day of two doses ticked on the phone: \(requests) requests in \(runs) runs, \(polls) polls"
        )
        #expect(try rig.dose(Self.morning).state == .taken && (try rig.dose(Self.evening)).state == .taken)
        // Per dose: the poll at its due instant, the poll that reads the tick (a REPORT and a multiget),
        // the PUT of the dose entering the window two days ahead and the token read after it.
        #expect(requests <= 12, "\(requests) requests in \(runs) runs")
    }
}

/// `eventually` with a probe that awaits: polls `probe` every `interval` until it gives a value or
/// `timeout` (a safety net only) passes.
func eventuallyAsync<T>(timeout: Duration, interval: Duration = .milliseconds(20), _ probe: () async -> T?) async
    -> T?
{
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if let value = await probe() { return value }
        try? await Task.sleep(for: interval)
    }
    return await probe()
}
