import Foundation

/// A thread-safe one-shot signal.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false

    func set() { lock.withLock { raised = true } }

    /// True once per `set()`.
    func take() -> Bool {
        lock.withLock {
            defer { raised = false }
            return raised
        }
    }
}
