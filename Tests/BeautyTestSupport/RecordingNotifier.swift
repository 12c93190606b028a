import BeautyNotify
import Foundation

/// A notification server in process: records every notification the daemon hands it and answers as
/// a server would, and lets a test play the server's side (clicks, closes, going away, coming back).
/// In-process tests use it instead of libnotify, which keeps the first bus it meets for the process's life.
package final class RecordingNotifier: Notifier, @unchecked Sendable {
    package let events: AsyncStream<NotifierEvent>
    private let continuation: AsyncStream<NotifierEvent>.Continuation
    private let answer: @Sendable (_ index: Int, DesktopNotification) -> ShowOutcome
    private let lock = NSLock()
    private var requests: [DesktopNotification] = []
    private var closes: [String] = []
    private var info = NotificationServerInfo(reachable: true, name: "recording", capabilities: ["actions", "body"])

    /// `answer` tells what the server says to the index-th notification it takes (0 first); by
    /// default it shows each one, numbered from 1.
    package init(
        answer: @escaping @Sendable (_ index: Int, DesktopNotification) -> ShowOutcome = { index, _ in
            .shown(id: UInt32(index + 1))
        }
    ) {
        self.answer = answer
        (events, continuation) = AsyncStream.makeStream()
    }

    /// Every notification a server took, in order.
    package var shown: [DesktopNotification] { lock.withLock { requests } }

    /// The keys of the notifications the daemon took off the screen.
    package var closed: [String] { lock.withLock { closes } }

    package func show(_ notification: DesktopNotification) async throws -> ShowOutcome {
        try take(notification)
    }

    package func send(_ notification: DesktopNotification, sending: @escaping @Sendable () -> Void) -> ShowReply {
        let outcome = Result {
            if serverInfo().reachable { sending() }
            return try take(notification)
        }
        return Task { try outcome.get() }
    }

    private func take(_ notification: DesktopNotification) throws -> ShowOutcome {
        try lock.withLock {
            guard info.reachable else { throw NotifierError(info.lastError ?? "no notification server") }
            requests.append(notification)
            return answer(requests.count - 1, notification)
        }
    }

    package func close(key: String) async { lock.withLock { closes.append(key) } }

    package func serverInfo() -> NotificationServerInfo { lock.withLock { info } }

    /// The server leaves (every show fails until it comes back) or appears again, telling the daemon.
    package func setReachable(_ reachable: Bool) {
        lock.withLock {
            info.reachable = reachable
            info.lastError = reachable ? nil : "org.freedesktop.Notifications: no such name on the bus"
        }
        continuation.yield(reachable ? .serverAppeared : .serverVanished)
    }

    /// What the server tells the daemon: a click, a close.
    package func emit(_ event: NotifierEvent) { continuation.yield(event) }

    /// Waits until at least `count` notifications were taken; returns all of them (maybe fewer on timeout).
    package func waitForShown(_ count: Int, timeout: Duration = .seconds(15)) async -> [DesktopNotification] {
        await eventually(timeout: timeout, interval: .milliseconds(5)) { () -> [DesktopNotification]? in
            let all = shown
            return all.count >= count ? all : nil
        } ?? shown
    }
}
