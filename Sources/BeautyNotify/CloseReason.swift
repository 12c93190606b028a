/// Why the notification server closed a notification (the NotificationClosed signal's reason,
/// Desktop Notifications Specification 1.2).
public enum CloseReason: Int, Sendable {
    case expired = 1
    /// The user dismissed it.
    case dismissed = 2
    /// beautyd closed it (CloseNotification).
    case closedByCall = 3
    case other = 4

    /// A code outside the specification counts as `other`, as the specification's "undefined/reserved" does.
    public init(code: Int) {
        self = CloseReason(rawValue: code) ?? .other
    }
}
