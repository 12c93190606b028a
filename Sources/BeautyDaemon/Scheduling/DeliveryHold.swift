import BeautyStore
import Foundation

/// What keeps a due reminder from being shown: the notification server, or the database (locked by
/// another program, a full disk, damage). Each is told as it is, and retried at its own pace.
struct DeliveryHold: Sendable, Equatable {
    /// "a notification server: …", "the database: the disk holding /x/beautyd.sqlite is full"
    let waitingFor: String
    let fault: DatabaseFault?

    /// `otherwise` names what waits when `error` is no database fault (for a delivery, the server).
    init(_ error: any Error, databasePath: String, otherwise: String = "a notification server") {
        fault = DatabaseFault(error)
        let summary = DatabaseFault.summary(of: error)
        waitingFor = fault.map { "the database: \($0.explanation(path: databasePath)) (\(summary))" } ?? "\(otherwise): \(summary)"
    }

    /// A lock is usually let go within seconds, and every try already waits up to SQLite's busy timeout
    /// for it: try again after a second rather than after `retry_interval`, so a reminder held by a lock
    /// comes about when the lock goes. Anything else waits `retry_interval`.
    func retryDelay(configured retrySeconds: Int) -> TimeInterval {
        fault == .locked ? min(Self.lockRetrySeconds, TimeInterval(retrySeconds)) : TimeInterval(retrySeconds)
    }

    static let lockRetrySeconds: TimeInterval = 1
}

/// The scheduler's current hold, readable without waiting for the scheduler (which may be blocked in a
/// busy wait on the very lock `status` wants to report).
final class DeliveryHoldBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: DeliveryHold?

    var current: DeliveryHold? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
