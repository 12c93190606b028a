import Foundation

/// Numbers 1, 2, 3... for request ids and connections, from any thread.
package final class TestCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int64 = 0

    package init() {}

    package func next() -> Int64 {
        lock.withLock {
            value += 1
            return value
        }
    }
}
