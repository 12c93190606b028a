import BeautyCore
import Foundation

public struct AppointmentAddParams: Codable, Sendable {
    public var title: String
    public var start: Date
    public var durationSeconds: Int?
    public var allDay: Bool?
    public var address: String?
    public var notes: String?
    public var contactID: Int64?
    /// The contact as the user typed it (an id, a phone number or a name): the daemon links the one
    /// contact it means (`ContactLookup.find`), in place of `contactID`, and refuses none or several.
    public var contact: String?
    public var category: String?
    /// Refuse a `category` that is not in the tree (beautyctl asks: a typo would file the appointment
    /// where `agenda --category` never finds it); absent, any category is kept.
    public var requireKnownCategory: Bool?
    public var color: String?
    /// Currency defaults to the daemon's configured one when omitted.
    public var price: PriceParam?
    public var reminders: [Reminder]?
    /// IANA zone the appointment is pinned to.
    public var timeZone: String?
    /// RFC 5545 series starting at `start`.
    public var recurrence: AppointmentRecurrence?
    /// Treatment cycle: the next visit this long after the day it is marked done.
    public var repeatAfterDoneSeconds: Int?
    /// A series every this long (whole days), which the daemon writes as `recurrence`'s rule.
    public var everySeconds: Int?
    /// Starts to leave out of the series this request gives (`recurrence` or `everySeconds`).
    public var exdates: [Date]?
    /// The wall time typed for `start` when it is in a DST gap ("2027-03-28T02:30:00"): a series keeps it.
    public var startWall: String?

    public init(title: String, start: Date) {
        self.title = title
        self.start = start
    }
}

public struct PriceParam: Codable, Sendable {
    public var cents: Int64
    public var currency: String?
    public init(cents: Int64, currency: String?) {
        self.cents = cents
        self.currency = currency
    }
}

/// Fields to change; absent fields stay as they are, and `clear` names optional fields to empty.
public struct AppointmentEditParams: Codable, Sendable {
    public enum Clearable: String, Codable, Sendable, CaseIterable {
        case address, notes, contact, category, color, price, reminders
        case timeZone = "tz", recurrence = "repeat", cycle
    }

    public var id: Int64
    public var title: String?
    public var start: Date?
    public var durationSeconds: Int?
    public var allDay: Bool?
    public var address: String?
    public var notes: String?
    public var contactID: Int64?
    /// As in `AppointmentAddParams`.
    public var contact: String?
    public var category: String?
    /// As in `AppointmentAddParams`.
    public var requireKnownCategory: Bool?
    public var color: String?
    public var price: PriceParam?
    /// Replaces the reminder list when present.
    public var reminders: [Reminder]?
    public var timeZone: String?
    public var recurrence: AppointmentRecurrence?
    public var repeatAfterDoneSeconds: Int?
    public var everySeconds: Int?
    public var exdates: [Date]?
    /// As in `AppointmentAddParams`, with `start`.
    public var startWall: String?
    public var clear: [Clearable]?
    /// Change only this occurrence of series `id` (its original start), or with `appointment.split`
    /// the series from this occurrence on.
    public var occurrence: Date?

    public init(id: Int64, occurrence: Date? = nil) {
        self.id = id
        self.occurrence = occurrence
    }
}

/// `appointment.done`, `.cancel`, `.rm`: an appointment, or with `occurrence` one occurrence of series `id`.
public struct AppointmentOccurrenceParams: Codable, Sendable {
    public var id: Int64
    /// The occurrence's original start in the series.
    public var occurrence: Date?
    public init(id: Int64, occurrence: Date? = nil) {
        self.id = id
        self.occurrence = occurrence
    }
}

public struct AppointmentListParams: Codable, Sendable {
    public var from: Date?
    public var to: Date?
    public var status: [Appointment.Status]?
    /// The order: `sort` one of the list's keys (title, time, category, price), `reverse` descending.
    public var sort: ListSortChoice?
    public var reverse: Bool?
    public init(from: Date? = nil, to: Date? = nil, status: [Appointment.Status]? = nil) {
        self.from = from
        self.to = to
        self.status = status
    }
}

