import BeautyLocalization
import Foundation

/// An appointment as a request asks for it, before the rules make it one: the one home of the rules
/// that turn what a user typed into a valid appointment (an all-day start at its day's midnight, an
/// all-day one lasting a day, `every` as an RFC 5545 rule in whole days, the cycle after done). The
/// daemon applies them on add and edit; beautyctl only calls the checks early, for exit status 2.
public struct AppointmentDraft: Sendable {
    /// A new appointment, or the stored one with the request's changes made.
    public var appointment: Appointment
    /// The series the request gives, if any: a rule as written, or one every so often.
    public var series: Series
    /// Whether the request set the start or all-day: only then is an all-day start moved to its day's
    /// midnight, so an unrelated edit never moves an appointment.
    public var placesStart: Bool

    /// How a request may ask for a repetition: a series (a rule, or every so often) or a cycle after done,
    /// one of them. The field names are the request's (the wire's or beautyctl's flags).
    public struct Series: Sendable, Equatable {
        public var recurrence: AppointmentRecurrence?
        /// A series every this long: whole days, weekly when whole weeks.
        public var everySeconds: Int?
        /// A treatment cycle: the next visit this long after the day it is marked done.
        public var repeatAfterDoneSeconds: Int?
        /// Starts to leave out of the series the same request gives.
        public var exdates: [Date]
        /// The wall time typed for the start when it is in a DST gap (`AppointmentRecurrence.startWall`).
        public var startWall: String?
        public var fields: Fields

        public struct Fields: Sendable, Equatable {
            public var rule: String
            public var every: String
            public var cycle: String
            public var exdates: String

            public init(rule: String, every: String, cycle: String, exdates: String) {
                self.rule = rule
                self.every = every
                self.cycle = cycle
                self.exdates = exdates
            }

            public static let wire = Fields(
                rule: "recurrence", every: "everySeconds", cycle: "repeatAfterDoneSeconds", exdates: "exdates")
        }

        public init(
            recurrence: AppointmentRecurrence? = nil, everySeconds: Int? = nil, repeatAfterDoneSeconds: Int? = nil,
            exdates: [Date] = [], startWall: String? = nil, fields: Fields = .wire
        ) {
            self.recurrence = recurrence
            self.startWall = startWall
            self.everySeconds = everySeconds
            self.repeatAfterDoneSeconds = repeatAfterDoneSeconds
            self.exdates = exdates
            self.fields = fields
        }

        /// The series asked for (nil: none in this request), or which field is wrong.
        public func resolved() throws -> AppointmentRecurrence? {
            if recurrence != nil, everySeconds != nil {
                throw ValidationError(
                    field: fields.every, template: "use %s or %s, not both", fields.rule, fields.every)
            }
            if let cycle = repeatAfterDoneSeconds {
                if recurrence != nil || everySeconds != nil {
                    let other = recurrence != nil ? fields.rule : fields.every
                    throw ValidationError(field: fields.cycle, template: "use %s or %s, not both", other, fields.cycle)
                }
                _ = try AppointmentDraft.cycleAfterDone(cycle, field: fields.cycle)
            }
            if let everySeconds {
                return AppointmentRecurrence(
                    rule: try AppointmentDraft.everyRule(seconds: everySeconds, field: fields.every), exdates: exdates)
            }
            guard var recurrence else {
                if !exdates.isEmpty {
                    throw ValidationError(
                        field: fields.exdates, template: "goes with %s or %s", fields.rule, fields.every)
                }
                return nil
            }
            recurrence.exdates += exdates.filter { !recurrence.exdates.contains($0) }
            return recurrence
        }
    }

    /// A new appointment: without `durationSeconds` it lasts a day when all-day, else `defaultDurationSeconds`.
    public static func adding(
        _ appointment: Appointment, durationSeconds: Int?, defaultDurationSeconds: Int,
        series: Series = Series()
    ) -> AppointmentDraft {
        var a = appointment
        a.durationSeconds = durationSeconds ?? (a.allDay ? allDayDurationSeconds : defaultDurationSeconds)
        return AppointmentDraft(appointment: a, series: series, placesStart: true)
    }

    /// The stored appointment with a request's changes made (`edited`): one the edit makes all-day lasts a
    /// day unless the request gives a duration, as a new one does, so it ends at the next midnight and not
    /// its old length after this one; the edit sets all-day, so its start moves to the day's midnight and
    /// lead-time reminders count from there.
    public static func editing(
        _ stored: Appointment, to edited: Appointment, durationGiven: Bool,
        series: Series = Series(), placesStart: Bool
    ) -> AppointmentDraft {
        var a = edited
        if edited.allDay, !stored.allDay, !durationGiven { a.durationSeconds = allDayDurationSeconds }
        return AppointmentDraft(appointment: a, series: series, placesStart: placesStart)
    }

