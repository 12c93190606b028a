import BeautyCore
import Foundation

/// Method names mirror the CLI.
public enum Method: String, CaseIterable, Sendable {
    case status
    case appointmentAdd = "appointment.add"
    case appointmentList = "appointment.list"
    case appointmentShow = "appointment.show"
    case appointmentEdit = "appointment.edit"
    case appointmentRemove = "appointment.rm"
    case appointmentDone = "appointment.done"
    case appointmentCancel = "appointment.cancel"
    case contactAdd = "contact.add"
    case contactList = "contact.list"
    case contactShow = "contact.show"
    case contactEdit = "contact.edit"
    case contactRemove = "contact.rm"
    case appointmentImport = "appointment.import"
    case appointmentExport = "appointment.export"
    case medAdd = "med.add"
    case medList = "med.list"
    case medShow = "med.show"
    case medEdit = "med.edit"
    case medRemove = "med.rm"
    case medMove = "med.move"
    case medRefill = "med.refill"
    case doseTaken = "dose.taken"
    case doseSkip = "dose.skip"
    case doseSnooze = "dose.snooze"
    case history
    case notifications
    // Body measurements (MeasurementRequests.swift)
    case measureAdd = "measure.add"
    case measureList = "measure.list"
    case measureClear = "measure.clear"
    case measureChart = "measure.chart"
    // Tips and water (WellbeingRequests.swift)
    case tips
    case tipRandom = "tip.random"
    case waterAdd = "water.add"
    case waterTotal = "water.total"
    case waterGoal = "water.goal"
    case waterRemind = "water.remind"
    case waterImport = "water.import"
    // Budget and categories (BudgetRequests.swift)
    case budgetAdd = "budget.add"
    case budgetList = "budget.list"
    case budgetEdit = "budget.edit"
    case budgetRemove = "budget.rm"
    case budgetBalance = "budget.balance"
    case categories
    case message
    case agenda
    case now
    case subscribe
}

public struct IDParams: Codable, Sendable {
    public var id: Int64
    public init(id: Int64) { self.id = id }
}

public struct AppointmentAddParams: Codable, Sendable {
    public var title: String
    public var start: Date
    public var durationSeconds: Int?
    public var allDay: Bool?
    public var address: String?
    public var notes: String?
    public var contactID: Int64?
    public var category: String?
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
    public var category: String?
    public var color: String?
    public var price: PriceParam?
    /// Replaces the reminder list when present.
    public var reminders: [Reminder]?
    public var timeZone: String?
    public var recurrence: AppointmentRecurrence?
    public var repeatAfterDoneSeconds: Int?
    public var clear: [Clearable]?

    public init(id: Int64) { self.id = id }
}

public struct AppointmentListParams: Codable, Sendable {
    public var from: Date?
    public var to: Date?
    public var status: [Appointment.Status]?
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
    public init(appointment: Appointment, contact: Contact?, deliveries: [Delivery], nextOccurrences: [Date]? = nil,
                followUp: Appointment? = nil) {
        self.appointment = appointment
        self.contact = contact
        self.deliveries = deliveries
        self.nextOccurrences = nextOccurrences
        self.followUp = followUp
    }
}

public struct ContactAddParams: Codable, Sendable {
    public var name: String
    public var phone: String
    public var email: String?
    public var firstName: String?
    public var lastName: String?
    public var address: String?
    public init(name: String, phone: String) {
        self.name = name
        self.phone = phone
    }
}

public struct ContactEditParams: Codable, Sendable {
    public enum Clearable: String, Codable, Sendable, CaseIterable {
        case email, firstName, lastName, address
    }

    public var id: Int64
    public var name: String?
    public var phone: String?
    public var email: String?
    public var firstName: String?
    public var lastName: String?
    public var address: String?
    public var clear: [Clearable]?
    public init(id: Int64) { self.id = id }
}

