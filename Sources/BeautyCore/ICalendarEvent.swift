import Foundation

/// One VEVENT as beautyd understands it: what `beautyctl import` turns into an appointment and
/// `beautyctl export --ics` writes back. Instants are absolute; `timeZone` only says in which
/// zone the wall-clock values were (and will be) written.
public struct CalendarEvent: Sendable, Equatable {
    public var uid: String
    public var summary: String
    /// For all-day events: local midnight of the DATE in `timeZone ?? defaultZone`.
    public var start: Date
    public var allDay: Bool
    /// From DTEND or DURATION; with neither, 0 for a DATE-TIME start and one day for a DATE
    /// start (RFC 5545 §3.6.1). Elapsed seconds, so a one-day all-day event on a DST day is
    /// 23 or 25 hours.
    public var durationSeconds: Int
    /// The TZID as an IANA name if the event had one; "UTC" for a series whose DTSTART is in UTC
    /// (it repeats in UTC); nil for floating times and a single UTC event.
    public var timeZone: String?
    /// A series' DTSTART wall time when it does not exist in its zone (a DST gap), as
    /// `AppointmentRecurrence.startWall`: `start` is the instant RFC 5545 reads it as.
    public var startWall: String?
    public var location: String?
    /// DESCRIPTION.
    public var notes: String?
    public var categories: [String]
    /// CONFIRMED, CANCELLED or TENTATIVE (upper-cased as found).
    public var status: String?
    /// The RRULE value text as found, e.g. "FREQ=WEEKLY;INTERVAL=6".
    public var rrule: String?
    /// Further RRULEs of the same event (RFC 5545 allows several; the series is their union).
    public var moreRules: [String]
    public var exdates: [Date]
    public var rdates: [Date]
    /// VALARMs: lead times before the start, or absolute instants.
    public var alarms: [Reminder]
    /// X-BEAUTYD-COLOR, else COLOR (RFC 7986).
    public var color: String?
    /// X-BEAUTYD-PRICE:45.50 EUR
    public var priceCents: Int64?
    public var currency: String?
    /// X-BEAUTYD-CONTACT.
    public var contactName: String?
    /// RECURRENCE-ID: this event changes the occurrence of the series with the same UID that started
    /// here (the instant; for a DATE, its midnight like an all-day start).
    public var recurrenceID: Date?
    /// The RECURRENCE-ID was a DATE (the series is all-day).
    public var recurrenceIDIsDate = false
    /// RANGE=THISANDFUTURE on the RECURRENCE-ID: the change applies to this and every later occurrence.
    public var thisAndFuture = false
    /// The contact's phone: X-BEAUTYD-CONTACT's X-BEAUTYD-PHONE parameter, so that importing into
    /// another daemon can create the contact.
    public var contactPhone: String?
    /// X-BEAUTYD-STATUS:DONE (STATUS itself has no "done" for events).
    public var done: Bool
    /// X-BEAUTYD-CYCLE: the treatment cycle after done, in seconds (written as a DURATION such as P42D).
    public var cycleSeconds: Int?
    /// Content lines (unfolded, as they came) beautyd does not interpret: unknown properties and
    /// whole unknown subcomponents, written back unchanged on export.
    public var extraLines: [String]
    /// Where the event began in the file it was read from (its BEGIN:VEVENT line), for messages;
    /// nil for events beautyd made. Not part of the event's value: the same event read from
    /// another place in another file is equal.
    public var line: Int? {
        get { source.line }
        set { source.line = newValue }
    }
    private var source = SourceLine()

    public init(
        uid: String, summary: String, start: Date, allDay: Bool = false, durationSeconds: Int = 0,
        timeZone: String? = nil, location: String? = nil, notes: String? = nil, categories: [String] = [],
        status: String? = nil, rrule: String? = nil, exdates: [Date] = [], rdates: [Date] = [],
        alarms: [Reminder] = [], color: String? = nil, priceCents: Int64? = nil, currency: String? = nil,
        contactName: String? = nil, moreRules: [String] = [], contactPhone: String? = nil, done: Bool = false,
        cycleSeconds: Int? = nil, extraLines: [String] = []
    ) {
        self.uid = uid
        self.summary = summary
        self.start = start
        self.allDay = allDay
        self.durationSeconds = durationSeconds
        self.timeZone = timeZone
        self.location = location
        self.notes = notes
        self.categories = categories
        self.status = status
        self.rrule = rrule
        self.exdates = exdates
        self.rdates = rdates
        self.alarms = alarms
        self.color = color
        self.priceCents = priceCents
        self.currency = currency
        self.contactName = contactName
        self.moreRules = moreRules
        self.contactPhone = contactPhone
        self.done = done
        self.cycleSeconds = cycleSeconds
        self.extraLines = extraLines
    }
}

/// A line number that every other compares equal to, so it can ride along in a value type.
private struct SourceLine: Sendable, Equatable {
    var line: Int?
    static func == (_: SourceLine, _: SourceLine) -> Bool { true }
}

/// A calendar file beautyd cannot read, with the 1-based line (of the file as given, folded)
/// where the problem is.
public typealias ICalendarError = LineError
