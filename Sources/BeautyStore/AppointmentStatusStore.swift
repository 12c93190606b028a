import BeautyCore
import Foundation
import GRDB

/// What marking an appointment done or cancelled changed.
public struct StatusChange: Sendable {
    public var appointment: Appointment
    /// The next visit of a treatment cycle, booked when a scheduled visit with a cycle was marked done.
    public var followUp: Appointment?
    /// The price of a visit marked done, recorded as an expense (nil without a price, or if recorded before).
    public var expense: BudgetRow?
}

extension AppointmentStore {
    /// Sets an appointment's status. A scheduled visit marked done also books the next visit of its
    /// treatment cycle (counted from `now`) and records its price as an expense. All of it is one
    /// transaction: a failure or a crash leaves the status, the follow-up and the expense all as
    /// they were, so trying again never books a second follow-up.
    public func setStatus(id: Int64, _ status: Appointment.Status, now: Date, zone: TimeZone) throws
        -> StatusChange
    {
        try writer.write { db in try database.setAppointmentStatus(db, id: id, status, now: now, zone: zone) }
    }
}

extension AppDatabase {
    func setAppointmentStatus(_ db: Database, id: Int64, _ status: Appointment.Status, now: Date, zone: TimeZone) throws
        -> StatusChange
    {
        var appointment = try fetchAppointment(db, id: id)
        var change = StatusChange(appointment: appointment)
        if status == .done, appointment.status == .scheduled {
            if let next = AppointmentOccurrences.nextAfterDone(appointment, doneAt: now, zone: zone) {
                var visit = appointment
                visit.id = nil
                visit.uid = nil
                visit.start = next
                visit.reminders = appointment.reminders.filter { $0.at == nil }
                change.followUp = try insertAppointment(db, visit, now: now, zone: zone)
            }
            change.expense = try BudgetStore.recordExpense(db, for: appointment, doneAt: now)
        }
        appointment.status = status
        change.appointment = try saveAppointment(db, appointment, now: now, zone: zone)
        return change
    }
}
