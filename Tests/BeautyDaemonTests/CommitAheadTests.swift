@testable import BeautyDaemon
import BeautyCore
import BeautyProtocol
@testable import BeautyStore
import BeautyTestSupport
import Foundation
import GRDB
import Testing

/// The deliveries of an instant committed `commit_ahead_ms` before it: a crash on either side of the
/// instant shows nothing twice and loses nothing not yet due, an edit or a clock change in between
/// takes the commitment back, and at the instant the Notify calls wait for no write.
@Suite("Deliveries committed ahead of their instant: crashes, edits, clock changes, bursts")
struct CommitAheadTests {
    static let now = instant("2030-01-15 09:00")
    static let due = now.addingTimeInterval(60)
    static let lead = 5
    static var committing: Date { due.addingTimeInterval(-Double(lead) / 1000) }

    /// A real database file, as beautyd opens it (reads then never wait for a write in progress).
    static func withStore(_ body: (AppDatabase) async throws -> Void) async throws {
        let directory = try ScratchDirectory()
        try await body(try AppDatabase.open(path: try directory.sub("db.sqlite")))
    }

    static func daemon(at now: Date, _ store: AppDatabase) async throws -> InProcessDaemon {
        try await InProcessDaemon(now: now, store: store, commitAheadMilliseconds: lead)
    }

    @discardableResult
    static func add(_ daemon: InProcessDaemon, _ title: String, at fireAt: Date = due) async throws -> Int64 {
        var params = AppointmentAddParams(title: title, start: fireAt.addingTimeInterval(3600))
        params.reminders = [.at(fireAt)]
        return try await passed(daemon) {
            try #require(try await daemon.call(AppointmentRPC.add, params).appointment.id)
        }
    }

    /// Runs `request` and returns once the pass it woke has armed the timer again: no pass is left running.
    static func passed<T>(_ daemon: InProcessDaemon, _ request: () async throws -> T) async throws -> T {
        let arms = daemon.timer.arms
        let answer = try await request()
        guard
            await eventually(
                timeout: InProcessDaemon.patience, interval: .milliseconds(5),
                {
                    daemon.timer.arms > arms ? true : nil
                }) != nil
        else { throw HarnessError("no pass ended after the request") }
        return answer
    }