    public init(appointment: Appointment, series: Series = Series(), placesStart: Bool) {
        self.appointment = appointment
        self.series = series
        self.placesStart = placesStart
    }

    /// The valid appointment, normalised; `zone` is the user's current one (a pinned appointment uses its own).
    public func resolved(zone: TimeZone) throws -> Appointment {
        var a = appointment
        if let recurrence = try series.resolved() { a.recurrence = recurrence }
        if placesStart, a.allDay {
            a.start = Self.allDayStart(a.start, zone: a.timeZone.flatMap(TimeZone.init(identifier:)) ?? zone)
        }
        if var recurrence = a.recurrence {
            let given = placesStart ? series.startWall : recurrence.startWall
            recurrence.startWall = a.allDay ? nil : Self.gapWall(given, start: a.start, zone: a.zone(default: zone))
            a.recurrence = recurrence
        }
        return try Validation.appointment(a)
    }

    /// The wall time a series keeps for a start in a DST gap: the one given, if it is in a gap of the
    /// series' zone and reads (RFC 5545) as that start; nil otherwise, and the start's own wall time rules.
    static func gapWall(_ given: String?, start: Date, zone: TimeZone) -> String? {
        guard let c = given.flatMap(LocalTime.wallFields),
            let wall = LocalTime.skippedWall(
                year: c.year!, month: c.month!, day: c.day!, hour: c.hour!,
                minute: c.minute!, second: c.second!, in: zone),
            LocalTime.instant(
                year: c.year!, month: c.month!, day: c.day!, hour: c.hour!, minute: c.minute!,
                second: c.second!, in: zone) == start
        else { return nil }
        return wall
    }

    public static let allDayDurationSeconds = 86_400

    /// An all-day appointment starts at midnight of its day: the time of day typed is ignored.
    public static func allDayStart(_ start: Date, zone: TimeZone) -> Date {
        LocalTime.calendar(zone).startOfDay(for: start)
    }

    /// `--every 6w` as a rule: whole days only (an appointment repeats on days, not hours), weekly when whole weeks.
    public static func everyRule(seconds: Int, field: String = "everySeconds") throws -> String {
        guard seconds >= 86_400, seconds % 86_400 == 0 else {
            throw ValidationError(field: field, template: "use whole days or weeks for appointments (e.g. 2w, 30d)")
        }
        return seconds % 604_800 == 0
            ? "FREQ=WEEKLY;INTERVAL=\(seconds / 604_800)" : "FREQ=DAILY;INTERVAL=\(seconds / 86_400)"
    }

    /// A treatment cycle after done: whole days, from one day to five years.
    public static func cycleAfterDone(_ seconds: Int, field: String = "every") throws -> Int {
        guard seconds % 86_400 == 0 else {
            throw ValidationError(field: field, template: "use whole days or weeks for appointments (e.g. 2w, 30d)")
        }
        guard seconds >= 86_400, seconds <= 5 * 366 * 86_400 else {
            throw ValidationError(field: field, template: "a cycle after done must be between 1d and 5 years")
        }
        return seconds
    }

    /// What a person should hear about a saved appointment's reminders (nothing here is refused): one
    /// that is already past and will not fire (it has no delivery), one set for after the start.
    /// Times are written in `zone`. A series plans its reminders two weeks ahead, so one of its
    /// future reminders without a delivery yet is simply not planned yet. `allDayTime`: see `AllDayReminders`.
    public static func warnings(
        for appointment: Appointment, deliveries: [Delivery], zone: TimeZone, now: Date,
        allDayTime: ClockTime = AllDayReminders.defaultTime, localizer l: Localizer = .english
    ) -> [String] {
        let times = Timestamps(zone: zone, language: l.language)
        let recorded = Set(deliveries.map(\.trigger.key))
        // A visit booked after it began is more often a slip of the date than a record of the past.
        let past =
            appointment.recurrence == nil && appointment.status == .scheduled && appointment.start < now
            ? [
                l.tr(
                    "it starts in the past (%s): it stays scheduled until you mark it done or cancel it",
                    times.short(appointment.start))
            ] : []
        let allDay = AllDayReminders(time: allDayTime, zone: zone)
        // An all-day visit's reminders may come on its day, up to the all-day time.
        let latest =
            appointment.allDay
            ? allDay.fireDate(.before(0), of: appointment, start: appointment.start) : appointment.start
        return past
            + ReminderPlanner.triggers(for: appointment, allDay: allDay).compactMap { trigger in
                if !recorded.contains(trigger.key), appointment.recurrence == nil || trigger.fireAt <= now {
                    return l.tr(
                        "the reminder at %s is already in the past; it will not fire", times.short(trigger.fireAt))
                }
                if trigger.fireAt > latest {
                    return l.tr(
                        "the reminder at %s comes after the start (%s)", times.short(trigger.fireAt),
                        times.short(appointment.start))
                }
                return nil
            }
    }
}
