import BeautyCalDAV
import BeautyCore
import BeautyLocalization
@testable import BeautyDaemon
import BeautyProtocol
import BeautyStore
import BeautyTestSupport
import Foundation
import Testing

/// The dose list's border (docs/PHONE_TASKS.md): a hostile server (Fixtures/hostile_caldav.py) puts
/// whatever it likes at the hrefs of beautyd's dose tasks. beautyd stays up, takes no answer from a
/// task that is not its own or cannot be read, says so in the dose status, and the next good poll
/// records the phone's tick.
@Suite("Doses on the phone: a hostile dose list")
struct PhoneTaskHostileTests {
    /// 07:00 in Warsaw; doses at 08:00 and 20:00.
    static let start = instant("2030-01-15 07:00")
    static let morning = instant("2030-01-15 08:00")

    /// A task at `uid` as a phone would leave it, with `extra` lines inside the VTODO.
    static func task(uid: String, _ extra: [String]) -> String {
        ([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//hostile//EN", "BEGIN:VTODO", "UID:\(uid)",
            "DTSTAMP:20300115T070100Z", "SUMMARY:Witamina D",
        ] + extra + ["END:VTODO", "END:VCALENDAR", ""])
        .joined(separator: "\r\n")
    }

    @Test(
        "foreign UIDs, a year 99999, 100,000 nested VALARMs, a 20 MB line: no dose taken, the error said; then a tick in odd case is taken"
    )
    func enemiesAtTheTaskHref() async throws {
        let server = try await HostileCalDAVServer.start()
        defer { server.stop() }
        let (daemon, medicationID) = try await Self.daemon(on: server, times: [8, 20])
        let sync = daemon.daemon.sync

        let created = await sync.syncDoses("phone", poll: false)
        #expect((created?.created ?? 0) >= 2, "\(String(describing: created))")
        let rows = try daemon.store.doseTasks.tasks(account: "phone")
        let row = try #require(rows.first { $0.scheduledAt == Self.morning }, "\(rows.map(\.uid))")
        let key = try #require(DoseTaskUID.parse(row.uid)?.key)
        var foreignKey = DoseTaskUID.newKey()
        while foreignKey == key { foreignKey = DoseTaskUID.newKey() }
        let ticked = ["STATUS:COMPLETED", "COMPLETED:20300115T070100Z", "PERCENT-COMPLETE:100"]
        let deep = 100_000
        let enemies: [(String, String)] = [
            ("a medication key not ours", Self.task(uid: DoseTaskUID.make(key: foreignKey, due: Self.morning), ticked)),
            ("a due instant in year 99999", Self.task(uid: "beautyd-dose-\(key)-999990115T070000Z", ticked)),
            (
                "another dose of ours",
                Self.task(uid: DoseTaskUID.make(key: key, due: instant("2030-01-15 20:00")), ticked)
            ),
            (
                "VALARMs nested \(deep) deep",
                Self.task(
                    uid: row.uid,
                    ticked + Array(repeating: "BEGIN:VALARM", count: deep) + Array(repeating: "END:VALARM", count: deep)
                )
            ),
            ("COMPLETED with garbage", Self.task(uid: row.uid, ["COMPLETED:yesterday-ish", "STATUS:NEEDS-ACTION"])),
            ("a line of 20 MB", Self.task(uid: row.uid, ["X-JUNK:" + String(repeating: "x", count: 20 << 20)])),
        ]
        daemon.clock.set(Self.morning.addingTimeInterval(5 * 60))
        for (what, text) in enemies {
            try await server.control("put?" + row.href, body: text)
            let report = await sync.syncDoses("phone", poll: true)
            let status = await sync.dosesStatus(account: "phone")
            let dose = try Self.morningDose(daemon, medicationID)
            #expect(dose.state != .taken && dose.state != .skipped, "\(what): \(dose.state)")
            #expect(try daemon.store.medications.find(id: medicationID).stock == 10, "\(what)")
            #expect(report?.answersApplied ?? 0 == 0, "\(what): \(String(describing: report))")
            if what != "COMPLETED with garbage" && what != "a line of 20 MB" {
                #expect(
                    status?.lastError?.contains(row.href) == true, "\(what): \(String(describing: status?.lastError))")
            }
        }

