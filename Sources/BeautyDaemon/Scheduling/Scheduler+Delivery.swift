import BeautyCore

/// One due delivery, shown by its kind's own delivery: appointments (`Scheduler+AppointmentDelivery`),
/// doses (`Scheduler+DoseDelivery`), water reminders and the daily tip (`Scheduler+WaterDelivery`).
extension Scheduler {
    /// Shows one delivery and records it; false (and still pending) if no server took it.
    func deliver(_ trigger: Trigger) async -> Bool {
        switch trigger.itemKind {
        case .appointment: await deliverAppointment(trigger)
        case .medication: await deliverDose(trigger)
        case .water, .tip: await deliverPlannerNotice(trigger)
        }
    }
}