public struct MessageParams: Codable, Sendable {
    public var id: Int64
    public var template: MessageTemplate
    public init(id: Int64, template: MessageTemplate) {
        self.id = id
        self.template = template
    }
}

public struct MessageResult: Codable, Sendable {
    public var template: MessageTemplate
    public var text: String
    /// Absent when the appointment has no contact to send it to.
    public var phone: String?
    public var smsURI: String?
    public init(template: MessageTemplate, text: String, phone: String?, smsURI: String?) {
        self.template = template
        self.text = text
        self.phone = phone
        self.smsURI = smsURI
    }
}

public struct AgendaParams: Codable, Sendable {
    public var from: Date?
    public var to: Date?
    public var kind: ItemKind?
    public var category: String?
    public var search: String?
    /// Only entries with this status (appointment status or dose state).
    public var status: [String]?
    public var limit: Int?
    public var offset: Int?
    public init(from: Date? = nil, to: Date? = nil) {
        self.from = from
        self.to = to
    }
}

/// One line of the agenda: an appointment (medications and water join it later).
public struct AgendaEntry: Codable, Sendable, Equatable {
    public var kind: ItemKind
    public var id: Int64
    public var title: String
    public var start: Date
    public var end: Date
    public var allDay: Bool
    public var status: String
    public var category: String?
    public var color: String?
    public var address: String?
    public var contactName: String?

    /// A dose of a medication: `id` is the dose's id (for `beautyctl dose taken ID`).
    public init(dose: Dose, medication: Medication) {
        kind = .medication
        id = dose.id ?? 0
        title = medication.name
        start = dose.scheduledAt
        end = dose.scheduledAt
        allDay = false
        status = dose.state.rawValue
        category = nil
        color = nil
        address = medication.dose
        contactName = nil
    }

    /// One occurrence of an appointment (`occurrence` is its start; a single appointment's is its own start).
    public init(appointment a: Appointment, contactName: String?, occurrence: Date? = nil) {
        kind = .appointment
        id = a.id ?? 0
        title = a.title
        start = occurrence ?? a.start
        end = start.addingTimeInterval(TimeInterval(a.durationSeconds))
        allDay = a.allDay
        status = a.status.rawValue
        category = a.category
        color = a.color
        address = a.address
        self.contactName = contactName
    }
}

public struct AgendaResult: Codable, Sendable {
    public var from: Date
    public var to: Date
    public var total: Int
    public var entries: [AgendaEntry]
    /// Set when a series had more occurrences in the range than one answer expands: `entries` and
    /// `total` then cover [from, nextFrom) only, and the same request with `from` = `nextFrom` goes on.
    public var nextFrom: Date?
    public init(from: Date, to: Date, total: Int, entries: [AgendaEntry], nextFrom: Date? = nil) {
        self.from = from
        self.to = to
        self.total = total
        self.entries = entries
        self.nextFrom = nextFrom
    }
}

/// The seed's "Now" screen: what is still to come today and what is overdue.
public struct NowResult: Codable, Sendable {
    public var now: Date
    public var laterToday: [AgendaEntry]
    public var overdue: [AgendaEntry]
    /// Today's water against the daily goal; absent when there is no goal and nothing logged today.
    public var water: WaterDay?
    public init(now: Date, laterToday: [AgendaEntry], overdue: [AgendaEntry], water: WaterDay? = nil) {
        self.now = now
        self.laterToday = laterToday
        self.overdue = overdue
        self.water = water
    }
}

public struct StatusResult: Codable, Sendable {
    public struct Counts: Codable, Sendable {
        public var appointments: Int
        public var contacts: Int
        public var medications: Int
        public var pendingDeliveries: Int
        public var waitingDeliveries: Int
        public init(appointments: Int, contacts: Int, medications: Int, pendingDeliveries: Int, waitingDeliveries: Int) {
            self.appointments = appointments
            self.contacts = contacts
            self.medications = medications
            self.pendingDeliveries = pendingDeliveries
            self.waitingDeliveries = waitingDeliveries
        }
    }

