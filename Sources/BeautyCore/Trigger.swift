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

    public init(
        key: String, itemKind: ItemKind, itemID: Int64, occurrence: Date, fireAt: Date, source: TriggerSource = .plan
    ) {
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
    public static func triggers(for appointment: Appointment, allDay: AllDayReminders = AllDayReminders(zone: .current))
        -> [Trigger]
    {
        triggers(for: appointment, occurrences: [appointment.start], allDay: allDay)
    }

    /// Triggers for the given occurrences of a series: lead times apply to each occurrence, an absolute
    /// reminder only to the first (the series' start). A series reminds at most once a
    /// `seriesReminderSpacing` (see `spaced`). `allDay` places the reminders of an all-day one.
    public static func triggers(
        for appointment: Appointment, occurrences: [Date],
        allDay: AllDayReminders = AllDayReminders(zone: .current)
    ) -> [Trigger] {
        guard let id = appointment.id, appointment.status == .scheduled else { return [] }
        var seen = Set<String>()
        var result: [Trigger] = []
        for occurrence in occurrences {
            for reminder in appointment.reminders where reminder.at == nil || occurrence == appointment.start {
                let fireAt = allDay.fireDate(reminder, of: appointment, start: occurrence)
                let key = Trigger.key(kind: .appointment, itemID: id, occurrence: occurrence, fireAt: fireAt)
                guard seen.insert(key).inserted else { continue }
                result.append(
                    Trigger(key: key, itemKind: .appointment, itemID: id, occurrence: occurrence, fireAt: fireAt))
            }
        }
        result.sort { ($0.fireAt, $0.key) < ($1.fireAt, $1.key) }
        guard remindsLessOftenThanItOccurs(appointment) else { return result }
        return spaced(result, anchor: appointment.start, fromSeriesStart: occurrences.first == appointment.start)
    }

    /// One series' reminders come at most once a minute: `RRULE:FREQ=SECONDLY` with a VALARM would
    /// otherwise be a popup a second. (A series that can repeat within a minute reminds about every
    /// other minute, see `spaced`.)
    public static let seriesReminderSpacing: TimeInterval = 60

    /// Whether the series can occur more often than reminders may come, so some of its occurrences
    /// get no reminder (worth a line in the log).
    public static func remindsLessOftenThanItOccurs(_ appointment: Appointment) -> Bool {
        guard let rule = appointment.recurrence?.rule.uppercased(), !appointment.reminders.isEmpty else { return false }
        return rule.contains("FREQ=SECONDLY") || (rule.contains("FREQ=MINUTELY") && rule.contains("BYSECOND"))
    }

    /// The earliest trigger of every other minute counted from the series' start (`anchor`): two
    /// kept triggers are at least a minute apart, and they are the same whatever window of
    /// occurrences is planned, so planning again never moves one or shows one twice. The minute
    /// the window opens in is left out unless the window starts at the series' start
    /// (`fromSeriesStart`): its earliest trigger may lie before the window.
    static func spaced(_ triggers: [Trigger], anchor: Date, fromSeriesStart: Bool) -> [Trigger] {
        var lastSlot: Int64?
        var firstSlot: Int64?
        return triggers.filter { trigger in
            let slot = Int64((trigger.fireAt.timeIntervalSince(anchor) / seriesReminderSpacing).rounded(.down))
            if firstSlot == nil { firstSlot = slot }
            guard slot != lastSlot else { return false }
            lastSlot = slot
            guard slot.isMultiple(of: 2) else { return false }
            return fromSeriesStart || slot != firstSlot
        }
    }
}

/// A trigger with what happened to it so far.
public struct Delivery: Codable, Sendable, Equatable {
    public var trigger: Trigger
    public var state: DeliveryState
    public var firedAt: Date?
    public var attempts: Int
    public var lastError: String?

    public init(
        trigger: Trigger, state: DeliveryState, firedAt: Date? = nil, attempts: Int = 0, lastError: String? = nil
    ) {
        self.trigger = trigger
        self.state = state
        self.firedAt = firedAt
        self.attempts = attempts
        self.lastError = lastError
    }
}
