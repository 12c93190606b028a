import Foundation

/// Runs `body` on a thread of its own and awaits it. Tests that hold the writer block on
/// semaphores; blocking Swift concurrency's threads instead (two on a 2-CPU machine) stalled every
/// other suite's sleeps and timers running beside them (a timer test overslept by 5 s).
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
