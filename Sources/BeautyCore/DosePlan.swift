import Foundation

/// What is stored for one medication's doses at one planning: the dose rows to make and which of
/// them get a notification. `DosePlanner.plan` decides it; the store writes exactly this, in the
/// transaction of the change that asked for it.
public struct DosePlan: Sendable, Equatable {
    /// Every dose instant from where the last plan ended (or the medication's start) up to `until`.
    public var doses: [Date]
    /// Where this plan ends: the next one starts here.
    public var until: Date
    /// The planning instant: a dose not after it is recorded without a notification (its time has passed).
    public var now: Date

    /// Whether the dose at `scheduledAt` gets a notification: only one still to come does.
    public func notifies(_ scheduledAt: Date) -> Bool { scheduledAt > now }
}

extension DosePlanner {
    /// How far ahead doses exist as rows (and pending deliveries): planning extends it as time passes.
    public static let horizon: TimeInterval = 48 * 3600

    /// A medication planned up to before this instant is planned again at `now`.
    public static func replanningLimit(now: Date) -> Date { now.addingTimeInterval(horizon / 2) }

    /// When a medication planned up to `plannedUntil` must next be planned.
    public static func nextPlanning(plannedUntil: Date) -> Date { plannedUntil.addingTimeInterval(-horizon / 2) }

    /// The doses to store at `now` for a medication planned up to `plannedUntil` (nil: never planned),
    /// up to `now + horizon`. Doses earlier today than `now` are recorded without a notification, so
    /// `now` can say they should have been taken but nothing fires late for them. A medication pinned
    /// to a zone is planned in it, the others in `zone`.
    public static func plan(_ medication: Medication, plannedUntil: Date?, now: Date, zone: TimeZone) -> DosePlan {
        let zone = medication.zone(default: zone)
        // Without a start date a medication begins when it was added: its earlier doses today never existed.
        let startOfToday = LocalTime.calendar(zone).startOfDay(for: now)
        let from =
            plannedUntil ?? (medication.startDate == nil ? max(startOfToday, medication.createdAt) : startOfToday)
        let until = now.addingTimeInterval(horizon)
        return DosePlan(doses: doses(for: medication, from: from, to: until, zone: zone), until: until, now: now)
    }
}
