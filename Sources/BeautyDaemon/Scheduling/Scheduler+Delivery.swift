import BeautyCore
import BeautyNotify
import Foundation
import Logging

/// One due delivery: what its kind comes to (`Scheduler+AppointmentDelivery`, `Scheduler+DoseDelivery`,
/// `Scheduler+WaterDelivery`) is worked out apart from showing it, so that the deliveries committed ahead
/// are built before their instant (`Scheduler+CommitAhead`) and at the instant only shown.
extension Scheduler {
    /// What a due delivery comes to.
    enum Delivery {
        /// A notification to show, and its record once shown.
        case show(PreparedShow)
        /// Nothing to show; what is recorded instead (its item gone, a dose answered or given up on).
        case instead(() async throws -> Void)
    }

    /// A notification of `keys` ready to show, and its record once shown (`record` gets the time it was shown).
    struct PreparedShow {
        let notification: DesktopNotification
        let keys: [String]
        let description: String
        let metadata: Logger.Metadata?
        let record: (Date) throws -> Void
    }

    /// What `trigger` comes to at `now`, read from the store; nothing is shown or written.
    func delivery(for trigger: Trigger, at now: Date) throws -> Delivery {
        switch trigger.itemKind {
        case .appointment: appointmentDelivery(trigger)
        case .medication: try doseDelivery(trigger, at: now)
        case .water, .tip: try plannerNoticeDelivery(trigger, at: now)
        }
    }

    /// Shows one delivery and records it; false (and still pending) if no server took it.
    func deliver(_ trigger: Trigger) async -> Bool {
        do {
            switch try delivery(for: trigger, at: clock()) {
            case .show(let show): return try await showThenRecord(show)
            case .instead(let settle):
                try await settle()
                return true
            }
        } catch {
            return notShown([trigger.key], error, as: Self.description(of: trigger), metadata: metadata(trigger))
        }
    }

    /// Shows a delivery built earlier and records it; false (and still pending) if no server took it.
    func deliver(_ show: PreparedShow) async -> Bool {
        do {
            return try await showThenRecord(show)
        } catch {
            return notShown(show.keys, error, as: show.description, metadata: show.metadata)
        }
    }

    /// `notification` to show for `trigger` alone, named and tagged in the log as its kind's deliveries are.
    func showing(_ notification: DesktopNotification, of trigger: Trigger, record: @escaping (Date) throws -> Void)
        -> Delivery
    {
        .show(
            PreparedShow(
                notification: notification, keys: [trigger.key], description: Self.description(of: trigger),
                metadata: metadata(trigger), record: record))
    }

    /// What the log calls a delivery of `trigger`.
    static func description(of trigger: Trigger) -> String {
        switch trigger.itemKind {
        case .appointment: "reminder"
        case .medication: trigger.source == .lowStock ? "low-stock warning" : "dose"
        case .water, .tip: "\(trigger.itemKind.rawValue) reminder"
        }
    }
}
