import BeautyCore
import Foundation

/// A desktop notification to show, addressed by the delivery key it belongs to.
public struct DesktopNotification: Sendable, Equatable {
    public enum Urgency: Int, Sendable { case low = 0, normal = 1, critical = 2 }

    public struct Action: Sendable, Equatable {
        public var id: String
        public var label: String
        public init(id: String, label: String) {
            self.id = id
            self.label = label
        }
    }

    /// The delivery this notification announces; actions and closes come back with it.
    public var key: String
    public var summary: String
    public var body: String
    public var category: String
    public var urgency: Urgency
    public var actions: [Action]
    /// Shown instead of the actions when the server cannot show buttons.
    public var noActionsHint: String?
    /// Replace the notification last shown for this key (same server id) instead of adding one.
    public var replacesKey: String?
    /// A reminder the person must see: it stays on screen until dismissed (expire timeout 0, and `resident` where
    /// the server lists `persistence`) instead of leaving after the server's default timeout. Critical notifications always stay.
    public var staysUntilDismissed: Bool
    /// The delivery keys it tells of: its own key, or each member of a group. A server that answers a Notify
    /// late has shown these, whatever notification tells of them next.
    public var covers: [String]

    public init(
        key: String, summary: String, body: String, category: String, urgency: Urgency = .normal,
        actions: [Action] = [], noActionsHint: String? = nil, replacesKey: String? = nil, covers: [String]? = nil,
        staysUntilDismissed: Bool = false
    ) {
        self.key = key
        self.covers = covers ?? [key]
        self.summary = summary
        self.body = body
        self.category = category
        self.urgency = urgency
        self.actions = actions
        self.noActionsHint = noActionsHint
        self.replacesKey = replacesKey
        self.staysUntilDismissed = staysUntilDismissed || urgency == .critical
    }
}

/// What became of a notification handed to `show`.
public enum ShowOutcome: Sendable, Equatable {
    /// The server took it and numbered it `id`.
    case shown(id: UInt32)
    /// Not sent: the server has already shown these of its `covers` (a Notify it answered late). The others were
    /// not shown and need a notification of their own.
    case shownEarlier(Set<String>)
}

/// What the notification server tells us back.
public enum NotifierEvent: Sendable, Equatable {
    /// A button was clicked on the notification shown for `key`.
    case action(key: String, action: String)
    /// The notification was closed: 1 expired, 2 dismissed by the user, 3 closed by a call, 4 other.
    case closed(key: String, reason: Int)
    case serverAppeared
    case serverVanished
}

/// Who is showing our notifications, as last seen (never asked on a request path: it may hang).
public struct NotificationServerInfo: Sendable, Equatable {
    public var reachable: Bool
    public var name: String?
    public var vendor: String?
    public var version: String?
    public var capabilities: [String]
    /// In English; `lastErrorText` is the same as a template when beautyd wrote it (not GLib or libnotify).
    public var lastError: String?
    public var lastErrorText: TranslatableText?

    public init(
        reachable: Bool, name: String? = nil, vendor: String? = nil, version: String? = nil,
        capabilities: [String] = [], lastError: String? = nil
    ) {
        self.reachable = reachable
        self.name = name
        self.vendor = vendor
        self.version = version
        self.capabilities = capabilities
        self.lastError = lastError
    }

    /// Not reachable, for `reason`.
    public static func failing(_ reason: TranslatableText) -> NotificationServerInfo {
        var info = NotificationServerInfo(reachable: false)
        info.fail(reason)
        return info
    }

    /// Sets the last error from a message beautyd wrote, so `status` shows it in its user's language.
    public mutating func fail(_ text: TranslatableText?) {
        lastErrorText = text
        lastError = text?.english
    }

    /// Sets the last error from a library's own words (English only).
    public mutating func fail(_ text: String) {
        lastErrorText = nil
        lastError = text
    }
}

public struct NotifierError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// `message` as a template when beautyd wrote it (not GLib or libnotify).
    public var text: TranslatableText?
    public init(_ message: String) { self.message = message }

    public init(_ text: TranslatableText) {
        message = text.english
        self.text = text
    }
    public var description: String { message }
}

/// The server's answer to a notification sent with `send`: what `show` answers.
public typealias ShowReply = Task<ShowOutcome, any Error>

/// Shows desktop notifications. Implementations must never block the caller's thread on the bus.
public protocol Notifier: Sendable {
    /// Shows (or replaces) a notification, unless the server has already shown some of what it covers.
    /// Throws when no server took it.
    func show(_ notification: DesktopNotification) async throws -> ShowOutcome
    /// Sends a notification at once and answers what `show` would, without waiting for the server's answer
    /// to those sent before: a burst's calls are in flight together and reach the server in the order sent.
    /// `sending` runs just before the call goes to the bus (not at all when it is not sent).
    func send(_ notification: DesktopNotification, sending: @escaping @Sendable () -> Void) -> ShowReply
    /// Takes a shown notification off the screen (e.g. a dose confirmed from the terminal); no-op if gone.
    func close(key: String) async
    /// The last known state of the notification server; cheap and non-blocking.
    func serverInfo() -> NotificationServerInfo
    /// Action clicks, closes, and the server coming and going.
    var events: AsyncStream<NotifierEvent> { get }
}
