import Foundation

/// iCalendar (RFC 5545) reading and writing for `beautyctl import` / `export --ics`.
/// Pure: text in, events out (and back); no files, no clock.
public enum ICalendar {
    /// Parses every VEVENT of one or more VCALENDAR objects.
    ///
    /// - Lines end in CRLF, LF or CR; lines starting with a space or tab continue the one before.
    /// - DTSTART/DTEND/EXDATE/RDATE/RECURRENCE-ID: UTC ("Z"), `TZID=` (IANA names, prefixed
    ///   forms such as `/mozilla.org/20070129_1/Europe/Warsaw`, common Windows names such as
    ///   Outlook's "Central European Standard Time", an `X-LIC-LOCATION` in the VTIMEZONE, or
    ///   a VTIMEZONE that is one fixed offset), floating (in `defaultZone`; for properties
    ///   other than DTSTART, in the event's zone) and DATE values (all-day, midnight in
    ///   `defaultZone`). Wall times are resolved with `LocalTime.instant`: a time skipped by
    ///   DST is the first instant after the gap, a repeated time is its first occurrence.
    /// - Properties and subcomponents of a VEVENT that beautyd does not interpret are kept as
    ///   they came (`extraLines`) and written back on export. Components that are not events
    ///   (VTODO, VJOURNAL, X-...) are counted in the summary (`read`).
    /// - A modified occurrence (a VEVENT with RECURRENCE-ID) becomes its own event with the
    ///   UID `<uid>#<recurrence-id in UTC, or the date>`, and its original instant is added
    ///   to the series' EXDATEs, so UIDs stay unique and importing twice changes nothing.
    /// - Several VEVENTs with one UID and no RECURRENCE-ID: the highest SEQUENCE wins (the
    ///   later one on a tie), in the place of the first.
    ///
    /// Throws `ICalendarError` with the 1-based line of the file as given (folded) and
    /// returns nothing when any part of the file is malformed.
    public static func parse(_ text: String, defaultZone: TimeZone) throws -> [CalendarEvent] {
        try read(text, defaultZone: defaultZone).events
    }

    /// `parse`, with the summary of what was approximated (warnings with their lines) and what
    /// was not imported. Valid files are read whole: only what is truly malformed throws.
    public static func read(_ text: String, defaultZone: TimeZone) throws -> Import {
        var collected = EventCollector()
        var warnings: [ImportWarning] = []
        var skipped = SkippedComponents()
        for calendar in try components(text) {
            var zones = ZoneResolver(calendar: calendar)
            for child in calendar.children {
                switch child.name {
                case "VEVENT": collected.add(try event(from: child, zones: &zones, defaultZone: defaultZone, warnings: &warnings))
                case "VTIMEZONE": continue
                default: skipped.add(child.name, line: child.line)
                }
            }
            // The zone resolver's approximations (a VTIMEZONE followed by its rules) join `warnings` here.
        }
        return Import(events: collected.finish(), warnings: warnings.sorted { $0.line < $1.line }, skipped: skipped)
    }
}
