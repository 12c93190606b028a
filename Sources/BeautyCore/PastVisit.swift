import Foundation

/// A visit (or one occurrence of a series) that has ended while still `scheduled` was never marked
/// done or cancelled: lists, `show` and the agenda say "past, not marked done", while the stored
/// status, and so the wire and `--json`, stay `scheduled` for scripts.
public enum PastVisit {
    public static func isUnconfirmed(status: String, end: Date, now: Date) -> Bool {
        status == Appointment.Status.scheduled.rawValue && end <= now
    }
}
