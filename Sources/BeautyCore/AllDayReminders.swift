import Foundation

/// When the reminders of an all-day appointment fire. Its start is a midnight, nobody's waking hour,
/// so (as Thunderbird, GNOME Calendar and Google Calendar do) its reminders keep a time of day: a lead
/// is counted back from `time` on the appointment's day, whole days as calendar days (`1d` is the day
/// before at `time`, across a clock change too), then what is left of the lead (hours, minutes) from
/// there: with 09:00, `2h` fires at 07:00 on the day and `1d2h` at 07:00 the day before.
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
        let day = calendar.dateComponents([.year, .month, .day], from: start)
        guard let year = day.year, let month = day.month, let dayOfMonth = day.day,
              let anchor = calendar.date(from: DateComponents(year: year, month: month, day: dayOfMonth - lead / 86_400,
                                                              hour: time.minutes / 60, minute: time.minutes % 60))
        else { return reminder.fireDate(forStart: start) }
        return anchor.addingTimeInterval(-TimeInterval(lead % 86_400))
    }
}
