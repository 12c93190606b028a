import BeautyCore
import Foundation
import GRDB

extension AppDatabase {
    /// Inserts an appointment with its reminders and schedules their deliveries, in one transaction.
    public func addAppointment(_ appointment: Appointment, now: Date) throws -> Appointment {
        try writer.write { db in
            var record = AppointmentRecord(appointment)
            record.id = nil
            record.createdAt = now
            record.updatedAt = now
            try checkContact(db, appointment.contactID)
            try record.insert(db)
            let saved = record.appointment(reminders: appointment.reminders)
            try saveReminders(db, saved)
            try syncDeliveries(db, for: saved, now: now)
            return saved
        }
    }

    /// Replaces an appointment's fields and reminders; deliveries already made are kept, so an edit
    /// that does not move a reminder never repeats it, and one that does schedules the new instant.
    public func updateAppointment(_ appointment: Appointment, now: Date) throws -> Appointment {
        guard let id = appointment.id else { throw StoreError.notFound(kind: "appointment", id: 0) }
        return try writer.write { db in
            guard let old = try AppointmentRecord.fetchOne(db, key: id) else {
                throw StoreError.notFound(kind: "appointment", id: id)
            }
            try checkContact(db, appointment.contactID)
            var record = AppointmentRecord(appointment)
            record.createdAt = old.createdAt
            record.updatedAt = now
            try record.update(db)
            let saved = record.appointment(reminders: appointment.reminders)
            try saveReminders(db, saved)
            try syncDeliveries(db, for: saved, now: now)
            return saved
        }
    }

    public func deleteAppointment(id: Int64) throws {
        try writer.write { db in
            guard try AppointmentRecord.deleteOne(db, key: id) else {
                throw StoreError.notFound(kind: "appointment", id: id)
            }
            try db.execute(
                sql: "DELETE FROM delivery WHERE itemKind = 'appointment' AND itemID = ? AND state = 'pending'",
                arguments: [id])
        }
    }

    public func appointment(id: Int64) throws -> Appointment {
        try writer.read { db in try fetchAppointment(db, id: id) }
    }

    /// Appointments starting in [from, to) (either bound optional), by start time, then title, then id.
    public func appointments(from: Date? = nil, to: Date? = nil, statuses: Set<Appointment.Status>? = nil) throws -> [Appointment] {
        try writer.read { db in
            var request = AppointmentRecord.all()
            if let from { request = request.filter(Column("start") >= from) }
            if let to { request = request.filter(Column("start") < to) }
            if let statuses { request = request.filter(statuses.map(\.rawValue).contains(Column("status"))) }
            let records = try request.order(Column("start"), Column("title").collating(.nocase), Column("id")).fetchAll(db)
            let reminders = try remindersByAppointment(db, ids: records.compactMap(\.id))
            return records.map { $0.appointment(reminders: reminders[$0.id!] ?? []) }
        }
    }

    public func appointmentCount() throws -> Int {
        try writer.read { db in try AppointmentRecord.fetchCount(db) }
    }

    public func contactCount() throws -> Int {
        try writer.read { db in try ContactRecord.fetchCount(db) }
    }

    // MARK: - Helpers inside a transaction

    func fetchAppointment(_ db: Database, id: Int64) throws -> Appointment {
        guard let record = try AppointmentRecord.fetchOne(db, key: id) else {
            throw StoreError.notFound(kind: "appointment", id: id)
        }
        return record.appointment(reminders: try remindersByAppointment(db, ids: [id])[id] ?? [])
    }

    private func checkContact(_ db: Database, _ id: Int64?) throws {
        if let id, try !ContactRecord.exists(db, key: id) { throw StoreError.notFound(kind: "contact", id: id) }
    }

    private func saveReminders(_ db: Database, _ appointment: Appointment) throws {
        let id = appointment.id!
        try ReminderRecord.filter(Column("appointmentId") == id).deleteAll(db)
        for reminder in appointment.reminders {
            var record = ReminderRecord(id: nil, appointmentId: id, beforeSeconds: reminder.beforeSeconds, at: reminder.at)
            try record.insert(db)
        }
    }

    private func remindersByAppointment(_ db: Database, ids: [Int64]) throws -> [Int64: [Reminder]] {
        guard !ids.isEmpty else { return [:] }
        var result: [Int64: [Reminder]] = [:]
        // Chunk the IN list: SQLite limits bound variables per statement.
        for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
            let rows = try ReminderRecord.filter(chunk.contains(Column("appointmentId"))).order(Column("id")).fetchAll(db)
            for row in rows { result[row.appointmentId, default: []].append(row.reminder) }
        }
        return result
    }

    /// Makes the pending deliveries of an appointment match its reminders: pending rows for instants
    /// that no longer exist go, new future instants come; fired/settled rows are history and stay.
    func syncDeliveries(_ db: Database, for appointment: Appointment, now: Date) throws {
        let id = appointment.id!
        let wanted = ReminderPlanner.triggers(for: appointment)
        let wantedKeys = Set(wanted.map(\.key))
        let pending = try DeliveryRecord
            .filter(Column("itemKind") == ItemKind.appointment.rawValue && Column("itemID") == id
                    && Column("state") == DeliveryState.pending.rawValue && Column("source") == "plan")
            .fetchAll(db)
        for row in pending where !wantedKeys.contains(row.key) { try row.delete(db) }
        for trigger in wanted where trigger.fireAt > now {
            try DeliveryRecord(trigger).insert(db, onConflict: .ignore)
        }
        if appointment.status != .scheduled {
            // A done or cancelled visit needs no more reminders, snoozed ones included.
            try db.execute(
                sql: "DELETE FROM delivery WHERE itemKind = 'appointment' AND itemID = ? AND state = 'pending'",
                arguments: [id])
        }
    }
}
