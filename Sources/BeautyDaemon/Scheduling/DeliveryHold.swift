import BeautyCore
import BeautyNotify
import BeautyStore
import Foundation

/// What keeps a due reminder from being shown: the notification server, or the database (locked by
/// another program, a full disk, damage). Each is told as it is, and retried at its own pace.
struct DeliveryHold: Sendable, Equatable {
    /// "a notification server: …", "the database: the disk holding /x/beautyd.sqlite is full"
    var waitingFor: String { text.english }
    /// `waitingFor` as a template, for `status` in its user's language.
    let text: TranslatableText
    let fault: DatabaseFault?

    /// What else a delivery can wait for than the database.
    enum Holder: Sendable {
        case notificationServer, scheduler
    }

    /// `otherwise` names what waits when `error` is no database fault (for a delivery, the server).
    init(_ error: any Error, databasePath: String, otherwise: Holder = .notificationServer) {
        fault = DatabaseFault(error)
        let summary = DatabaseFault.summary(of: error)
        let detail: TranslatableText.Argument = (error as? NotifierError)?.text.map { .message($0) } ?? .plain(summary)
        text =
            if let fault {
                TranslatableText(
                    "the database: %s (%s)", [.message(fault.explanationText(path: databasePath)), .plain(summary)])
            } else if otherwise == .scheduler {
                TranslatableText("the scheduler: %s", [detail])
            } else {
                TranslatableText("a notification server: %s", [detail])
            }
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
