import BeautyCore
import Foundation

public struct MedicationAddParams: Codable, Sendable {
    public var name: String
    public var dose: String?
    public var notes: String?
    public var startDate: LocalDate?
    public var endDate: LocalDate?
    /// Absent: no schedule (listed, never notified).
    public var schedule: MedicationSchedule?
    public var stock: Double?
    public var lowStock: Double?
    /// IANA zone the times are pinned to.
    public var timeZone: String?
    public init(name: String) { self.name = name }
}

public struct MedicationEditParams: Codable, Sendable {
    public enum Clearable: String, Codable, Sendable, CaseIterable {
        case dose, notes, startDate = "from", endDate = "until", stock, lowStock = "low", timeZone = "tz"
    }

    public var id: Int64
    public var name: String?
    public var dose: String?
    public var notes: String?
    public var startDate: LocalDate?
    public var endDate: LocalDate?
    public var schedule: MedicationSchedule?
    public var stock: Double?
    public var lowStock: Double?
    public var timeZone: String?
    public var clear: [Clearable]?
    public init(id: Int64) { self.id = id }
}

public struct MedicationMoveParams: Codable, Sendable {
    public var id: Int64
    public var position: Int
    public init(id: Int64, position: Int) {
        self.id = id
        self.position = position
    }
}

public struct MedicationRefillParams: Codable, Sendable {
    public var id: Int64
    public var count: Double
    public init(id: Int64, count: Double) {
        self.id = id
        self.count = count
    }
}

/// A medication with its next doses, today's doses and adherence.
public struct MedicationDetail: Codable, Sendable {
    public var medication: Medication
    public var activeToday: Bool
    public var today: [Dose]
    public var upcoming: [Date]
    public var adherence: Adherence?
    public init(medication: Medication, activeToday: Bool, today: [Dose], upcoming: [Date], adherence: Adherence?) {
        self.medication = medication
        self.activeToday = activeToday
        self.today = today
        self.upcoming = upcoming
        self.adherence = adherence
    }
}

/// Taken doses out of scheduled ones, per medication.
public struct Adherence: Codable, Sendable, Equatable {
    public var medicationID: Int64
    public var name: String
    public var taken7: Int
    public var scheduled7: Int
    public var taken30: Int
    public var scheduled30: Int
    public init(medicationID: Int64, name: String, taken7: Int, scheduled7: Int, taken30: Int, scheduled30: Int) {
        self.medicationID = medicationID
        self.name = name
        self.taken7 = taken7
        self.scheduled7 = scheduled7
        self.taken30 = taken30
        self.scheduled30 = scheduled30
    }
}

public struct DoseParams: Codable, Sendable {
    /// The dose's id (see `now` or `med show`); or, for a dose further ahead than the stored rows
    /// (an agenda entry with id 0), `medicationID` and `scheduledAt` instead.
    public var id: Int64?
    public var medicationID: Int64?
    public var scheduledAt: Date?
    /// When it was really taken or skipped (default: now).
    public var at: Date?
    /// For `dose.snooze`: how long (default from the config).
    public var forSeconds: Int?
    /// True confirms an `at` more than `earlyLimit` before the dose was due, which is refused
    /// otherwise (field `early`): more often a slip of the day or hour than a dose taken that early.
    public var early: Bool?
    public static let earlyLimit: TimeInterval = 12 * 3600

    public init(id: Int64, at: Date? = nil, forSeconds: Int? = nil, early: Bool? = nil) {
        self.id = id
        self.at = at
        self.forSeconds = forSeconds
        self.early = early
    }

    public init(medicationID: Int64, scheduledAt: Date, at: Date? = nil, early: Bool? = nil) {
        self.medicationID = medicationID
        self.scheduledAt = scheduledAt
        self.at = at
        self.early = early
    }
}

/// `dose.log`: a dose taken outside the schedule (as needed, or an extra one).
public struct DoseLogParams: Codable, Sendable {
    public var medicationID: Int64
    /// When it was taken (default: now).
    public var at: Date?
    public init(medicationID: Int64, at: Date? = nil) {
        self.medicationID = medicationID
        self.at = at
    }
}

