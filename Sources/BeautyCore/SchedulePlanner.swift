import Foundation

/// What the scheduler must do at one instant.
public struct SchedulePlan: Sendable, Equatable {
    /// Due now and on time (or the only late one): one notification each.
    public var deliver: [Trigger] = []
    /// Several late ones (missed while the daemon was down or the machine slept): one grouped notification.
    public var catchUp: [Trigger] = []
    /// Older than `maxLateness`: recorded as missed, never shown.
    public var expired: [Trigger] = []
    /// The earliest future fire instant: arm the wall-clock timer for it (nil = sleep until an edit).
    public var nextWake: Date?

    public init(deliver: [Trigger] = [], catchUp: [Trigger] = [], expired: [Trigger] = [], nextWake: Date? = nil) {
        self.deliver = deliver
        self.catchUp = catchUp
        self.expired = expired
        self.nextWake = nextWake
    }
}

/// The pure heart of the scheduler: no clock, no I/O, so it is tested with an injected `now`.
public enum SchedulePlanner {
    /// A trigger later than this is "late" rather than merely delivered by a slow wake-up.
    public static let lateAfter: TimeInterval = 60

    /// - Parameter lateAfter: lateness above which a trigger counts as missed while away (grouped when several).
    ///   At start-up everything already due was missed while the daemon was down, so the caller passes 0 then.
    public static func plan(
        now: Date, pending: [Trigger], maxLateness: TimeInterval, lateAfter: TimeInterval = lateAfter
    ) -> SchedulePlan {
        var plan = SchedulePlan()
        var late: [Trigger] = []
        for trigger in pending.sorted(by: order) {
            let lateness = now.timeIntervalSince(trigger.fireAt)
            if lateness < 0 {
                if plan.nextWake == nil || trigger.fireAt < plan.nextWake! { plan.nextWake = trigger.fireAt }
            } else if lateness > maxLateness {
                plan.expired.append(trigger)
            } else if lateness > lateAfter {
                late.append(trigger)
            } else {
                plan.deliver.append(trigger)
            }
        }
        if late.count == 1 { plan.deliver.insert(contentsOf: late, at: 0) } else { plan.catchUp = late }
        return plan
    }

    /// Earliest first; ties broken by key so the order is stable.
    static func order(_ a: Trigger, _ b: Trigger) -> Bool {
        a.fireAt == b.fireAt ? a.key < b.key : a.fireAt < b.fireAt
    }
}
