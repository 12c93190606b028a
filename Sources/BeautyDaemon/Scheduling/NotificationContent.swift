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
        // Always, buttons or not: a server may list actions it never lets the user reach (a stock dunst
        // without a menu program shows only "(A)").
        lines.append("Not now: beautyctl dose skip \(id) or dose snooze \(id)")
        lines.append("Taken: \(NotificationText.doseCommand(id))")
        return DesktopNotification(
            key: trigger.key, summary: "Time for \(medication.name)", body: lines.joined(separator: "\n"),
            category: ItemKind.medication.notificationCategory, urgency: .critical,
            actions: [NotificationAction.taken, .snooze, .skip].map(\.button),
            replacesKey: replacesKey)
    }

    /// A water reminder or the daily tip; nil when it is no longer wanted: reminders were switched
    /// off, the reminder's day has gone by, or that day's water goal is reached.
    func plannerNotice(_ trigger: Trigger, now: Date) throws -> DesktopNotification? {
        switch trigger.itemKind {
        case .tip:
            let tip = Tips.tip(id: Int(trigger.itemID)) ?? Tips.ofTheDay(LocalDate(trigger.occurrence, in: zone))
            return DesktopNotification(
                key: trigger.key, summary: "Beauty tip: \(tip.title)",
                body: "\(tip.text)\n(\(tip.category.title) — more: beautyctl tips --category \(tip.category.rawValue))",
                category: ItemKind.tip.notificationCategory, urgency: .low)
        case .water:
            let day = LocalDate(trigger.fireAt, in: zone)
            guard day == LocalDate(now, in: zone), try store.waterReminderWanted(at: trigger.fireAt, zone: zone) else { return nil }
            let total = try store.waterTotal(on: day, zone: zone).totalMl
            let progress = try store.waterGoal().map { goal in "Today so far: \(total) of \(goal) ml (\(total * 100 / goal)%)." }
                ?? "Today so far: \(total) ml."
            return DesktopNotification(
                key: trigger.key, summary: "Time for a glass of water",
                body: "\(progress)\nLog it with: beautyctl water add 250",
                category: ItemKind.water.notificationCategory, urgency: .normal)
        case .appointment, .medication:
            return nil
        }
    }

    func lowStock(_ medication: Medication, key: String) -> DesktopNotification {
        let left = Self.number(medication.stock ?? 0)
        return DesktopNotification(
            key: key,
            summary: "Running low: \(medication.name)",
            body: "\(left) left (warning at \(Self.number(medication.lowStock ?? 0))). After buying more: beautyctl med refill \(medication.id ?? 0) COUNT",
            category: ItemKind.medication.notificationCategory, urgency: .normal)
    }

    static func number(_ value: Double) -> String { Medication.formatUnits(value) }
}
