import BeautyCore
import BeautyNotify

/// The buttons beautyd puts on its notifications: NotificationContent shows them, and the Scheduler
/// reads the id the notification server sends back when one is clicked.
enum NotificationAction: String, CaseIterable, Sendable {
    case taken, snooze, skip, dismiss

    var button: DesktopNotification.Action {
        DesktopNotification.Action(id: rawValue, label: rawValue.prefix(1).uppercased() + rawValue.dropFirst())
    }

    /// The answer a click gives a dose; nil for a button doses do not have.
    var doseAnswer: Dose.State? {
        switch self {
        case .taken: .taken
        case .skip: .skipped
        case .snooze: .snoozed
        case .dismiss: nil
        }
    }
}
