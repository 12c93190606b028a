import BeautyCore
import Foundation

public struct AgendaParams: Codable, Sendable {
    public var from: Date?
    public var to: Date?
    public var kind: ItemKind?
    public var category: String?
    public var search: String?
    /// Several values of a filter (with the single field, if given, too): an entry matching any of them.
    public var kinds: [ItemKind]?
    public var categories: [String]?
    public var searches: [String]?
    /// Only entries with this status (appointment status or dose state).
    public var status: [AgendaStatus]?
    public var limit: Int?
    public var offset: Int?
    /// The order: `sort` one of the list's keys (title, time, category, price), `reverse` descending.
    public var sort: ListSortChoice?
    public var reverse: Bool?
    public init(from: Date? = nil, to: Date? = nil) {
        self.from = from
        self.to = to
    }
}

/// A value of the agenda's `status` filter (a string on the wire): an appointment's status or a dose's
/// state, read in any case with spaces around it; another word is kept as sent, for the agenda to
/// refuse naming the statuses there are (a decoding error could not).
public enum AgendaStatus: WireWord, Sendable, Hashable {
    case appointment(Appointment.Status)
    case dose(Dose.State)
    case unknown(String)

    public init(_ text: String) {
        let word = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let status = Appointment.Status(rawValue: word) {
            self = .appointment(status)
        } else if let state = Dose.State(rawValue: word) {
            self = .dose(state)
        } else {
            self = .unknown(text)
        }
    }

    public var text: String {
        switch self {
        case let .appointment(status): status.rawValue
        case let .dose(state): state.rawValue
        case let .unknown(text): text
        }
    }

    /// Every status the filter takes, sorted.
    public static var names: [String] {
        (Appointment.Status.allCases.map(\.rawValue) + Dose.State.allCases.map(\.rawValue)).sorted()
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
    /// A dose's medication (an entry with `id` 0 is answered by this and its `start`).
    public var medicationID: Int64?
    /// An appointment's price (doses have none).
    public var price: Money?

    /// A dose of a medication: `id` is the dose's id (for `beautyctl dose taken ID`), 0 for a dose
    /// planned further ahead than the stored rows.
    public init(dose: Dose, medication: Medication) {
        kind = .medication
        id = dose.id ?? 0
        medicationID = medication.id
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
        price = a.price
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

/// The "now" view: what is still to come today and what is overdue.
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
        public init(appointments: Int, contacts: Int, medications: Int, pendingDeliveries: Int, waitingDeliveries: Int)
        {
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
        /// In English; `lastErrorText` is the same as a template, when beautyd wrote it.
        public var lastError: String?
        public var lastErrorText: TranslatableText?
        public init(
            reachable: Bool, name: String?, vendor: String?, version: String?, capabilities: [String],
            lastError: String?,
            lastErrorText: TranslatableText? = nil
        ) {
            self.lastErrorText = lastErrorText
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
    /// `waitingFor` as a template, for a client to show in its user's language.
    public var waitingForText: TranslatableText?
    /// The `notifications` switch: false while everything is silenced (`beautyctl notifications off`).
    public var notificationsEnabled: Bool?

    public init(
        version: String, pid: Int32, startedAt: Date, uptimeSeconds: Int, database: String, socket: String,
        counts: Counts, nextTrigger: NextTrigger?, notificationServer: NotificationServer, waitingFor: String? = nil,
        waitingForText: TranslatableText? = nil, notificationsEnabled: Bool? = nil
    ) {
        self.waitingFor = waitingFor
        self.waitingForText = waitingForText
        self.notificationsEnabled = notificationsEnabled
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

/// The answer to `subscribe`, before the event lines.
public struct SubscribeResult: Codable, Sendable {
    public var subscribed: Bool
    public init(subscribed: Bool) { self.subscribed = subscribed }
}

public enum ViewRPC {
    public static let status = RPC<NoParams, StatusResult>("status")
    public static let agenda = RPC<AgendaParams, AgendaResult>("agenda")
    public static let now = RPC<NoParams, NowResult>("now")
    /// Answered once, then `DaemonEvent`s stream on the connection as `RPCNotification`s.
    public static let subscribe = RPC<NoParams, SubscribeResult>("subscribe")

    static let methods = [status.method, agenda.method, now.method, subscribe.method]
}
