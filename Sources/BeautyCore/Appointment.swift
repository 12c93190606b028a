import BeautyLocalization
import Foundation

/// A booked visit: hairdresser, manicure, facial...
public struct Appointment: Codable, Sendable, Equatable {
    /// What `history` names a reminder by once its appointment is deleted (English on the wire).
    public static let deletedTitle = "(deleted appointment)"

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
    /// A changed occurrence shares its series' UID.
    public var uid: String?
    /// Set when this appointment is one occurrence of a series changed on its own (moved, retitled,
    /// done, cancelled): the series' id. The series skips that occurrence; this row stands for it.
    public var seriesID: Int64?
    /// With `seriesID`: the start the occurrence had in the series (iCalendar RECURRENCE-ID), which
    /// identifies it even after it moved.
    public var recurrenceID: Date?
    /// Categories that are not in beautyd's category tree, kept as given (free tags).
    public var tags: [String]
    /// iCalendar content lines (unfolded) beautyd does not interpret, kept as they came so that
    /// export and sync write them back unchanged; whole unknown subcomponents included.
    public var extraProperties: [String]
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
        seriesID: Int64? = nil, recurrenceID: Date? = nil, tags: [String] = [], extraProperties: [String] = [],
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
        self.seriesID = seriesID
        self.recurrenceID = recurrenceID
        self.tags = tags
        self.extraProperties = extraProperties
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

/// An appointment series: its RRULEs with their exceptions and extra dates.
public struct AppointmentRecurrence: Codable, Sendable, Equatable {
    /// RRULE text such as "FREQ=WEEKLY;INTERVAL=6"; empty for a series of RDATEs only.
    public var rule: String
    /// Further RRULEs: the series is the union of every rule's occurrences (RFC 5545 allows several).
    public var moreRules: [String]
    public var exdates: [Date]
    public var rdates: [Date]
    /// Original starts of the occurrences changed on their own (each is an appointment with this
    /// series' id as `seriesID`): the series leaves them out, and export writes them as
    /// RECURRENCE-ID components rather than EXDATEs. The store keeps this list in step with those rows.
    public var changed: [Date]
    /// The wall-clock start the user gave ("2027-03-28T02:30:00", in the series' zone) when it does
    /// not exist there (a DST gap): `start` is then the instant RFC 5545 reads it as, and later
    /// occurrences keep this wall time. Nil when `start`'s own wall time is the series' time.
    public var startWall: String?

    public init(
        rule: String, moreRules: [String] = [], exdates: [Date] = [], rdates: [Date] = [],
        changed: [Date] = [], startWall: String? = nil
    ) {
        self.rule = rule
        self.moreRules = moreRules
        self.exdates = exdates
        self.rdates = rdates
        self.changed = changed
        self.startWall = startWall
    }

    private enum CodingKeys: String, CodingKey { case rule, moreRules, exdates, rdates, changed, startWall }

    // Rows written before a field existed lack its key.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        rule = try c.decode(String.self, forKey: .rule)
        moreRules = try c.decodeIfPresent([String].self, forKey: .moreRules) ?? []
        exdates = try c.decodeIfPresent([Date].self, forKey: .exdates) ?? []
        rdates = try c.decodeIfPresent([Date].self, forKey: .rdates) ?? []
        changed = try c.decodeIfPresent([Date].self, forKey: .changed) ?? []
        startWall = try c.decodeIfPresent(String.self, forKey: .startWall)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(rule, forKey: .rule)
        if !moreRules.isEmpty { try c.encode(moreRules, forKey: .moreRules) }
        try c.encode(exdates, forKey: .exdates)
        try c.encode(rdates, forKey: .rdates)
        if !changed.isEmpty { try c.encode(changed, forKey: .changed) }
        try c.encodeIfPresent(startWall, forKey: .startWall)
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

