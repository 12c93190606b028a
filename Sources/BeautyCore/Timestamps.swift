import BeautyLocalization
import Foundation

/// How beautyd writes instants for people: always in the reader's zone and language, unambiguous,
/// 24-hour. English "Tue 1 Dec 2026, 14:00"; Polish "pt. 04.12.2026" in lists and
/// "piątek, 4 grudnia 2026, 14:00" in full; Slovak "pi 04.12.2026", "piatok 4. decembra 2026, 14:00".
public struct Timestamps: Sendable {
    public let zone: TimeZone
    public let language: Language

    public init(zone: TimeZone = .current, language: Language = .english) {
        self.zone = zone
        self.language = language
    }

    private func format(_ date: Date, _ pattern: String) -> String {
        FormatterCache.withPattern(pattern, zone: zone, locale: language.locale) { $0.string(from: date) }
    }

    /// "Tue 1 Dec 2026", "wt. 01.12.2026", "ut 01.12.2026"
    public func day(_ date: Date) -> String { format(date, language == .english ? "EEE d MMM yyyy" : "EEE dd.MM.yyyy") }
    /// "Tue", "wt.", "ut"
    public func weekday(_ date: Date) -> String { format(date, "EEE") }
    /// "14:00"
    public func clock(_ date: Date) -> String { format(date, "HH:mm") }
    /// "2026-12-01 14:00", "01.12.2026 14:00"
    public func short(_ date: Date) -> String {
        format(date, language == .english ? "yyyy-MM-dd HH:mm" : "dd.MM.yyyy HH:mm")
    }
    /// "2026-12-01 14:00" in every language: what a hint tells the user to type back.
    public func typed(_ date: Date) -> String {
        FormatterCache.withPattern("yyyy-MM-dd HH:mm", zone: zone) { $0.string(from: date) }
    }
    /// "2026-12-01" in every language (a key, not prose).
    public func isoDay(_ date: Date) -> String {
        FormatterCache.withPattern("yyyy-MM-dd", zone: zone) { $0.string(from: date) }
    }
    /// The day with the month in the genitive, as a date follows a weekday: "1 December 2026",
    /// "1 grudnia 2026", "1. decembra 2026".
    public func dayMonthYear(_ date: Date) -> String {
        format(date, language == .slovak ? "d. MMMM yyyy" : "d MMMM yyyy")
    }
    /// The day with the weekday and month in words: "Tue 1 Dec 2026", "wtorek, 1 grudnia 2026",
    /// "utorok 1. decembra 2026".
    public func fullDay(_ date: Date) -> String {
        switch language {
        case .english: day(date)
        case .polish: format(date, "EEEE, d MMMM yyyy")
        case .slovak: format(date, "EEEE d. MMMM yyyy")
        }
    }
    /// "Tue 1 Dec 2026, 14:00", "wtorek, 1 grudnia 2026, 14:00", "utorok 1. decembra 2026, 14:00"
    public func long(_ date: Date) -> String { "\(fullDay(date)), \(clock(date))" }
}
