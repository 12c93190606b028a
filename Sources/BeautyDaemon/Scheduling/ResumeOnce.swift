import Foundation

/// A continuation resumed by whichever comes first (an answer or a cancellation), exactly once.
final class ResumeOnce<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, Error>?
    private var early: Result<T, Error>?
    private var done = false

    /// Hands over the continuation; false (and already resumed) if the outcome came first.
    func install(_ continuation: CheckedContinuation<T, Error>) -> Bool {
        let result: Result<T, Error>? = lock.withLock {
            if let early { done = true; return early }
            self.continuation = continuation
            return nil
        }
        guard let result else { return true }
        continuation.resume(with: result)
        return false
    }

    func resume(_ result: Result<T, Error>) {
        let waiting: CheckedContinuation<T, Error>? = lock.withLock {
            guard !done else { return nil }
            guard let continuation else {
                if early == nil { early = result }
                return nil
            }
            done = true
            self.continuation = nil
            return continuation
        }
        waiting?.resume(with: result)
    }
}
