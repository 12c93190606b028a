import BeautyStore
import Dispatch
import Foundation
import GRDB
import Testing

/// The scheduler's writes overtake clients' waiting ones: with the writer busy and three ordinary
/// writes queued, an urgent write (made under `WritePriority.urgent`) is the next to run.
@Suite("Store: urgent writes go first")
struct WritePriorityTests {
    @Test func anUrgentWriteOvertakesQueuedOrdinaryOnes() async throws {
        let db = try AppDatabase.inMemory()
        let order = Order()
        let held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()

        func onThread(_ body: @escaping @Sendable () -> Void) {
            finished.enter()
            Thread.detachNewThread {
                body()
                finished.leave()
            }
        }
        let writer = db.writer
        onThread {
            try? writer.write { _ in
                held.signal()
                // Released by the test; the timeout only keeps a failed test from hanging the run.
                _ = release.wait(timeout: .now() + 300)
            }
        }
        try await onOwnThread { held.wait() }
        for index in 1...3 {
            onThread { try? writer.write { _ in order.append("ordinary \(index)") } }
        }
        try await until { writer.gate.waiting.ordinary == 3 }
        // On a thread of its own like the others: a blocked Swift concurrency thread (two on a 2-CPU
        // machine, shared with every suite running beside this one) could wait behind theirs.
        onThread {
            WritePriority.$urgent.withValue(true) {
                try? writer.write { _ in order.append("urgent") }
            }
        }
        try await until { writer.gate.waiting.urgent == 1 }

        release.signal()
        try await onOwnThread { finished.wait() }
        #expect(order.entries.first == "urgent", "\(order.entries)")
        #expect(order.entries.count == 4)
        #expect(writer.gate.waiting == (0, 0))
    }

    @Test func outsideAnUrgentTaskWritesAreOrdinary() async throws {
        #expect(WritePriority.urgent == false)
        await WritePriority.$urgent.withValue(true) {
            #expect(WritePriority.urgent)
            await withTaskGroup(of: Bool.self) { group in
                group.addTask { WritePriority.urgent }  // child tasks inherit it
                #expect(await group.next() == true)
            }
        }
    }

    /// The records of a burst: one commit for all, each write a savepoint of it (one that throws is rolled
    /// back alone), reads inside it see its writes, other connections see nothing until it commits.
    @Test func writesInsideOneTransactionAreSavepointsOfIt() throws {
        let file = try TemporaryDatabase()
        let writer = try file.open().writer
        try writer.write { db in try db.execute(sql: "CREATE TABLE probe(x INTEGER)") }
        struct Refused: Error {}
        @Sendable func count(_ db: Database) throws -> Int {
            try Int.fetchOne(db, sql: "SELECT count(*) FROM probe") ?? -1
        }

        let (inside, seenElsewhere) = try writer.inOneTransaction {
            try writer.write { db in try db.execute(sql: "INSERT INTO probe VALUES (1)") }
            #expect(throws: Refused.self) {
                try writer.write { db in
                    try db.execute(sql: "INSERT INTO probe VALUES (2)")
                    throw Refused()
                }
            }
            try writer.write { db in try db.execute(sql: "INSERT INTO probe VALUES (3)") }
            // Another thread reads what is committed: nothing yet.
            let elsewhere = Order(), read = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                elsewhere.append("\((try? writer.read(count)) ?? -1)")
                read.signal()
            }
            read.wait()
            return (try writer.read(count), elsewhere.entries)
        }
        #expect(inside == 2)
        #expect(seenElsewhere == ["0"])
        #expect(try writer.read { db in try Int.fetchAll(db, sql: "SELECT x FROM probe ORDER BY x") } == [1, 3])
    }

    /// Waits for `condition`; the 120 s only keeps a failed test from hanging the run.
    private func until(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
        try #require(condition())
    }
}

/// Labels appended from several threads.
private final class Order: @unchecked Sendable {
    private let lock = NSLock()
    private var labels: [String] = []
    func append(_ label: String) { lock.withLock { labels.append(label) } }
    var entries: [String] { lock.withLock { labels } }
}
