import BeautyCore
import Foundation
import GRDB

extension AppDatabase {
    /// Pending water-reminder deliveries for today and tomorrow (itemKind .water), from the settings.
    public func planWater(now: Date, zone: TimeZone) throws {}

    /// The next daily-tip delivery (itemKind .tip) at `at`, or none when `at` is nil.
    public func planDailyTip(now: Date, zone: TimeZone, at: ClockTime?) throws {}
}
