import Foundation

/// A booked visit: hairdresser, manicure, facial...
public struct Appointment: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable, CaseIterable {
        case scheduled, done, cancelled
    }

    public var id: Int64?
    public var title: String
    public var start: Date
    public var durationSeconds: Int
    public var allDay: Bool
    public var address: String?
    public var notes: String?
    public var contactID: Int64?
    public var category: String?
    public var color: String?
    public var price: Money?
    public var status: Status
    public var reminders: [Reminder]
    /// An IANA zone the appointment is pinned to (its times and rule are that zone's wall clock);
    /// nil means the user's current zone.
    public var timeZone: String?
    /// RFC 5545 recurrence: the series starts at `start`.
    public var recurrence: AppointmentRecurrence?
    /// A treatment cycle (`--every 6w --after-done`): marking it done schedules the next visit this long
    /// after the day it was done, at the same time of day.
    public var repeatAfterDoneSeconds: Int?
    /// iCalendar UID of an imported event; exported events without one get `appointment-ID@beautyd`.
    public var uid: String?
    public var createdAt: Date
    public var updatedAt: Date

    public static let defaultDurationSeconds = 3600

    public init(
        id: Int64? = nil, title: String, start: Date,
        durationSeconds: Int = Appointment.defaultDurationSeconds, allDay: Bool = false,
        address: String? = nil, notes: String? = nil, contactID: Int64? = nil,
        category: String? = nil, color: String? = nil, price: Money? = nil,
        status: Status = .scheduled, reminders: [Reminder] = [], timeZone: String? = nil,
        recurrence: AppointmentRecurrence? = nil, repeatAfterDoneSeconds: Int? = nil, uid: String? = nil,
        createdAt: Date = Date(), updatedAt: Date = Date()
    ) {
        self.id = id
        self.title = title
        self.start = start
        self.durationSeconds = durationSeconds
        self.allDay = allDay
        self.address = address
        self.notes = notes
        self.contactID = contactID
        self.category = category
        self.color = color
        self.price = price
        self.status = status
        self.reminders = reminders
        self.timeZone = timeZone
        self.recurrence = recurrence
        self.repeatAfterDoneSeconds = repeatAfterDoneSeconds
        self.uid = uid
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public var end: Date { start.addingTimeInterval(TimeInterval(durationSeconds)) }

    /// The zone its wall-clock times belong to.
    public func zone(default current: TimeZone) -> TimeZone {
        timeZone.flatMap(TimeZone.init(identifier:)) ?? current
    }

    /// The iCalendar UID it is exported with.
    public var effectiveUID: String { uid ?? "appointment-\(id ?? 0)@beautyd" }
}

/// An appointment series: an RRULE with its exceptions and extra dates.
public struct AppointmentRecurrence: Codable, Sendable, Equatable {
    /// RRULE text such as "FREQ=WEEKLY;INTERVAL=6".
    public var rule: String
    public var exdates: [Date]
    public var rdates: [Date]

    public init(rule: String, exdates: [Date] = [], rdates: [Date] = []) {
        self.rule = rule
        self.exdates = exdates
        self.rdates = rdates
    }
}

/// When to be reminded of an appointment: a lead time before its start, or an absolute instant.
public struct Reminder: Codable, Sendable, Hashable {
    /// Seconds before the appointment starts; nil for an absolute reminder.
    public var beforeSeconds: Int?
    /// An absolute instant; nil for a lead-time reminder.
    public var at: Date?

    public static func before(_ seconds: Int) -> Reminder { Reminder(beforeSeconds: seconds, at: nil) }
    public static func at(_ date: Date) -> Reminder { Reminder(beforeSeconds: nil, at: date) }

    public init(beforeSeconds: Int?, at: Date?) {
        self.beforeSeconds = beforeSeconds
        self.at = at
    }

    /// The instant this reminder fires for an appointment starting at `start`.
    public func fireDate(forStart start: Date) -> Date {
        if let at { return at }
        return start.addingTimeInterval(-TimeInterval(beforeSeconds ?? 0))
    }
}

/// An amount of money kept exactly, as integer minor units (cents) and an ISO 4217 code.
public struct Money: Codable, Sendable, Hashable {
    public var cents: Int64
    public var currency: String

    public init(cents: Int64, currency: String) {
        self.cents = cents
        self.currency = currency
    }

    /// "45.00 EUR"
    public var formatted: String {
        let sign = cents < 0 ? "-" : ""
        let magnitude = cents.magnitude
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction) \(currency)"
    }
}