    public struct NextTrigger: Codable, Sendable {
        public var fireAt: Date
        public var itemKind: ItemKind
        public var itemID: Int64
        public var title: String
        public init(fireAt: Date, itemKind: ItemKind, itemID: Int64, title: String) {
            self.fireAt = fireAt
            self.itemKind = itemKind
            self.itemID = itemID
            self.title = title
        }
    }

    public struct NotificationServer: Codable, Sendable {
        public var reachable: Bool
        public var name: String?
        public var vendor: String?
        public var version: String?
        public var capabilities: [String]
        public var lastError: String?
        public init(reachable: Bool, name: String?, vendor: String?, version: String?, capabilities: [String], lastError: String?) {
            self.reachable = reachable
            self.name = name
            self.vendor = vendor
            self.version = version
            self.capabilities = capabilities
            self.lastError = lastError
        }
    }

    public var version: String
    public var pid: Int32
    public var startedAt: Date
    public var uptimeSeconds: Int
    public var database: String
    public var socket: String
    public var counts: Counts
    public var nextTrigger: NextTrigger?
    public var notificationServer: NotificationServer
    /// Why the last reminder the scheduler tried is not shown yet ("the database … is locked by another
    /// program", "a notification server: …"); nil when its last try succeeded.
    public var waitingFor: String?

    public init(version: String, pid: Int32, startedAt: Date, uptimeSeconds: Int, database: String, socket: String,
                counts: Counts, nextTrigger: NextTrigger?, notificationServer: NotificationServer, waitingFor: String? = nil) {
        self.waitingFor = waitingFor
        self.version = version
        self.pid = pid
        self.startedAt = startedAt
        self.uptimeSeconds = uptimeSeconds
        self.database = database
        self.socket = socket
        self.counts = counts
        self.nextTrigger = nextTrigger
        self.notificationServer = notificationServer
    }
}

/// Something that happened in the daemon, streamed to `subscribe`rs (`beautyctl watch`).
public struct DaemonEvent: Codable, Sendable {
    public var type: String
    public var at: Date
    public var key: String?
    public var itemKind: ItemKind?
    public var itemID: Int64?
    public var title: String?
    public var detail: String?
    public init(type: String, at: Date, key: String? = nil, itemKind: ItemKind? = nil, itemID: Int64? = nil,
                title: String? = nil, detail: String? = nil) {
        self.type = type
        self.at = at
        self.key = key
        self.itemKind = itemKind
        self.itemID = itemID
        self.title = title
        self.detail = detail
    }
}

/// A `subscribe` answer streams these lines: `{"jsonrpc":"2.0","method":"event","params":{...}}`.
public struct RPCNotification<Params: Codable & Sendable>: Codable, Sendable {
    public var jsonrpc = "2.0"
    public var method: String
    public var params: Params
    public init(method: String, params: Params) {
        self.method = method
        self.params = params
    }
}

public enum BeautyVersion {
    public static let current = "0.1.0"
}

/// Appointments read from an iCalendar file, matched to existing ones by `uid`.
public struct AppointmentImportParams: Codable, Sendable {
    public var appointments: [Appointment]
    /// Contact names from the file, linked to existing contacts of the same name (index-aligned, nil = none).
    public var contactNames: [String?]
    public init(appointments: [Appointment], contactNames: [String?]) {
        self.appointments = appointments
        self.contactNames = contactNames
    }
}

public struct AppointmentImportResult: Codable, Sendable {
    public var inserted: Int
    public var updated: Int
    public var unchanged: Int
    public init(inserted: Int, updated: Int, unchanged: Int) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
    }
}

/// Everything `export --ics` writes.
public struct AppointmentExportResult: Codable, Sendable {
    public var appointments: [Appointment]
    /// Contact names, index-aligned with `appointments`.
    public var contactNames: [String?]
    public init(appointments: [Appointment], contactNames: [String?]) {
        self.appointments = appointments
        self.contactNames = contactNames
    }
}
