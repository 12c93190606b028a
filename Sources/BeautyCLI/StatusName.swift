import BeautyCore
import BeautyLocalization
import Foundation

/// The words for an appointment's status and a dose's state in the user's language; the wire and
/// `--json` keep the codes (`scheduled`, `taken`...), and so do options that take them.
enum StatusName {
    /// An appointment status or dose state code as a word; an unknown code stays as it is.
    static func appointment(_ code: String, _ l: Localizer) -> String {
        switch code {
        case Appointment.Status.scheduled.rawValue: l.trc("status", "scheduled")
        case Appointment.Status.done.rawValue: l.trc("status", "done")
        case Appointment.Status.cancelled.rawValue: l.trc("status", "cancelled")
        default: dose(code, l)
        }
    }

    /// An appointment's status as lists show it: a single visit that has ended and is still
    /// "scheduled" was never marked done or cancelled, and says so.
    static func appointment(_ a: Appointment, _ l: Localizer, now: Date = Date()) -> String {
        a.recurrence == nil && PastVisit.isUnconfirmed(status: a.status.rawValue, end: a.end, now: now)
            ? l.trc("status", "past, not marked done")
            : appointment(a.status.rawValue, l)
    }

    /// A reminder's delivery state.
    static func reminder(_ code: String, _ l: Localizer) -> String {
        switch code {
        case "pending": l.trc("reminder state", "pending")
        case "delivering": l.trc("reminder state", "delivering")
        case "fired": l.trc("reminder state", "fired")
        case "snoozed": l.trc("reminder state", "snoozed")
        case "missed": l.trc("reminder state", "missed")
        case "dismissed": l.trc("reminder state", "dismissed")
        case "suppressed": l.trc("reminder state", "suppressed")
        case "renotified": l.trc("reminder state", "renotified")
        case "low-stock": l.trc("reminder state", "low-stock")
        default: dose(code, l)
        }
    }

    static func dose(_ code: String, _ l: Localizer) -> String {
        switch Dose.State(rawValue: code) {
        case .pending: l.trc("dose state", "pending")
        case .fired: l.trc("dose state", "fired")
        case .taken: l.trc("dose state", "taken")
        case .skipped: l.trc("dose state", "skipped")
        case .snoozed: l.trc("dose state", "snoozed")
        case .missed: l.trc("dose state", "missed")
        case nil: code
        }
    }
}
