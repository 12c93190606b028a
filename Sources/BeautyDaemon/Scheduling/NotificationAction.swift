import BeautyCore
import BeautyLocalization
import BeautyNotify

/// The buttons beautyd puts on its notifications: NotificationContent shows them, and the Scheduler
/// reads the id the notification server sends back when one is clicked.
enum NotificationAction: String, CaseIterable, Sendable {
    case taken, snooze, skip, dismiss
    /// On a water reminder: log a glass (250 ml) now.
    case drinkGlass = "water-250"

    /// The amount `drinkGlass` logs.
    static let glassMl = 250

    /// The button; its id is the same in every language, its label is translated.
    func button(_ l: Localizer) -> DesktopNotification.Action {
        DesktopNotification.Action(id: rawValue, label: label(l))
    }

    func label(_ l: Localizer) -> String {
        switch self {
        case .taken: l.trc("button", "Taken")
        case .snooze: l.trc("button", "Snooze")
        case .skip: l.trc("button", "Skip")
        case .dismiss: l.trc("button", "Dismiss")
        case .drinkGlass: l.trc("button", "+250 ml")
        }
    }

    /// The answer a click gives a dose; nil for a button doses do not have.
    var doseAnswer: Dose.State? {
        switch self {
        case .taken: .taken
        case .skip: .skipped
        case .snooze: .snoozed
        case .dismiss, .drinkGlass: nil
        }
    }
}
