import BeautyCore
import BeautyNotify
import BeautyStore
import Foundation

/// What each kind of trigger looks like on screen.
struct NotificationContent {
    let store: AppDatabase
    let zone: TimeZone

    /// nil when the item behind the trigger is gone.
    func appointment(_ trigger: Trigger) -> DesktopNotification? {
        guard let appointment = try? store.appointment(id: trigger.itemID) else { return nil }
        let contact = appointment.contactID.flatMap { try? store.contact(id: $0) }
        let text = NotificationText.appointment(appointment, contact: contact, zone: zone)
        return DesktopNotification(
            key: trigger.key, summary: text.summary, body: text.body,
            category: ItemKind.appointment.notificationCategory, urgency: .normal,
            actions: [NotificationAction.snooze, .dismiss].map(\.button))
    }

    /// A dose: critical, with Taken / Snooze / Skip, always showing the originally scheduled time.
    func dose(_ trigger: Trigger, dose: Dose, medication: Medication, nagCount: Int, replacesKey: String?) -> DesktopNotification {
        let times = Timestamps(zone: zone)
        var lines = ["\(medication.dose ?? "1 dose") — scheduled \(times.clock(dose.scheduledAt))"]
        if trigger.source == .nag { lines.append("Reminder \(dose.nagCount + 1) of \(nagCount): not confirmed yet") }
        if let notes = medication.notes { lines.append(notes) }
        let id = dose.id ?? 0
        return DesktopNotification(
            key: trigger.key, summary: "Time for \(medication.name)", body: lines.joined(separator: "\n"),
            category: ItemKind.medication.notificationCategory, urgency: .critical,
            actions: [NotificationAction.taken, .snooze, .skip].map(\.button),
            noActionsHint: "Confirm in a terminal: beautyctl dose taken \(id) (or: dose skip \(id), dose snooze \(id))",
            replacesKey: replacesKey)
    }

    func lowStock(_ medication: Medication, key: String) -> DesktopNotification {
        let left = Self.number(medication.stock ?? 0)
        return DesktopNotification(
            key: key,
            summary: "Running low: \(medication.name)",
            body: "\(left) left (warning at \(Self.number(medication.lowStock ?? 0))). After buying more: beautyctl med refill \(medication.id ?? 0) COUNT",
            category: ItemKind.medication.notificationCategory, urgency: .normal)
    }

    /// 30 -> "30", 2.5 -> "2.5"
    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
