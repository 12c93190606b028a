import Foundation

/// Which zone an appointment's wall clock belongs to once the user places its start. As calendar
/// programs do, a timed visit whose time the user sets is pinned to the zone the user is in, so it
/// keeps its hour there wherever the laptop goes and export and sync write its `TZID`: `appointment
/// add` (the zone beautyctl runs in) and an edit or split that gives a new time or makes an all-day
/// visit timed (the zone beautyd runs in) alike. A zone already pinned stays; an all-day visit stays
/// a date; an occurrence of a series keeps its series' zone (its RECURRENCE-ID is written in it), and
/// so does a series with changed occurrences (they were written against it);
/// `--clear tz` makes a visit floating on purpose; and a visit imported or synced floating stays
/// floating until its time is edited, as the file said.
public enum AppointmentZonePin {
    /// `edited` with its zone as the rule says: `placesStart` when the change gives a start or all-day,
    /// `clearsZone` when it empties the zone, `zone` the one the user is in (pinned only under an IANA name).
    public static func pinned(_ edited: Appointment, placesStart: Bool, clearsZone: Bool, zone: TimeZone) -> Appointment
    {
        guard placesStart, !clearsZone, !edited.allDay, edited.timeZone == nil, edited.seriesID == nil,
            edited.recurrence?.changed.isEmpty ?? true,
            let name = try? Validation.timeZone(zone.identifier)
        else { return edited }
        var pinned = edited
        pinned.timeZone = name
        return pinned
    }
}
