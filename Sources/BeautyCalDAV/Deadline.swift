import Foundation
import NIOConcurrencyHelpers

/// Bounds how long an operation may take, whatever it waits for: a server that trickles its answer
/// a byte a second never trips a read timeout, and AsyncHTTPClient's own deadline does not cover
/// reading the body.
enum Deadline {
    /// `body`'s result, or `expired` thrown once `limit` has passed. `body` runs in a task of its own,
    /// cancelled when the limit passes (or the caller is cancelled); the caller does not wait for it
    /// to notice.
    static func run<T: Sendable>(within limit: Duration, expired: @escaping @Sendable () -> Error,
                                 _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let outcome = NIOLockedValueBox<CheckedContinuation<T, Error>?>(nil)
        let work = NIOLockedValueBox<Task<Void, Never>?>(nil)
        let timer = NIOLockedValueBox<Task<Void, Never>?>(nil)
        @Sendable func finish(_ result: Result<T, Error>) {
            guard let continuation = outcome.withLockedValue({ value -> CheckedContinuation<T, Error>? in
                defer { value = nil }
                return value
            }) else { return }
            work.withLockedValue { $0?.cancel() }
            timer.withLockedValue { $0?.cancel() }
            continuation.resume(with: result)
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
                outcome.withLockedValue { $0 = continuation }
                work.withLockedValue { task in
                    task = Task {
                        do { finish(.success(try await body())) } catch { finish(.failure(error)) }
                    }
                }
                timer.withLockedValue { task in
                    task = Task {
                        guard (try? await Task.sleep(for: limit)) != nil else { return }
                        finish(.failure(expired()))
                    }
                }
            }
        } onCancel: {
            finish(.failure(CancellationError()))
        }
    }
}
