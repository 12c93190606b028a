import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// Bounds how long an operation may take, whatever it waits for: a server that trickles its answer
/// a byte a second never trips a read timeout, and AsyncHTTPClient's own deadline does not cover
/// reading the body.
enum Deadline {
    /// `body`'s result, or `expired` thrown once `limit` has passed. `body` runs in a task of its own,
    /// cancelled when the limit passes (or the caller is cancelled); the caller does not wait for it
    /// to notice. The limit is a timer of `eventLoop`'s: `Task.sleep` would go through `dispatch_after`,
    /// which starts libdispatch's once-a-second load monitor for the life of the process, so an idle
    /// daemon would never sleep again after its first sync.
    static func run<T: Sendable>(
        within limit: Duration, on eventLoop: any EventLoop, expired: @escaping @Sendable () -> Error,
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let outcome = NIOLockedValueBox<CheckedContinuation<T, Error>?>(nil)
        let work = NIOLockedValueBox<Task<Void, Never>?>(nil)
        let timer = NIOLockedValueBox<Scheduled<Void>?>(nil)
        @Sendable func finish(_ result: Result<T, Error>) {
            guard
                let continuation = outcome.withLockedValue({ value -> CheckedContinuation<T, Error>? in
                    defer { value = nil }
                    return value
                })
            else { return }
            work.withLockedValue { $0?.cancel() }
            timer.withLockedValue { $0?.cancel() }
            continuation.resume(with: result)
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
                outcome.withLockedValue { $0 = continuation }
                // A caller cancelled before this point ran its cancellation handler while there was no
                // continuation to resume: it is seen here, and the work never starts.
                if Task.isCancelled {
                    finish(.failure(CancellationError()))
                    return
                }
                // A cancellation may also come between the check above and here: `finish` clears the
                // outcome before it cancels the timer and the work under their locks, so each is
                // armed or started only while the outcome is still open, else `finish` finds it.
                let open = { outcome.withLockedValue { $0 != nil } }
                // Armed before the work starts, so a body that ends at once finds it there to cancel.
                timer.withLockedValue { scheduled in
                    guard open() else { return }
                    scheduled = eventLoop.scheduleTask(in: TimeAmount(limit)) { finish(.failure(expired())) }
                }
                work.withLockedValue { task in
                    guard open() else { return }
                    task = Task {
                        do { finish(.success(try await body())) } catch { finish(.failure(error)) }
                    }
                }
            }
        } onCancel: {
            finish(.failure(CancellationError()))
        }
    }
}
