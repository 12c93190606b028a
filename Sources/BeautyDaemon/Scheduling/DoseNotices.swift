import Synchronization

/// Tells whoever listens (each account's dose loop, `SyncCoordinator`) that a dose or a medication
/// changed: an answer, a dose given up as missed, an edit, a zone change. A listener must not block.
public final class DoseNotices: Sendable {
    private let listeners = Mutex<[@Sendable () -> Void]>([])

    public init() {}

    public func listen(_ listener: @escaping @Sendable () -> Void) {
        listeners.withLock { $0.append(listener) }
    }

    func notice() {
        for listener in listeners.withLock({ $0 }) { listener() }
    }
}