public struct DoseResult: Codable, Sendable {
    public var dose: Dose
    public var medication: Medication
    /// False when the dose had already been answered.
    public var changed: Bool
    public var snoozedUntil: Date?
    public init(dose: Dose, medication: Medication, changed: Bool, snoozedUntil: Date?) {
        self.dose = dose
        self.medication = medication
        self.changed = changed
        self.snoozedUntil = snoozedUntil
    }
}

public struct HistoryParams: Codable, Sendable {
    public var from: Date?
    public var to: Date?
    public init(from: Date? = nil, to: Date? = nil) {
        self.from = from
        self.to = to
    }
}

public struct HistoryEntry: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable { case dose, reminder }
    /// Where a dose was answered: on the desktop (a notification button, `beautyctl dose`) or on the
    /// phone (its task ticked or cancelled, docs/PHONE_TASKS.md).
    public enum Source: String, Codable, Sendable, CaseIterable { case desktop, phone }

    public var kind: Kind
    public var id: Int64
    public var title: String
    public var detail: String?
    public var scheduledAt: Date
    /// taken, skipped, snoozed, missed, fired, dismissed, suppressed.
    public var state: String
    public var confirmedAt: Date?
    /// Where a dose was answered; nil for reminders and unanswered doses.
    public var source: Source?
    public init(
        kind: Kind, id: Int64, title: String, detail: String?, scheduledAt: Date, state: String, confirmedAt: Date?,
        source: Source? = nil
    ) {
        self.kind = kind
        self.id = id
        self.title = title
        self.detail = detail
        self.scheduledAt = scheduledAt
        self.state = state
        self.confirmedAt = confirmedAt
        self.source = source
    }
}

public struct HistoryResult: Codable, Sendable {
    public var from: Date
    public var to: Date
    public var entries: [HistoryEntry]
    public var adherence: [Adherence]
    public init(from: Date, to: Date, entries: [HistoryEntry], adherence: [Adherence]) {
        self.from = from
        self.to = to
        self.entries = entries
        self.adherence = adherence
    }
}

/// `notifications`: read the switch, or set it with `enabled`.
public struct NotificationsParams: Codable, Sendable {
    public var enabled: Bool?
    public init(enabled: Bool?) { self.enabled = enabled }
}

public struct NotificationsResult: Codable, Sendable {
    public var enabled: Bool
    public init(enabled: Bool) { self.enabled = enabled }
}

public enum MedicationRPC {
    public static let add = RPC<MedicationAddParams, MedicationDetail>("med.add")
    public static let list = RPC<ListOrderParams, [Medication]>("med.list")
    public static let show = RPC<IDParams, MedicationDetail>("med.show")
    public static let edit = RPC<MedicationEditParams, MedicationDetail>("med.edit")
    /// Answers the medication as it was.
    public static let remove = RPC<IDParams, Medication>("med.rm")
    /// Answers the whole list in its new order.
    public static let move = RPC<MedicationMoveParams, [Medication]>("med.move")
    public static let refill = RPC<MedicationRefillParams, Medication>("med.refill")
    public static let doseTaken = RPC<DoseParams, DoseResult>("dose.taken")
    public static let doseSkip = RPC<DoseParams, DoseResult>("dose.skip")
    public static let doseSnooze = RPC<DoseParams, DoseResult>("dose.snooze")
    /// Records a dose taken outside the schedule: a new dose, taken.
    public static let doseLog = RPC<DoseLogParams, DoseResult>("dose.log")
    public static let history = RPC<HistoryParams, HistoryResult>("history")
    public static let notifications = RPC<NotificationsParams, NotificationsResult>("notifications")

    static let methods = [
        add.method, list.method, show.method, edit.method, remove.method, move.method, refill.method,
        doseTaken.method, doseSkip.method, doseSnooze.method, doseLog.method, history.method, notifications.method,
    ]
}
