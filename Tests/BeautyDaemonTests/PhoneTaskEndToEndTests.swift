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
    }

    static func rig(
        _ kind: CalDAVTestServer.Kind, privateMode: Bool = false, schedule: MedicationSchedule? = nil
    ) async throws -> Rig {
        let server = try await CalDAVTestServer.start(kind)
        let client = try CalDAVClient(
            account: CalDAVAccount(
                url: server.baseURL,
                credentials: try PasswordFileCredentials(user: server.user, passwordFile: server.passwordFile)))
        let list = try await client.makeCalendar(named: "Leki", components: [.todo])
        var config = DaemonConfig()
        config.dosesDays = 2
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
        "a desktop answer completes the task without its alarm; a dose left unanswered is closed as missed",
        arguments: CalDAVTestServer.Kind.allCases)
    func desktopAnswerAndMissed(_ kind: CalDAVTestServer.Kind) async throws {
        let rig = try await Self.rig(kind)
        _ = try await rig.run(poll: false)
        rig.daemon.clock.set(Self.morning.addingTimeInterval(120))
        let doseID = try #require(try rig.dose(Self.morning).id)
        _ = try await rig.daemon.call(MedicationRPC.doseTaken, DoseParams(id: doseID))
        let pushed = try await rig.run(poll: false)
        // The answer, and the dose that entered the window meanwhile.
        #expect(pushed.written == 1 && pushed.requests == pushed.written + pushed.created, "\(pushed)")
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
        rig.daemon.clock.set(Self.morning.addingTimeInterval(5 * 60))
        try await rig.phone.complete(try rig.uid(Self.morning), at: Self.morning.addingTimeInterval(60))
        let morningID = try #require(try rig.dose(Self.morning).id)
        _ = try await rig.daemon.call(MedicationRPC.doseSkip, DoseParams(id: morningID))
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

    @Test("private mode: no name anywhere in the list", arguments: CalDAVTestServer.Kind.allCases)
    func privateMode(_ kind: CalDAVTestServer.Kind) async throws {
        let rig = try await Self.rig(kind, privateMode: true)
        _ = try await rig.run(poll: false)
        let texts = try await rig.allTexts()
        #expect(texts.count == 4)
        #expect(texts.allSatisfy { !$0.contains("Witamina") && !$0.contains("kapsułka") }, "\(texts)")
        #expect(Set(try await rig.phone.openTasks().values) == ["Dose 08:00", "Dose 20:00"])
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
}