    /// Runs the daemon to `commit_ahead_ms` before the instant: the pass there commits it.
    static func commit(_ daemon: InProcessDaemon, count: Int = 1) async throws {
        #expect(await daemon.armed(for: committing), "next wake \(String(describing: daemon.timer.deadline))")
        try await daemon.advance(to: committing)
        #expect(
            await daemon.armed(for: due), "after committing, next wake \(String(describing: daemon.timer.deadline))")
        #expect(try daemon.store.deliveries.committedAhead(for: due).count == count)
        #expect(daemon.notifier.shown.isEmpty, "shown before its instant")
    }

    /// A daemon with one reminder ("Serum", at `due`) committed ahead: the daemon and the appointment's id.
    static func committedSerum(_ store: AppDatabase) async throws -> (InProcessDaemon, Int64) {
        let daemon = try await daemon(at: now, store)
        let id = try await add(daemon, "Serum")
        try await commit(daemon)
        return (daemon, id)
    }

    /// One reminder ("Serum", at `due`) committed ahead by a daemon that then dies: its appointment's id.
    static func committedThenKilled(_ store: AppDatabase) async throws -> Int64 {
        let (first, id) = try await committedSerum(store)
        await first.stop()  // as a kill: nothing more is written
        return id
    }

    /// Adds one reminder at `due` per title and runs the daemon to their commitment: their ids and delivery keys.
    static func committedBurst(_ daemon: InProcessDaemon, titles: [String]) async throws -> (
        ids: [Int64], keys: [String]
    ) {
        var ids: [Int64] = []
        for title in titles { ids.append(try await add(daemon, title)) }
        try await commit(daemon, count: titles.count)
        let keys = try ids.map { id in
            try #require(try daemon.store.deliveries.of(itemKind: .appointment, itemID: id).first?.trigger.key)
        }
        return (ids, keys)
    }

    static func state(_ store: AppDatabase, _ id: Int64) throws -> DeliveryState? {
        try store.deliveries.of(itemKind: .appointment, itemID: id).first?.state
    }

    @Test("committed, then a crash before the instant: pending again at the restart, and shown once at the instant")
    func crashBeforeTheInstant() async throws {
        try await Self.withStore { store in
            let id = try await Self.committedThenKilled(store)

            let second = try await Self.daemon(at: Self.due.addingTimeInterval(-0.002), store)
            #expect(try Self.state(store, id) == .pending)
            try await second.run(until: Self.due.addingTimeInterval(60))
            #expect(second.notifier.shown.map(\.summary) == ["Serum"])
            #expect(try Self.state(store, id) == .fired)
            #expect(try store.deliveries.of(itemKind: .appointment, itemID: id).first?.lastError == nil)
        }
    }

    @Test("committed, then a crash after the instant (the Notify may have gone): counted as shown, never shown again")
    func crashAfterTheInstant() async throws {
        try await Self.withStore { store in
            let id = try await Self.committedThenKilled(store)
            // The dead process had got as far as sending its Notify.
            let key = try #require(try store.deliveries.of(itemKind: .appointment, itemID: id).first?.trigger.key)
            store.showingProgress.sending(key, committedFor: Self.due)

            let second = try await Self.daemon(at: Self.due.addingTimeInterval(1), store)
            try await second.run(until: Self.due.addingTimeInterval(60))
            #expect(second.notifier.shown.isEmpty, "shown again: \(second.notifier.shown)")
            let delivery = try #require(try store.deliveries.of(itemKind: .appointment, itemID: id).first)
            #expect(delivery.state == .fired)
            #expect(delivery.lastError?.hasPrefix("interrupted while being shown") == true, "\(delivery)")
        }
    }

    @Test(
        "committed, then a crash before the instant and a restart after it: nothing was sent, so shown once at the restart"
    )
    func crashBeforeTheInstantRestartedAfterIt() async throws {
        try await Self.withStore { store in
            let id = try await Self.committedThenKilled(store)

            let second = try await Self.daemon(at: Self.due.addingTimeInterval(0.05), store)
            try await second.run(until: Self.due.addingTimeInterval(60))
            #expect(second.notifier.shown.map(\.summary) == ["Serum"])
            let delivery = try #require(try store.deliveries.of(itemKind: .appointment, itemID: id).first)
            #expect(delivery.state == .fired && delivery.lastError == nil, "\(delivery)")
        }
    }

    @Test(
        "a crash in the middle of a burst: those whose Notify was sent count as shown, the rest are shown at the restart; a progress file from another boot is not trusted"
    )
    func crashInTheMiddleOfABurst() async throws {
        for trusted in [true, false] {
            try await Self.withStore { store in
                let first = try await Self.daemon(at: Self.now, store)
                let (ids, keys) = try await Self.committedBurst(first, titles: (0..<10).map { "Burst \($0)" })
                await first.stop()
                // The dead process had sent the first four Notify calls of the burst (in key order).
                store.showingProgress.sending(keys.sorted()[3], committedFor: Self.due)
                if !trusted {
                    let file = store.path + "-showing"
                    let text = try String(contentsOfFile: file, encoding: .utf8)
                    try ("another-boot" + text.drop { $0 != "\n" }).write(
                        toFile: file, atomically: true, encoding: .utf8)
                }

                let second = try await Self.daemon(at: Self.due.addingTimeInterval(0.05), store)
                try await second.run(until: Self.due.addingTimeInterval(60))
                // Several due at a start are one "missed while away" notification covering each.
                let shownAgain = second.notifier.shown.flatMap(\.covers).sorted()
                #expect(shownAgain == (trusted ? Array(keys.sorted().dropFirst(4)) : []), "trusted: \(trusted)")
                for id in ids { #expect(try Self.state(store, id) == .fired) }
            }
        }
    }

    @Test(
        "an edit between the commitment and the instant takes it back: a removed one is not shown, a moved one at its new time"
    )
    func editTakesItBack() async throws {
        try await Self.withStore { store in
            let daemon = try await Self.daemon(at: Self.now, store)
            let removed = try await Self.add(daemon, "Removed")
            let moved = try await Self.add(daemon, "Moved")
            try await Self.add(daemon, "Kept")
            try await Self.commit(daemon, count: 3)

            _ = try await Self.passed(daemon) {
                try await daemon.call(AppointmentRPC.remove, AppointmentOccurrenceParams(id: removed))
            }
            var edit = AppointmentEditParams(id: moved)
            let later = Self.due.addingTimeInterval(30)
            edit.reminders = [.at(later)]
            _ = try await Self.passed(daemon) { try await daemon.call(AppointmentRPC.edit, edit) }
            #expect(daemon.timer.deadline == Self.due)
            #expect(try store.deliveries.committedAhead(for: Self.due).count == 1)

            try await daemon.advance(to: Self.due)
            #expect(daemon.notifier.shown.map(\.summary) == ["Kept"])
            try await daemon.run(until: later.addingTimeInterval(60))
            #expect(daemon.notifier.shown.map(\.summary) == ["Kept", "Moved"])
            #expect(try Self.state(store, moved) == .fired)
            #expect(try store.deliveries.of(itemKind: .appointment, itemID: removed).allSatisfy { $0.state != .fired })
        }
    }

    @Test(
        "at the instant, the notification built at the commit is shown without reading the store; a write since makes it read again"
    )
    func builtAtTheCommit() async throws {
        for written in [false, true] {
            try await Self.withStore { store in
                let (daemon, id) = try await Self.committedSerum(store)
                if written {
                    var edit = AppointmentEditParams(id: id)
                    edit.title = "Serum (edited)"
                    _ = try await Self.passed(daemon) { try await daemon.call(AppointmentRPC.edit, edit) }
                } else {
                    // Behind the writer's back, so no write is counted: only a notification built ahead shows the old title.
                    try await store.writer.database.write { db in
                        try db.execute(
                            sql: "UPDATE appointment SET title = 'Changed unseen' WHERE id = ?", arguments: [id])
                    }
                }

                try await daemon.run(until: Self.due.addingTimeInterval(60))
                #expect(
                    daemon.notifier.shown.map(\.summary) == [written ? "Serum (edited)" : "Serum"],
                    "written: \(written)")
                #expect(try Self.state(store, id) == .fired)
            }
        }
    }

    @Test(
        "between the commitment and the instant: notifications switched off, nothing shown; the language changed with no wake yet, shown in it"
    )
    func builtAheadFollowsSettings() async throws {
        try await Self.withStore { store in
            let (daemon, id) = try await Self.committedSerum(store)
            _ = try await Self.passed(daemon) {
                try await daemon.call(MedicationRPC.notifications, NotificationsParams(enabled: false))
            }
            try await daemon.run(until: Self.due.addingTimeInterval(60))
            #expect(daemon.notifier.shown.isEmpty, "shown while off: \(daemon.notifier.shown.map(\.summary))")
            #expect(try Self.state(store, id) == .suppressed)
        }
        try await Self.withStore { store in
            let (daemon, _) = try await Self.committedSerum(store)
            // As a reload does before its wake reaches the scheduler: the instant's wake may come first.
            daemon.daemon.settings.config.language = .polish
            try await daemon.advance(to: Self.due)
            let body = try #require(daemon.notifier.shown.first?.body)
            #expect(body.contains("stycznia"), "\(body)")
        }
    }

    @Test("the progress file read after a shorter record written over a longer one: the shorter one")
    func shorterProgressOverALongerOne() async throws {
        try await Self.withStore { store in
            let progress = store.showingProgress
            progress.sending("appointment/123456/2030-01-15T09:01:00Z/at", committedFor: Self.due)
            progress.sending("water/7", committedFor: Self.due)
            #expect(progress.read() == .sent(instant: Self.due, key: "water/7"))
            progress.sending("appointment/123456/2030-01-15T09:01:00Z/at", committedFor: Self.due)
            progress.started()
            #expect(progress.read() == .nothing)
        }
    }

    @Test(
        "a clock change between the commitment and the instant takes it back: pending, committed again before the instant"
    )
    func clockChangeTakesItBack() async throws {
        try await Self.withStore { store in
            let (daemon, id) = try await Self.committedSerum(store)

            // Set back an hour: the commitment was for an instant an hour and a minute away now.
            let arms = daemon.timer.arms
            daemon.clock.set(Self.now.addingTimeInterval(-3600))
            daemon.timer.wake(.clockChanged)
            #expect(
                await eventually(timeout: InProcessDaemon.patience, interval: .milliseconds(5)) {
                    daemon.timer.arms > arms ? true : nil
                } == true)
            #expect(try store.deliveries.committedAhead(for: Self.due).isEmpty)
            #expect(try Self.state(store, id) == .pending)
            #expect(daemon.timer.deadline == Self.committing)

            try await daemon.run(until: Self.due.addingTimeInterval(60))
            #expect(daemon.notifier.shown.map(\.summary) == ["Serum"])
        }
    }

    @Test(
        "10 due at one instant: committed ahead in one go, shown at the instant in key order while a client's write holds the database"
    )
    func burstWaitsForNoWrite() async throws {
        try await Self.withStore { store in
            let daemon = try await Self.daemon(at: Self.now, store)
            let (ids, keys) = try await Self.committedBurst(daemon, titles: (0..<10).map { "Burst \($0)" })

            // A client's write in progress at the instant, finished only once the test has looked.
            let writing = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let client = Thread {
                try? store.writer.write { _ in
                    writing.signal()
                    release.wait()
                }
            }
            client.start()
            writing.wait()
            let arms = daemon.timer.arms
            daemon.clock.set(Self.due)
            daemon.timer.wake(.deadline)
            let shown = await daemon.notifier.waitForShown(10, timeout: .seconds(60))
            release.signal()
            #expect(shown.map(\.key) == keys.sorted(), "\(shown.map(\.summary))")
            #expect(
                await eventually(timeout: InProcessDaemon.patience, interval: .milliseconds(5)) {
                    daemon.timer.arms > arms ? true : nil
                } == true)
            for id in ids { #expect(try Self.state(store, id) == .fired) }
            #expect(daemon.notifier.shown.count == 10)
        }
    }

    @Test(
        "10 due at one instant: every Notify first, then their records in one commit; shown in key order, not in the order added"
    )
    func burstRecordedInOneCommit() async throws {
        try await Self.withStore { store in
            let daemon = try await Self.daemon(at: Self.now, store)
            // Added in an order that is not the key order: the order shown is the keys', not the adds'.
            let (ids, keys) = try await Self.committedBurst(
                daemon, titles: (0..<10).reversed().map { "Burst \($0)" })
            let commits = FiredCountAtEachCommit()
            try store.writer.database.add(transactionObserver: commits, extent: .observerLifetime)

            try await daemon.advance(to: Self.due)
            let shown = daemon.notifier.shown
            #expect(shown.map(\.key) == keys.sorted(), "\(shown.map(\.summary))")
            // One commit for the ten records: none came between two Notify calls.
            #expect(commits.firedCounts == [10], "fired rows after each commit: \(commits.firedCounts)")
            for id in ids { #expect(try Self.state(store, id) == .fired) }
        }
    }
}

/// The number of `fired` deliveries after each commit that changed the delivery table.
private final class FiredCountAtEachCommit: TransactionObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [Int] = []
    private var changed = false

    var firedCounts: [Int] { lock.withLock { counts } }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { eventKind.tableName == "delivery" }
    func databaseDidChange(with event: DatabaseEvent) { changed = true }
    func databaseDidRollback(_ db: Database) { changed = false }
    func databaseDidCommit(_ db: Database) {
        guard changed else { return }
        changed = false
        let fired = (try? Int.fetchOne(db, sql: "SELECT count(*) FROM delivery WHERE state = 'fired'")) ?? -1
        lock.withLock { counts.append(fired) }
    }
}
