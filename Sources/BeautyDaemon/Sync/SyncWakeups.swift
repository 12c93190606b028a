import Foundation

/// What wakes the sync loop: a notice (a local change, an account added) or the end of a wait.
/// Without a deadline the loop waits for a notice alone: no timer, no wake-up.
final class SyncWakeups: @unchecked Sendable {
    private let lock = NSLock()
    private var pending = false
    private var waiter: CheckedContinuation<Bool, Never>?

    /// Wakes the loop now, or at its next wait. Never blocks.
    func notify() {
        lock.lock()
        if let waiter {
            self.waiter = nil
            lock.unlock()
            waiter.resume(returning: true)
        } else {
            pending = true
            lock.unlock()
        }
    }

    /// Forgets a notice that came while the loop was syncing anyway.
    func clear() { lock.withLock { pending = false } }

    /// True when a notice came, false when `timeout` passed first or the task was cancelled.
    func wait(timeout: Duration?) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.notice() }
            if let timeout {
                group.addTask {
                    try? await EventLoopConcurrency.sleep(for: timeout)
                    return false
                }
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    private func notice() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                lock.lock()
                if pending {
                    pending = false
                    lock.unlock()
                    continuation.resume(returning: true)
                } else if Task.isCancelled {
                    lock.unlock()
                    continuation.resume(returning: false)
                } else {
                    waiter = continuation
                    lock.unlock()
                }
            }
        } onCancel: {
            lock.lock()
            let waiting = waiter
            waiter = nil
            lock.unlock()
            waiting?.resume(returning: false)
        }
    }
}