        // The phone ticks it for real, with a status word in odd case.
        try await server.control(
            "put?" + row.href, body: Self.task(uid: row.uid, ["STATUS:Completed", "COMPLETED:20300115T070100Z"]))
        let good = await sync.syncDoses("phone", poll: true)
        #expect(good?.answersApplied == 1, "\(String(describing: good))")
        let status = await sync.dosesStatus(account: "phone")
        #expect(status?.lastError == nil, "\(String(describing: status?.lastError))")
        try Self.expectTheTickRecorded(daemon, medicationID, server)
    }

    @Test(
        "the list's answers: XML nested 100,000 deep, 500, 401, 100,000 hrefs listed: no dose taken, the error said, the next good poll records the tick"
    )
    func enemiesInTheListing() async throws {
        let server = try await HostileCalDAVServer.start()
        defer { server.stop() }
        let (daemon, medicationID) = try await Self.daemon(on: server, times: [8])
        let sync = daemon.daemon.sync
        _ = await sync.syncDoses("phone", poll: false)
        let rows = try daemon.store.doseTasks.tasks(account: "phone")
        let row = try #require(rows.first { $0.scheduledAt == Self.morning }, "\(rows.map(\.uid))")
        // The server's tasks as beautyd wrote them, the morning one ticked on the phone.
        var events: [String: String] = [:]
        for written in rows { events[String(written.href.split(separator: "/").last!)] = written.ics }
        let name = String(row.href.split(separator: "/").last!)
        events[name] = Self.task(uid: row.uid, ["STATUS:COMPLETED", "COMPLETED:20300115T070100Z"])
        daemon.clock.set(Self.morning.addingTimeInterval(5 * 60))

        func untaken(_ what: String) throws {
            let dose = try Self.morningDose(daemon, medicationID)
            #expect(dose.state != .taken, "\(what): \(dose.state)")
            #expect(try daemon.store.medications.find(id: medicationID).stock == 10, "\(what)")
        }
        let enemies: [(String, HostileCalDAVServer.Script, Bool)] = [
            ("XML nested 100,000 deep", .init(events: events, nestedXML: 100_000), true),
            ("500", .init(events: events, error: .init(status: 500, body: "down for maintenance")), true),
            ("401", .init(events: events, error: .init(status: 401, body: "who are you")), true),
        ]
        for (what, script, failing) in enemies {
            try await server.set(script)
            let report = await sync.syncDoses("phone", poll: true)
            let status = await sync.dosesStatus(account: "phone")
            #expect((report == nil) == failing, "\(what): \(String(describing: report))")
            #expect(status?.lastError?.isEmpty == false || !failing, "\(what)")
            try untaken(what)
        }

        // 100,000 hrefs that are not beautyd's tasks are listed and never fetched; the tick is read.
        try await server.set(.init(events: events, listedExtra: 100_000))
        let listed = await sync.syncDoses("phone", poll: true)
        #expect(listed?.answersApplied == 1 && listed?.read == 1, "\(String(describing: listed))")
        #expect((await sync.dosesStatus(account: "phone"))?.lastError == nil)
        try Self.expectTheTickRecorded(daemon, medicationID, server)
    }

    @Test("a listing truncated with a new token every time, no changes: [sync] sync_timeout ends the dose run")
    func anEndlessListingIsStopped() async throws {
        let server = try await HostileCalDAVServer.start()
        defer { server.stop() }
        let (daemon, medicationID) = try await Self.daemon(on: server, times: [8], syncTimeout: 3)
        let sync = daemon.daemon.sync
        _ = await sync.syncDoses("phone", poll: false)
        try await server.control("endless?0.2")
        daemon.clock.set(Self.morning.addingTimeInterval(5 * 60))
        let endless = await sync.syncDoses("phone", poll: true)
        #expect(endless == nil)
        let error = (await sync.dosesStatus(account: "phone"))?.lastError
        #expect(error?.contains("the sync took longer than 3 s") == true, "\(String(describing: error))")
        #expect(server.lines.filter { $0.hasPrefix("ENDLESS page") }.count >= 2, "\(server.lines.suffix(5))")
        #expect(try daemon.store.medications.find(id: medicationID).stock == 10)
    }

    @Test("a server that answers 412 to every If-Match: the run ends after its three readings, the error said")
    func refusedForever() async throws {
        let server = try await HostileCalDAVServer.start()
        defer { server.stop() }
        let (daemon, medicationID) = try await Self.daemon(on: server, times: [8])
        let sync = daemon.daemon.sync
        _ = await sync.syncDoses("phone", poll: false)
        try await server.control("refuse-match")
        daemon.clock.set(Self.morning.addingTimeInterval(5 * 60))
        let doseID = try #require(try Self.morningDose(daemon, medicationID).id)
        _ = try await daemon.call(MedicationRPC.doseTaken, DoseParams(id: doseID))
        let report = try #require(await sync.syncDoses("phone", poll: false))
        #expect(report.stillRefused && report.preconditionFailures == 3, "\(report)")
        let status = await sync.dosesStatus(account: "phone")
        let error = status?.lastError
        #expect(error?.contains("412") == true, "\(String(describing: error))")
        // In the reader's language on sync status.
        #expect(
            status?.lastErrorText?.rendered(Localizer.forLanguage(.polish)).hasPrefix(
                "serwer odrzucił zapisy beautyd na liście zadań na dawki") == true,
            "\(String(describing: status?.lastErrorText))")
        #expect(status?.lastErrorText?.english == error)
        // The desktop's answer stands on the desktop.
        #expect(try Self.morningDose(daemon, medicationID).state == .taken)
        // One create, then three tries of the answer: no more (the server's log is read as it comes).
        let href = try #require(
            try daemon.store.doseTasks.tasks(account: "phone").first { $0.scheduledAt == Self.morning }?.href)
        let puts = { server.writes.filter { $0 == "PUT " + href }.count }
        _ = await eventually(timeout: .seconds(60)) { puts() >= 4 ? true : nil }
        #expect(puts() == 4, "\(server.writes)")
    }

    @Test(
        "a list that redirects to another host gets no password there; one that stalls past request_timeout: errors said"
    )
    func redirectedAndStalled() async throws {
        let server = try await HostileCalDAVServer.start()
        defer { server.stop() }
        let (daemon, medicationID) = try await Self.daemon(on: server, times: [8], requestTimeout: 2)
        let sync = daemon.daemon.sync
        _ = await sync.syncDoses("phone", poll: false)
        daemon.clock.set(Self.morning.addingTimeInterval(5 * 60))

        try await server.control("redirect-all?http://127.0.0.2:\(server.trapPort)/cal/")
        let redirected = await sync.syncDoses("phone", poll: true)
        let redirectError = (await sync.dosesStatus(account: "phone"))?.lastError
        #expect(redirected == nil && redirectError?.isEmpty == false, "\(String(describing: redirectError))")
        let trapped = await eventually(timeout: .seconds(60)) { server.trapped.isEmpty ? nil : server.trapped }
        #expect(trapped?.isEmpty == false && trapped?.allSatisfy { $0.hasSuffix("auth=no") } == true, "\(server.lines)")
        #expect(try Self.morningDose(daemon, medicationID).state != .taken)

        try await server.control("redirect-all?")
        try await server.control("trickle")
        let stalled = await sync.syncDoses("phone", poll: true)
        let stallError = (await sync.dosesStatus(account: "phone"))?.lastError
        #expect(stalled == nil && stallError?.contains("2 s") == true, "\(String(describing: stallError))")
        #expect(try daemon.store.medications.find(id: medicationID).stock == 10)
    }

    /// The medication's dose due at 08:00.
    static func morningDose(_ daemon: InProcessDaemon, _ medicationID: Int64) throws -> Dose {
        try #require(
            try daemon.store.medications.doses(
                from: morning, to: morning.addingTimeInterval(1), medicationID: medicationID
            ).first)
    }

    /// The phone's tick at 08:01 is taken on the desktop, stock down, and nothing reached the trap.
    static func expectTheTickRecorded(_ daemon: InProcessDaemon, _ medicationID: Int64, _ server: HostileCalDAVServer)
        throws
    {
        let dose = try morningDose(daemon, medicationID)
        #expect(dose.state == .taken && dose.confirmedAt == instant("2030-01-15 08:01"), "\(dose)")
        #expect(try daemon.store.medications.find(id: medicationID).stock == 9)
        #expect(server.trapped.isEmpty, "\(server.trapped)")
    }

    /// A daemon at 07:00 with doses on the phone on `server`'s calendar (one day ahead) and a
    /// medication of stock 10 taken at `times` (hours).
    static func daemon(on server: HostileCalDAVServer, times: [Int], syncTimeout: Int = 600, requestTimeout: Int = 60)
        async throws -> (
            InProcessDaemon, Int64
        )
    {
        var config = DaemonConfig()
        config.dosesDays = 1
        config.syncTimeoutSeconds = syncTimeout
        config.syncRequestTimeoutSeconds = requestTimeout
        let daemon = try await InProcessDaemon(now: Self.start, config: config)
        let calendar = server.calendarURL.absoluteString
        try daemon.store.sync.addAccount(
            SyncAccount(
                name: "phone", url: calendar, user: "anna", passwordFile: server.passwordFile, calendarURL: calendar,
                calendarName: nil, insecure: false, supportsSyncCollection: true, createdAt: Self.start))
        try daemon.store.sync.setDoses(
            account: "phone", enabled: true, listURL: calendar, listName: "Leki", private: false)
        var params = MedicationAddParams(name: "Witamina D")
        params.stock = 10
        params.schedule = MedicationSchedule(kind: .times, times: times.map { ClockTime(hour: $0, minute: 0) })
        return (daemon, try #require(try await daemon.call(MedicationRPC.add, params).medication.id))
    }
}