    /// "45,00 zł", "1 234,50 €" as the language writes amounts; English "45.00 EUR".
    public func formatted(_ language: Language) -> String {
        LocaleFormat(language).money(cents: cents, currency: currency)
    }

    /// "45.00 EUR"
    public var formatted: String {
        let sign = cents < 0 ? "-" : ""
        let magnitude = cents.magnitude
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction) \(currency)"
    }
}

extension Appointment {
    private enum CodingKeys: String, CodingKey {
        case id, title, start, durationSeconds, allDay, address, notes, contactID, category, color, price, status
        case reminders, timeZone, recurrence, repeatAfterDoneSeconds, uid, seriesID, recurrenceID, tags, extraProperties
        case createdAt, updatedAt
    }

    // The lists are left out when empty, and may be missing (from clients and rows older than them).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try c.decodeIfPresent(Int64.self, forKey: .id),
            title: try c.decode(String.self, forKey: .title),
            start: try c.decode(Date.self, forKey: .start),
            durationSeconds: try c.decode(Int.self, forKey: .durationSeconds),
            allDay: try c.decode(Bool.self, forKey: .allDay),
            address: try c.decodeIfPresent(String.self, forKey: .address),
            notes: try c.decodeIfPresent(String.self, forKey: .notes),
            contactID: try c.decodeIfPresent(Int64.self, forKey: .contactID),
            category: try c.decodeIfPresent(String.self, forKey: .category),
            color: try c.decodeIfPresent(String.self, forKey: .color),
            price: try c.decodeIfPresent(Money.self, forKey: .price),
            status: try c.decode(Status.self, forKey: .status),
            reminders: try c.decode([Reminder].self, forKey: .reminders),
            timeZone: try c.decodeIfPresent(String.self, forKey: .timeZone),
            recurrence: try c.decodeIfPresent(AppointmentRecurrence.self, forKey: .recurrence),
            repeatAfterDoneSeconds: try c.decodeIfPresent(Int.self, forKey: .repeatAfterDoneSeconds),
            uid: try c.decodeIfPresent(String.self, forKey: .uid),
            seriesID: try c.decodeIfPresent(Int64.self, forKey: .seriesID),
            recurrenceID: try c.decodeIfPresent(Date.self, forKey: .recurrenceID),
            tags: try c.decodeIfPresent([String].self, forKey: .tags) ?? [],
            extraProperties: try c.decodeIfPresent([String].self, forKey: .extraProperties) ?? [],
            createdAt: try c.decode(Date.self, forKey: .createdAt),
            updatedAt: try c.decode(Date.self, forKey: .updatedAt))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(id, forKey: .id)
        try c.encode(title, forKey: .title)
        try c.encode(start, forKey: .start)
        try c.encode(durationSeconds, forKey: .durationSeconds)
        try c.encode(allDay, forKey: .allDay)
        try c.encodeIfPresent(address, forKey: .address)
        try c.encodeIfPresent(notes, forKey: .notes)
        try c.encodeIfPresent(contactID, forKey: .contactID)
        try c.encodeIfPresent(category, forKey: .category)
        try c.encodeIfPresent(color, forKey: .color)
        try c.encodeIfPresent(price, forKey: .price)
        try c.encode(status, forKey: .status)
        try c.encode(reminders, forKey: .reminders)
        try c.encodeIfPresent(timeZone, forKey: .timeZone)
        try c.encodeIfPresent(recurrence, forKey: .recurrence)
        try c.encodeIfPresent(repeatAfterDoneSeconds, forKey: .repeatAfterDoneSeconds)
        try c.encodeIfPresent(uid, forKey: .uid)
        try c.encodeIfPresent(seriesID, forKey: .seriesID)
        try c.encodeIfPresent(recurrenceID, forKey: .recurrenceID)
        if !tags.isEmpty { try c.encode(tags, forKey: .tags) }
        if !extraProperties.isEmpty { try c.encode(extraProperties, forKey: .extraProperties) }
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
    }
}
