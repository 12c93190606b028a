import BeautyProtocol
import Foundation

/// Fans daemon events (fired, snoozed, dismissed, missed...) out to every `subscribe`r.
public final class EventHub: @unchecked Sendable {
    private let lock = NSLock()
    private var subscribers: [UUID: AsyncStream<DaemonEvent>.Continuation] = [:]

    public init() {}

    public func publish(_ event: DaemonEvent) {
        let targets = lock.withLock { Array(subscribers.values) }
        for target in targets { target.yield(event) }
    }

    /// A stream of future events; it ends when the subscriber cancels or the daemon stops.
    public func subscribe() -> AsyncStream<DaemonEvent> {
        let id = UUID()
        // A subscriber that stops reading loses old events rather than growing the daemon's memory.
        let (stream, continuation) = AsyncStream<DaemonEvent>.makeStream(bufferingPolicy: .bufferingNewest(1000))
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.subscribers.removeValue(forKey: id) }
        }
        lock.withLock { subscribers[id] = continuation }
        return stream
    }

    public func finishAll() {
        let targets = lock.withLock { Array(subscribers.values) }
        for target in targets { target.finish() }
    }
}
