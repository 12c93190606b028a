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