/// An appointment with what a person wants to see next to it.
public struct AppointmentDetail: Codable, Sendable {
    public var appointment: Appointment
    public var contact: Contact?
    public var deliveries: [Delivery]
    /// For a series: its next starts.
    public var nextOccurrences: [Date]?
    /// For a treatment cycle marked done: the next visit it scheduled.
    public var followUp: Appointment?
    /// After an add or an edit: what the user should know about the reminders (one already past, one
    /// after the start); nothing was refused.
    public var warnings: [String]?
    /// For a series: the occurrences changed on their own (each its own appointment), by original start.
    public var changedOccurrences: [Appointment]?
    /// For an all-day appointment: the time of day its reminders are counted back from (the daemon's
    /// `all_day_reminder_time`); absent means 09:00.
    public var allDayReminderTime: ClockTime?
    public init(
        appointment: Appointment, contact: Contact?, deliveries: [Delivery], nextOccurrences: [Date]? = nil,
        followUp: Appointment? = nil, warnings: [String]? = nil, changedOccurrences: [Appointment]? = nil
    ) {
        self.appointment = appointment
        self.contact = contact
        self.deliveries = deliveries
        self.nextOccurrences = nextOccurrences
        self.followUp = followUp
        self.warnings = warnings
        self.changedOccurrences = changedOccurrences
    }
}

/// Appointments with the contacts they name, index-aligned: what `appointment.import` takes and
/// `appointment.export` answers (a calendar file's events and the contacts written in them).
public struct AppointmentsWithContacts: Codable, Sendable {
    public var appointments: [Appointment]
    /// Contact names, index-aligned with `appointments` (nil = none); an import links existing
    /// contacts of the same name.
    public var contactNames: [String?]
    /// The phone numbers that go with `contactNames` (index-aligned; may be absent, as from older
    /// daemons): an import creates a contact that does not exist with its number.
    public var contactPhones: [String?]?
    public init(appointments: [Appointment], contactNames: [String?], contactPhones: [String?]? = nil) {
        self.appointments = appointments
        self.contactNames = contactNames
        self.contactPhones = contactPhones
    }
}

/// Appointments read from an iCalendar file, matched to existing ones by `uid`.
public typealias AppointmentImportParams = AppointmentsWithContacts

public struct AppointmentImportResult: Codable, Sendable {
    public var inserted: Int
    public var updated: Int
    public var unchanged: Int
    /// Contacts created from the file's names and phone numbers; absent when none.
    public var contactsCreated: Int?
    /// Indexes of appointments whose contact does not exist and came without a phone number, so
    /// they were imported without one; absent when none.
    public var unlinkedContacts: [Int]?
    public init(
        inserted: Int, updated: Int, unchanged: Int, contactsCreated: Int? = nil, unlinkedContacts: [Int]? = nil
    ) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.contactsCreated = contactsCreated
        self.unlinkedContacts = unlinkedContacts
    }
}

/// Everything `export --ics` writes.
public typealias AppointmentExportResult = AppointmentsWithContacts

/// What `appointment.exportICS` writes a floating appointment (one without a zone) in.
public struct AppointmentExportICSParams: Codable, Sendable {
    /// A tz database name (the client's zone); the daemon's zone when absent.
    public var zone: String?
    public init(zone: String? = nil) { self.zone = zone }
}

/// Every appointment as the iCalendar text `export --ics` writes, written by the daemon, which has them:
/// a hundred thousand appointments are not sent as JSON to be written by the client.
public struct AppointmentExportICSResult: Codable, Sendable {
    public var ics: String
    /// How many VEVENTs it has.
    public var count: Int
    public init(ics: String, count: Int) {
        self.ics = ics
        self.count = count
    }
}

public enum AppointmentRPC {
    public static let add = RPC<AppointmentAddParams, AppointmentDetail>("appointment.add")
    public static let list = RPC<AppointmentListParams, [Appointment]>("appointment.list")
    public static let show = RPC<IDParams, AppointmentDetail>("appointment.show")
    public static let edit = RPC<AppointmentEditParams, AppointmentDetail>("appointment.edit")
    /// Answers the appointment as it was (with `occurrence`: the series as it is now).
    public static let remove = RPC<AppointmentOccurrenceParams, AppointmentDetail>("appointment.rm")
    public static let done = RPC<AppointmentOccurrenceParams, AppointmentDetail>("appointment.done")
    public static let cancel = RPC<AppointmentOccurrenceParams, AppointmentDetail>("appointment.cancel")
    /// "This and following": answers the new series.
    public static let split = RPC<AppointmentEditParams, AppointmentDetail>("appointment.split")
    public static let importCalendar = RPC<AppointmentImportParams, AppointmentImportResult>("appointment.import")
    public static let exportCalendar = RPC<NoParams, AppointmentExportResult>("appointment.export")
    public static let exportICS = RPC<AppointmentExportICSParams, AppointmentExportICSResult>("appointment.exportICS")

    static let methods =
        [
            add.method, list.method, show.method, edit.method, remove.method, done.method, cancel.method,
            split.method, importCalendar.method, exportCalendar.method, exportICS.method,
        ] + stageMethods
}
