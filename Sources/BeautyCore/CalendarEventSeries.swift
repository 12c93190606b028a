import Foundation

/// A file's events as appointments and back, with series and their changed occurrences kept together.
extension CalendarEvent {
    /// The appointments a file's events describe, with their contact names. A changed occurrence
    /// (RECURRENCE-ID) stays an appointment with its series' UID and `recurrenceID` (the daemon links
    /// it to its series, or keeps it single when the series is nowhere). A RANGE=THISANDFUTURE one
    /// whose series is in the file splits that series there: the series ends before it, and a new
    /// one (UID `<uid>/from-<RECURRENCE-ID in UTC>`) starts with the event's fields, its start moved
    /// as the event moved it; the file's later changed occurrences of the series go with the new one.
    /// At the series' first occurrence it changes the whole series.
    /// `events` gives, for each appointment, the index of the event it came from (for its line and contact phone).
    public static func importing(_ events: [CalendarEvent], zone: TimeZone)
        -> (appointments: [Appointment], contactNames: [String?], events: [Int])
    {
        var appointments = events.map { $0.appointment() }
        var contactNames = events.map(\.contactName)
        var gone = Set<Int>()
        for (index, event) in events.enumerated() where event.thisAndFuture {
            guard let rid = event.recurrenceID,
                let master = appointments.firstIndex(where: {
                    $0.uid == event.uid && $0.recurrenceID == nil && $0.recurrence != nil
                })
            else { continue }
            let shift = event.start.timeIntervalSince(rid)
            var changes = appointments[index]
            changes.recurrenceID = nil
            let later = appointments.indices.filter { other in
                other != index && appointments[other].uid == event.uid
                    && appointments[other].recurrenceID.map { Recurrence.key($0) > Recurrence.key(rid) } == true
            }
            let seriesUID: String
            if Recurrence.key(rid) == Recurrence.key(appointments[master].start) {
                // From the first occurrence on is the whole series.
                seriesUID = event.uid
                changes.recurrence = appointments[master].recurrence.map { SeriesSplit.shifted($0, by: shift) }
                appointments[master] = changes
                contactNames[master] = contactNames[index] ?? contactNames[master]
                gone.insert(index)
            } else {
                seriesUID = "\(event.uid)/from-\(ICalendar.utcText(rid))"
                guard
                    let (head, tail) = try? SeriesSplit.split(
                        appointments[master], at: rid, zone: zone, newUID: seriesUID)
                else { continue }
                appointments[master] = head
                changes.recurrence = tail.recurrence.map { SeriesSplit.shifted($0, by: shift) }
                changes.uid = seriesUID
                appointments[index] = changes
            }
            for other in later {
                appointments[other].uid = seriesUID
                appointments[other].recurrenceID = appointments[other].recurrenceID?.addingTimeInterval(shift)
            }
        }
        let kept = appointments.indices.filter { !gone.contains($0) }
        return (kept.map { appointments[$0] }, kept.map { contactNames[$0] }, kept)
    }

    /// The events to write for these appointments (`contactNames` index-aligned): each changed
    /// occurrence right after its series, as a RECURRENCE-ID component with the series' UID (a
    /// DATE for an all-day series), earliest first.
    /// `contactPhones`, when given, goes with `contactNames`.
    public static func exporting(
        _ appointments: [Appointment], contactNames: [String?], contactPhones: [String?]? = nil
    ) -> [CalendarEvent] {
        // Indices rather than copies of the appointments: an export has a hundred thousand.
        let phones = contactPhones ?? []
        let ids = Set(appointments.compactMap(\.id))
        var occurrences: [Int64: [Int]] = [:]
        for index in appointments.indices {
            if let series = appointments[index].seriesID, ids.contains(series) {
                occurrences[series, default: []].append(index)
            }
        }
        func event(_ index: Int) -> CalendarEvent {
            CalendarEvent(
                appointments[index], contactName: contactNames[index],
                contactPhone: index < phones.count ? phones[index] : nil)
        }
        var events: [CalendarEvent] = []
        events.reserveCapacity(appointments.count)
        for index in appointments.indices {
            if let series = appointments[index].seriesID, ids.contains(series) { continue }
            events.append(event(index))
            guard let id = appointments[index].id, let changed = occurrences[id] else { continue }
            func original(_ occurrence: Int) -> Date {
                appointments[occurrence].recurrenceID ?? appointments[occurrence].start
            }
            for occurrence in changed.sorted(by: { original($0) < original($1) }) {
                var changedEvent = event(occurrence)
                changedEvent.uid = appointments[index].effectiveUID
                changedEvent.recurrenceIDIsDate = appointments[index].allDay
                events.append(changedEvent)
            }
        }
        return events
    }
}
