import BeautyCore
import BeautyLocalization
import BeautyNotify
import BeautyStore
import Foundation

/// What each kind of trigger looks like on screen, in the session's language.
struct NotificationContent {
    let store: AppDatabase
    let zone: TimeZone
    var localizer: Localizer = .english

    private var l: Localizer { localizer }

    /// nil when the item behind the trigger is gone.
    func appointment(_ trigger: Trigger) -> DesktopNotification? {
        guard let appointment = try? store.appointments.get(id: trigger.itemID) else { return nil }
        let contact = appointment.contactID.flatMap { try? store.contacts.contact(id: $0) }
        let text = NotificationText.appointment(
            appointment, contact: contact, zone: zone, occurrence: trigger.occurrence, localizer: l)
        return DesktopNotification(
            key: trigger.key, summary: text.summary, body: text.body,
            category: ItemKind.appointment.notificationCategory, urgency: .normal,
            actions: [NotificationAction.snooze, .dismiss].map { $0.button(l) }, staysUntilDismissed: true)
    }

    /// A dose: critical, with Taken / Snooze / Skip, always showing the originally scheduled time.
    func dose(_ trigger: Trigger, dose: Dose, medication: Medication, nagCount: Int, replacesKey: String?)
        -> DesktopNotification
    {
        let times = Timestamps(zone: zone, language: l.language)
        var lines = [l.tr("%s — scheduled %s", medication.dose ?? l.tr("1 dose"), times.clock(dose.scheduledAt))]
        if trigger.source == .nag {
            lines.append(l.tr("Reminder %s of %s: not confirmed yet", dose.nagCount + 1, nagCount))
        }
        if let notes = medication.notes { lines.append(notes) }
        let id = dose.id ?? 0
        // Always, buttons or not: a server may list actions it never lets the user reach (a stock dunst
        // without a menu program shows only "(A)").
        lines.append(l.tr("Not now: beautyctl dose skip %s or dose snooze %s", id, id))
        lines.append(l.tr("Taken: %s", NotificationText.doseCommand(id)))
        return DesktopNotification(
            key: trigger.key, summary: l.tr("Time for %s", medication.name), body: lines.joined(separator: "\n"),
            category: ItemKind.medication.notificationCategory, urgency: .critical,
            actions: [NotificationAction.taken, .snooze, .skip].map { $0.button(l) },
            replacesKey: replacesKey)
    }

    /// A water reminder or the daily tip; nil when it is no longer wanted: reminders were switched
    /// off, the reminder's day has gone by, or that day's water goal is reached.
    func plannerNotice(_ trigger: Trigger, now: Date) throws -> DesktopNotification? {
        switch trigger.itemKind {
        case .tip:
            let tip = Tips.tip(id: Int(trigger.itemID)) ?? Tips.ofTheDay(LocalDate(trigger.occurrence, in: zone))
            let shown = TipText(tip, l)
            return DesktopNotification(
                key: trigger.key, summary: l.tr("Beauty tip: %s", shown.title),
                // The command names the category in the reader's words, which `--category` takes as well as the code.
                body: shown.text + "\n"
                    + l.tr(
                        "(%s — more: beautyctl tips --category %s)", shown.category,
                        l.language == .english ? tip.category.rawValue : shown.category.lowercased()),
                category: ItemKind.tip.notificationCategory, urgency: .low)
        case .water:
            let day = LocalDate(trigger.fireAt, in: zone)
            guard day == LocalDate(now, in: zone), try store.water.reminderWanted(at: trigger.fireAt, zone: zone) else {
                return nil
            }
            let total = try store.water.total(on: day, zone: zone).totalMl
            let format = LocaleFormat(l.language)
            let progress =
                try store.water.goal().map { goal in
                    l.tr(
                        "Today so far: %s of %s ml (%s%%).", format.integer(total), format.integer(goal),
                        total * 100 / goal)
                } ?? l.tr("Today so far: %s ml.", format.integer(total))
            return DesktopNotification(
                key: trigger.key, summary: l.tr("Time for a glass of water"),
                body: progress + "\n" + l.tr("Log it with: beautyctl water add 250"),
                category: ItemKind.water.notificationCategory, urgency: .normal,
                actions: [NotificationAction.drinkGlass.button(l)])
        case .appointment, .medication:
            return nil
        }
    }

    func lowStock(_ medication: Medication, key: String) -> DesktopNotification {
        return DesktopNotification(
            key: key,
            summary: l.tr("Running low: %s", medication.name),
            body: l.tr(
                "%s left (warning at %s). After buying more: beautyctl med refill %s COUNT",
                number(medication.stock ?? 0), number(medication.lowStock ?? 0), medication.id ?? 0),
            category: ItemKind.medication.notificationCategory, urgency: .normal)
    }

    /// "12", "0.5" in English, "0,5" with a decimal comma.
    private func number(_ value: Double) -> String {
        let english = Medication.formatUnits(value)
        return l.language == .english ? english : english.replacingOccurrences(of: ".", with: ",")
    }
}
