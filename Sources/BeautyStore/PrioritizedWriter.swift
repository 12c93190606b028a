import Foundation
import GRDB
import Synchronization

/// The database's single writer, with a fast lane for the scheduler.
///
/// Every write commits with an fsync (1–2 ms here). Under a stream of client writes, the ledger
/// write a delivery makes just before its Notify call waited behind all of them: with 4 clients
/// adding as fast as they could, reminders came up to 23 ms late (p99 18.6 ms). Writes made while
/// `WritePriority.urgent` is set now go as soon as the write in progress ends.
public final class PrioritizedWriter: Sendable {
    let database: any DatabaseWriter
    public let gate = WriteGate()
    /// The thread inside `inOneTransaction`, whose reads and writes join that transaction.
    private let transactionThread = Mutex<pthread_t?>(nil)
    private let writeCount = Atomic<UInt64>(0)

    /// How many writes went through this writer (tried or committed; a transaction with its savepoints
    /// counts once), counted before each returns to its caller: a reader tells in a few nanoseconds whether
    /// anything was written since it last looked (the scheduler's notifications built ahead of their instant).
    public var writes: UInt64 { writeCount.load(ordering: .acquiring) }

    init(_ database: any DatabaseWriter) { self.database = database }

    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        if inTransactionOfThisThread { return try database.unsafeReentrantWrite(value) }
        return try database.read(value)
    }

    /// One transaction: `updates` is committed whole, or rolled back whole when it throws. Inside
    /// `inOneTransaction`, a savepoint of that transaction.
    public func write<T>(_ updates: (Database) throws -> T) throws -> T {
        if inTransactionOfThisThread {
            return try database.unsafeReentrantWrite { db in
                var result: T?
                try db.inSavepoint {
                    result = try updates(db)
                    return .commit
                }
                return result!
            }
        }
        return try gate.withTurn(urgent: WritePriority.urgent) {
            defer { writeCount.add(1, ordering: .releasing) }
            return try database.write(updates)
        }
    }

    /// Runs `body` in one transaction (one commit, one fsync): every read and write it makes on this
    /// thread joins it, each write as a savepoint that a throwing write rolls back alone. For the
    /// records of a burst of deliveries, written together once all were shown.
    public func inOneTransaction<T>(_ body: () throws -> T) throws -> T {
        try write { _ in
            transactionThread.withLock { $0 = pthread_self() }
            defer { transactionThread.withLock { $0 = nil } }
            return try body()
        }
    }

    private var inTransactionOfThisThread: Bool {
        transactionThread.withLock { owner in owner.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// The database itself for the length of `body`, with no other write through this writer in
    /// between: for what reads and then replaces the whole file (a restore).
    func exclusive<T>(_ body: (any DatabaseWriter) throws -> T) throws -> T {
        try gate.withTurn(urgent: false) {
            defer { writeCount.add(1, ordering: .releasing) }
            return try body(database)
        }
    }
}

/// Set for the scheduler's task (and inherited by its child tasks): its writes overtake the
/// clients' waiting ones.
public enum WritePriority {
    @TaskLocal public static var urgent = false
}

/// One writer at a time, urgent ones before ordinary ones; in arrival order otherwise, as the
/// condition variable wakes them.
public final class WriteGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var busy = false
    private var urgentWaiting = 0
    private var ordinaryWaiting = 0

    /// Writers waiting for their turn (for tests).
    public var waiting: (urgent: Int, ordinary: Int) {
        condition.withLock { (urgentWaiting, ordinaryWaiting) }
    }

    func withTurn<T>(urgent: Bool, _ body: () throws -> T) throws -> T {
        condition.withLock {
            if urgent { urgentWaiting += 1 } else { ordinaryWaiting += 1 }
            while busy || (!urgent && urgentWaiting > 0) { condition.wait() }
            if urgent { urgentWaiting -= 1 } else { ordinaryWaiting -= 1 }
            busy = true
        }
        defer {
            condition.withLock {
                busy = false
                condition.broadcast()
            }
        }
        return try body()
    }
}
