import BeautyCore
import BeautyStore
import Dispatch
import Foundation
import GRDB
import Testing

/// The scheduler runs the four planning steps on every pass. When nothing needs planning they must
/// not queue for the database writer: under a stream of writes (adds from clients) that queue put a
/// pass, and so the reminders it fires, behind every write waiting before it.
@Suite("Store: a planning pass with nothing to plan reads only")
struct PlanningWriterTests: WarsawJanuary2027 {
    /// A fresh database with a medication, a series, water reminders and a daily tip, all planned at
    /// `now`. Keep the directory alive (`withExtendedLifetime`) while the database is in use.
    func plannedEverything() throws -> (TemporaryDatabase, AppDatabase) {
        let temp = try TemporaryDatabase()
        let db = try temp.open()
        _ = try db.medications.add(
            Medication(
                name: "Iron", dose: "1 tablet",
                schedule: MedicationSchedule(kind: .times, times: [ClockTime(hour: 8, minute: 0)])),
            now: now)
        _ = try db.appointments.add(
            Appointment(
                title: "Rehabilitacja", start: local(18, 10), durationSeconds: 3600,
                reminders: [.before(3600)],
                recurrence: AppointmentRecurrence(rule: "FREQ=WEEKLY;BYDAY=MO,TH")),
            now: now, zone: zone)
        try db.water.setReminder(
            WaterReminder(
                enabled: true, everySeconds: 7200, windowStart: ClockTime(hour: 9, minute: 0),
                windowEnd: ClockTime(hour: 21, minute: 0)))
        try plan(db, now: now)
        return (temp, db)
    }

    func plan(_ db: AppDatabase, now: Date) throws {
        try db.medications.planDoses(now: now, zone: zone)
        try db.planSeries(now: now, zone: zone)
        try db.planWater(now: now, zone: zone)
        try db.planDailyTip(now: now, zone: zone, at: ClockTime(hour: 9, minute: 30))
    }

    func pendingKeys(_ db: AppDatabase) throws -> [String] {
        try db.writer.read {
            try String.fetchAll($0, sql: "SELECT key FROM delivery WHERE state = 'pending' ORDER BY key")
        }
    }

    /// Runs `body` while another thread holds the writer; true if `body` finished before the holder let go
    /// (the holder gives up after 2 s, so a `body` that needs the writer finishes late instead of never).
    func finishesWhileWriterIsHeld(_ db: AppDatabase, _ body: () throws -> Void) throws -> Bool {
        // Called through `onOwnThread`: it blocks.
        let held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0),
            done = DispatchSemaphore(value: 0)
        let timedOut = Flag()
        let writer = db.writer
        Thread.detachNewThread {
            try? writer.write { _ in
                held.signal()
                if release.wait(timeout: .now() + 2) == .timedOut { timedOut.set() }
            }
            done.signal()
        }
        held.wait()
        try body()
        release.signal()
        done.wait()
        return !timedOut.value
    }

    @Test func aPassWithNothingToPlanDoesNotWaitForTheWriter() async throws {
        let (temp, db) = try plannedEverything()
        defer { withExtendedLifetime(temp) {} }
        let before = try pendingKeys(db)
        #expect(before.contains { $0.hasPrefix("water/") } && before.contains { $0.hasPrefix("tip/") }, "\(before)")

        // A minute later nothing is due for planning: the pass must complete with the writer held elsewhere.
        let quiet = now.addingTimeInterval(60)
        #expect(try await onOwnThread { try finishesWhileWriterIsHeld(db) { try plan(db, now: quiet) } })
        #expect(try pendingKeys(db) == before)
    }

    @Test func aPassWithSomethingToPlanStillWrites() async throws {
        let (temp, db) = try plannedEverything()
        defer { withExtendedLifetime(temp) {} }
        let before = try pendingKeys(db)

        // Eight days later (past half of the doses' 48 h and the series' 14-day horizons) every kind has
        // new deliveries to plan, so the pass needs (and waits for) the writer.
        let later = now.addingTimeInterval(8 * 86_400)
        #expect(try await !onOwnThread { try finishesWhileWriterIsHeld(db) { try plan(db, now: later) } })
        let after = try pendingKeys(db)
        for prefix in ["medication/", "appointment/", "water/", "tip/"] {
            #expect(
                after.filter { $0.hasPrefix(prefix) } != before.filter { $0.hasPrefix(prefix) },
                "\(prefix) not replanned")
        }
    }
}

/// A flag set on one thread and read on another.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false
    func set() { lock.withLock { raised = true } }
    var value: Bool { lock.withLock { raised } }
}
