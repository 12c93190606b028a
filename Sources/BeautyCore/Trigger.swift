import Foundation

/// What kind of record a trigger belongs to; also the notification category suffix.
public enum ItemKind: String, Codable, Sendable, CaseIterable {
    case appointment, medication, water
    /// The optional daily beauty tip.
    case tip

    public var notificationCategory: String { "x-beautyd.\(self.rawValue)" }
}

/// One (item, occurrence, reminder) that must produce exactly one notification at `fireAt`.
/// For appointments `itemID` is the appointment's id; for medications it is the dose's id.
public struct Trigger: Codable, Sendable, Hashable {
    /// Stable identity of this delivery: the same item, occurrence and fire instant give the same key,
    /// so a restart or an unrelated edit never produces a second delivery.
    public var key: String
    public var itemKind: ItemKind
    public var itemID: Int64
    /// The start of the occurrence being announced (an appointment's start).
    public var occurrence: Date
    public var fireAt: Date
    /// Why it fires: the planned reminder, a snoozed repeat, or a re-notification of an unanswered dose.
    public var source: TriggerSource

    public init(key: String, itemKind: ItemKind, itemID: Int64, occurrence: Date, fireAt: Date, source: TriggerSource = .plan) {
        self.key = key
        self.itemKind = itemKind
        self.itemID = itemID
        self.occurrence = occurrence
        self.fireAt = fireAt
        self.source = source
    }

    public static func key(kind: ItemKind, itemID: Int64, occurrence: Date, fireAt: Date) -> String {
        "\(kind.rawValue)/\(itemID)/\(Int64(occurrence.timeIntervalSince1970.rounded(.down)))/\(Int64(fireAt.timeIntervalSince1970.rounded(.down)))"
    }
}

public enum TriggerSource: String, Codable, Sendable {
    case plan, snooze, nag
    /// The one-time warning that a medication's stock reached its threshold.
    case lowStock
}

/// Where a delivery is in its life: pending -> delivering -> fired -> taken | skipped | snoozed | missed | dismissed;
/// `suppressed` when it came due while notifications were switched off. `delivering` is written durably
/// just before the notification server is asked, so a crash at any moment never shows a reminder twice.
public enum DeliveryState: String, Codable, Sendable, CaseIterable {
    case pending, delivering, fired, taken, skipped, snoozed, missed, dismissed, suppressed
}

/// Reminder instants of appointments.
public enum ReminderPlanner {
    /// Every trigger an appointment's reminders produce, earliest first; none unless it is scheduled.
    public static func triggers(for appointment: Appointment, allDay: AllDayReminders = AllDayReminders(zone: .current)) -> [Trigger] {
        triggers(for: appointment, occurrences: [appointment.start], allDay: allDay)
    }

    /// Triggers for the given occurrences of a series: lead times apply to each occurrence, an absolute
    /// reminder only to the first (the series' start). `allDay` places the reminders of an all-day one.
    public static func triggers(for appointment: Appointment, occurrences: [Date],
                                allDay: AllDayReminders = AllDayReminders(zone: .current)) -> [Trigger] {
        guard let id = appointment.id, appointment.status == .scheduled else { return [] }
        var seen = Set<String>()
        var result: [Trigger] = []
        for occurrence in occurrences {
            for reminder in appointment.reminders where reminder.at == nil || occurrence == appointment.start {
                let fireAt = allDay.fireDate(reminder, of: appointment, start: occurrence)
                let key = Trigger.key(kind: .appointment, itemID: id, occurrence: occurrence, fireAt: fireAt)
                guard seen.insert(key).inserted else { continue }
                result.append(Trigger(key: key, itemKind: .appointment, itemID: id, occurrence: occurrence, fireAt: fireAt))
            }
        }
        return result.sorted { ($0.fireAt, $0.key) < ($1.fireAt, $1.key) }
    }
}

/// A trigger with what happened to it so far.
public struct Delivery: Codable, Sendable, Equatable {
    public var trigger: Trigger
    public var state: DeliveryState
    public var firedAt: Date?
    public var attempts: Int
    public var lastError: String?

    public init(trigger: Trigger, state: DeliveryState, firedAt: Date? = nil, attempts: Int = 0, lastError: String? = nil) {
        self.trigger = trigger
        self.state = state
        self.firedAt = firedAt
        self.attempts = attempts
        self.lastError = lastError
    }
}
