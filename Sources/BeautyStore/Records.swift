import BeautyCore
import BeautyLocalization
import Foundation
import GRDB

// Row types: the database's shape, mapped to and from BeautyCore's domain types.

struct ContactRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "contact"
    var id: Int64?
    var name: String
    var phone: String
    var email: String?
    var firstName: String?
    var lastName: String?
    var address: String?
    var uid: String?
    var language: String?

    init(_ c: Contact) {
        id = c.id; name = c.name; phone = c.phone; email = c.email
        firstName = c.firstName; lastName = c.lastName; address = c.address; uid = c.uid;
        language = c.language?.rawValue
    }

    var contact: Contact {
        Contact(
            id: id, name: name, phone: phone, email: email, firstName: firstName, lastName: lastName, address: address,
            uid: uid,
            language: language.flatMap(Language.init(rawValue:)))
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct AppointmentRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "appointment"
    var id: Int64?
    var title: String
    var start: Date
    var durationSeconds: Int
    var allDay: Bool
    var address: String?
    var notes: String?
    var contactId: Int64?
    var category: String?
    var color: String?
    var priceCents: Int64?
    var currency: String?
    var status: String
    var timeZone: String?
    var recurrence: AppointmentRecurrence?
    var repeatAfterDoneSeconds: Int?
    var uid: String?
    var seriesId: Int64?
    var recurrenceId: Date?
    var tags: [String]?
    var extraProperties: [String]?
    var plannedUntil: Date?
    var createdAt: Date
    var updatedAt: Date

    init(_ a: Appointment) {
        id = a.id; title = a.title; start = a.start; durationSeconds = a.durationSeconds; allDay = a.allDay
        address = a.address; notes = a.notes; contactId = a.contactID; category = a.category; color = a.color
        priceCents = a.price?.cents; currency = a.price?.currency; status = a.status.rawValue
        timeZone = a.timeZone; recurrence = a.recurrence; repeatAfterDoneSeconds = a.repeatAfterDoneSeconds; uid = a.uid
        seriesId = a.seriesID; recurrenceId = a.recurrenceID
        tags = a.tags.isEmpty ? nil : a.tags; extraProperties = a.extraProperties.isEmpty ? nil : a.extraProperties
        createdAt = a.createdAt; updatedAt = a.updatedAt
    }

    func appointment(reminders: [Reminder]) -> Appointment {
        Appointment(
            id: id, title: title, start: start, durationSeconds: durationSeconds, allDay: allDay,
            address: address, notes: notes, contactID: contactId, category: category, color: color,
            price: priceCents.map { Money(cents: $0, currency: currency ?? "EUR") },
            status: Appointment.Status(rawValue: status) ?? .scheduled, reminders: reminders,
            timeZone: timeZone, recurrence: recurrence, repeatAfterDoneSeconds: repeatAfterDoneSeconds, uid: uid,
            seriesID: seriesId, recurrenceID: recurrenceId, tags: tags ?? [], extraProperties: extraProperties ?? [],
            createdAt: createdAt, updatedAt: updatedAt)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct ReminderRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "appointmentReminder"
    var id: Int64?
    var appointmentId: Int64
    var beforeSeconds: Int?
    var at: Date?

    var reminder: Reminder { Reminder(beforeSeconds: beforeSeconds, at: at) }
}

struct DeliveryRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "delivery"
    var key: String
    var itemKind: String
    var itemID: Int64
    var occurrence: Date
    var fireAt: Date
    var state: String
    var source: String
    var firedAt: Date?
    var settledAt: Date?
    var attempts: Int
    var lastError: String?

    init(_ t: Trigger) {
        key = t.key; itemKind = t.itemKind.rawValue; itemID = t.itemID; occurrence = t.occurrence; fireAt = t.fireAt
        state = DeliveryState.pending.rawValue; source = t.source.rawValue; attempts = 0
    }

    var trigger: Trigger? {
        guard let kind = ItemKind(rawValue: itemKind) else { return nil }
        return Trigger(
            key: key, itemKind: kind, itemID: itemID, occurrence: occurrence, fireAt: fireAt,
            source: TriggerSource(rawValue: source) ?? .plan)
    }
}

struct MedicationRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "medication"
    var id: Int64?
    var name: String
    var dose: String?
    var notes: String?
    var startDate: String?
    var endDate: String?
    var position: Int
    var schedule: MedicationSchedule
    var stock: Double?
    var lowStock: Double?
    var lowStockWarned: Bool
    var plannedUntil: Date?
    var timeZone: String?
    /// Names the medication in its dose tasks' UIDs (`DoseTaskUID`).
    var taskKey: String?
    var createdAt: Date
    var updatedAt: Date

    init(_ m: Medication) {
        id = m.id; name = m.name; dose = m.dose; notes = m.notes
        startDate = m.startDate?.description; endDate = m.endDate?.description
        position = m.position; schedule = m.schedule; stock = m.stock; lowStock = m.lowStock
        lowStockWarned = false; timeZone = m.timeZone; createdAt = m.createdAt; updatedAt = m.updatedAt
    }

    var medication: Medication {
        Medication(
            id: id, name: name, dose: dose, notes: notes,
            startDate: startDate.flatMap { try? LocalDate(parsing: $0) },
            endDate: endDate.flatMap { try? LocalDate(parsing: $0) },
            position: position, schedule: schedule, stock: stock, lowStock: lowStock, timeZone: timeZone,
            createdAt: createdAt, updatedAt: updatedAt)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct DoseRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "dose"
    var id: Int64?
    var medicationId: Int64
    var scheduledAt: Date
    var state: String
    var confirmedAt: Date?
    var nagCount: Int
    var shownKey: String?
    /// Where the answer was given (`DoseAnswerSource`); nil while unanswered.
    var answerSource: String?

    var dose: Dose {
        Dose(
            id: id, medicationID: medicationId, scheduledAt: scheduledAt,
            state: Dose.State(rawValue: state) ?? .pending,
            confirmedAt: confirmedAt, nagCount: nagCount)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
