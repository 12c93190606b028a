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
    ///   a VTIMEZONE that is one fixed offset or whose rules are evaluated, `UTC+11`-style
    ///   fixed offsets), floating (in `defaultZone`; for properties other than DTSTART, in the
    ///   event's zone) and DATE values (all-day, midnight in `defaultZone`). Wall times are
    ///   resolved with `LocalTime.instant`: a time skipped by DST is read with the offset before
    ///   the gap (RFC 5545 §3.3.5), a repeated time is its first occurrence. A series whose
    ///   DTSTART is in UTC repeats in UTC (`timeZone` "UTC"); one whose DTSTART is in a gap keeps
    ///   that wall time (`startWall`).
    /// - An event that cannot be placed in time (no DTSTART) is left out and listed (`skippedEvents`);
    ///   a TZID that names no zone (not IANA, not Windows, no VTIMEZONE) is read as floating, with a
    ///   warning; VEVENTs with no VCALENDAR around them are read as one calendar, with a warning.
    /// - Properties and subcomponents of a VEVENT that beautyd does not interpret are kept as
    ///   they came (`extraLines`) and written back on export. Components that are not events
    ///   (VTODO, VJOURNAL, X-...) are counted in the summary (`read`).
    /// - A changed occurrence (a VEVENT with RECURRENCE-ID) keeps its series' UID and carries
    ///   `recurrenceID` (and `thisAndFuture` for RANGE=THISANDFUTURE); the series is left as
    ///   written (no EXDATE). `CalendarEvent.appointments` links them.
    /// - Several VEVENTs with one UID and RECURRENCE-ID (or none): the highest SEQUENCE wins
    ///   (the later one on a tie), in the place of the first.
    ///
    /// Throws `ICalendarError` with the 1-based line of the file as given (folded) and
    /// returns nothing when any part of the file is malformed, or is not iCalendar at all.
    public static func parse(_ text: String, defaultZone: TimeZone) throws -> [CalendarEvent] {
        try read(text, defaultZone: defaultZone).events
    }

    /// `parse`, with the summary of what was approximated (warnings with their lines) and what
    /// was not imported. Valid files are read whole: only what is truly malformed throws.
    public static func read(_ text: String, defaultZone: TimeZone) throws -> Import {
        var collected = EventCollector()
        var warnings: [ImportWarning] = []
        var skipped = SkippedComponents()
        var skippedEvents: [SkippedEvent] = []
        for calendar in try components(text) {
            if calendar.implied {
                warnings.append(
                    ImportWarning(
                        line: calendar.line,
                        template: "the file has no BEGIN:VCALENDAR: its events were read as one calendar"))
            }
            var zones = ZoneResolver(calendar: calendar, fallback: defaultZone)
            for child in calendar.children {
                switch child.name {
                case "VEVENT" where child.first("DTSTART") == nil:
                    skippedEvents.append(SkippedEvent(withoutStart: child))
                case "VEVENT":
                    collected.add(try event(from: child, zones: &zones, defaultZone: defaultZone, warnings: &warnings))
                case "VTIMEZONE": continue
                default: skipped.add(child.name, line: child.line)
                }
            }
            warnings += zones.warnings
        }
        return Import(
            events: collected.finish(), warnings: warnings.sorted { $0.line < $1.line }, skipped: skipped,
            skippedEvents: skippedEvents)
    }
}
