import Foundation

/// What an appointment's reminders are from `now` on: the triggers its store writes, and for a series
/// how far ahead they reach. With `DosePlanner.plan`, `WaterReminderPlan` and `DailyTipPlan`, the one
/// place reminders are decided; the store writes what a plan gives, the scheduler shows what is due.
public struct AppointmentReminderPlan: Sendable {
    /// How far ahead a series' reminders are planned; planned again when less than half is left.
    public static let seriesHorizon: TimeInterval = 14 * 86_400

    public var triggers: [Trigger]
    /// A series' plan reaches this far (nil for a single visit, planned whole).
    public var plannedUntil: Date?

    public init(for appointment: Appointment, now: Date, zone: TimeZone, allDay: AllDayReminders) {
        var occurrences = [appointment.start]
        if appointment.recurrence != nil {
            // Occurrences whose reminders fire within the horizon: look one longest lead time further.
            let horizon = now.addingTimeInterval(Self.seriesHorizon)
            let lead = TimeInterval(appointment.reminders.compactMap(\.beforeSeconds).max() ?? 0)
            occurrences = AppointmentOccurrences.starts(
                of: appointment, from: now, to: horizon.addingTimeInterval(lead), zone: zone)
            plannedUntil = horizon
        }
        triggers = ReminderPlanner.triggers(for: appointment, occurrences: occurrences, allDay: allDay)
    }
}

/// The water reminders of today and tomorrow still to come, except on a day whose goal is reached.
public enum WaterReminderPlan {
    public static func wanted(
        _ reminder: WaterReminder, now: Date, zone: TimeZone, goalReached: (Date) throws -> Bool
    ) rethrows -> [Trigger] {
        guard reminder.enabled else { return [] }
        let horizon = LocalDate(now, in: zone).adding(days: 2).start(in: zone)
        var wanted: [Trigger] = []
        for (day, at) in reminder.reminders(from: now, to: horizon, zone: zone) where at > now {
            if try !goalReached(at) { wanted.append(trigger(day: day, at: at, zone: zone)) }
        }
        return wanted
    }

    /// `water/<start of the day>/<fire epoch>`; occurrence the day's start.
    public static func trigger(day: LocalDate, at: Date, zone: TimeZone) -> Trigger {
        let dayStart = day.start(in: zone)
        return Trigger(
            key: "water/\(epoch(dayStart))/\(epoch(at))", itemKind: .water, itemID: 0, occurrence: dayStart, fireAt: at)
    }
}

/// The daily tip at `at` today, unless that has passed or today's tip was already shown, and tomorrow;
/// none when `at` is nil.
public enum DailyTipPlan {
    public static func wanted(
        at: ClockTime?, now: Date, zone: TimeZone, alreadyShown: (LocalDate) throws -> Bool
    ) rethrows -> [Trigger] {
        guard let at else { return [] }
        let today = LocalDate(now, in: zone)
        var wanted: [Trigger] = []
        for day in [today, today.adding(days: 1)] {
            guard
                let fireAt = LocalTime.instant(
                    year: day.year, month: day.month, day: day.day, hour: at.hour, minute: at.minute, in: zone),
                fireAt > now
            else { continue }
            if try !alreadyShown(day) { wanted.append(trigger(day: day, at: fireAt, zone: zone)) }
        }
        return wanted
    }

    /// `tip/<start of the day>/<fire epoch>`; itemID the day's tip, occurrence the day's start.
    public static func trigger(day: LocalDate, at: Date, zone: TimeZone) -> Trigger {
        let dayStart = day.start(in: zone)
        return Trigger(
            key: "tip/\(epoch(dayStart))/\(epoch(at))", itemKind: .tip, itemID: Int64(Tips.ofTheDay(day).id),
            occurrence: dayStart, fireAt: at)
    }
}

private func epoch(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }
