import Foundation

/// When the reminders of an all-day appointment fire. Its start is a midnight, nobody's waking hour,
/// so (as Thunderbird, GNOME Calendar and Google Calendar offer) a lead of whole days keeps a time of
/// day: `1d` is the day before at `time`, `0s` the day itself, in calendar days (across a clock
/// change too). Any other lead counts back from the midnight start, as RFC 5545 reads a TRIGGER:
/// Google and Apple write "the day before at 09:00" as `-PT15H`, which so keeps its meaning.
public struct AllDayReminders: Sendable, Equatable {
    public static let defaultTime = ClockTime(hour: 9, minute: 0)

    public var time: ClockTime
    /// The zone of an appointment kept without one (all-day ones usually are).
    public var zone: TimeZone

    public init(time: ClockTime = AllDayReminders.defaultTime, zone: TimeZone) {
        self.time = time
        self.zone = zone
    }

    /// When `reminder` fires for the occurrence starting at `start` of `appointment`.
    public func fireDate(_ reminder: Reminder, of appointment: Appointment, start: Date) -> Date {
        guard appointment.allDay, reminder.at == nil else { return reminder.fireDate(forStart: start) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = appointment.zone(default: zone)
        let lead = reminder.beforeSeconds ?? 0
        guard lead % 86_400 == 0 else { return reminder.fireDate(forStart: start) }
        let day = calendar.dateComponents([.year, .month, .day], from: start)
        guard let year = day.year, let month = day.month, let dayOfMonth = day.day,
            let anchor = calendar.date(
                from: DateComponents(
                    year: year, month: month, day: dayOfMonth - lead / 86_400,
                    hour: time.minutes / 60, minute: time.minutes % 60))
        else { return reminder.fireDate(forStart: start) }
        return anchor
    }
}
