import Foundation

/// How beautyd writes instants for people: always in the reader's zone, English, unambiguous.
public struct Timestamps: Sendable {
    public let zone: TimeZone

    public init(zone: TimeZone = .current) { self.zone = zone }

    private func format(_ date: Date, _ pattern: String) -> String {
        FormatterCache.withPattern(pattern, zone: zone) { $0.string(from: date) }
    }

    /// "Tue 1 Dec 2026"
    public func day(_ date: Date) -> String { format(date, "EEE d MMM yyyy") }
    /// "14:00"
    public func clock(_ date: Date) -> String { format(date, "HH:mm") }
    /// "2026-12-01 14:00"
    public func short(_ date: Date) -> String { format(date, "yyyy-MM-dd HH:mm") }
    /// "2026-12-01"
    public func isoDay(_ date: Date) -> String { format(date, "yyyy-MM-dd") }
    /// "Tue 1 Dec 2026, 14:00"
    public func long(_ date: Date) -> String { "\(day(date)), \(clock(date))" }

}
