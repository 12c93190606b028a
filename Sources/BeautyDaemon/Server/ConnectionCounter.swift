import Foundation

/// Hands out connection numbers, never the same twice in a daemon's life.
final class ConnectionCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var last: UInt64 = 0

    func next() -> UInt64 {
        lock.withLock {
            last += 1
            return last
        }
    }
}
