import Foundation

/// Appointments as iCalendar events and back: what `export --ics` writes and `import` reads.
extension CalendarEvent {
    public init(_ a: Appointment, contactName: String?) {
        self.init(
            uid: a.effectiveUID, summary: a.title, start: a.start, allDay: a.allDay, durationSeconds: a.durationSeconds,
            timeZone: a.timeZone, location: a.address, notes: a.notes, categories: a.category.map { [$0] } ?? [],
            status: a.status == .cancelled ? "CANCELLED" : "CONFIRMED",
            rrule: a.recurrence?.rule, exdates: a.recurrence?.exdates ?? [], rdates: a.recurrence?.rdates ?? [],
            alarms: a.reminders, color: a.color, priceCents: a.price?.cents, currency: a.price?.currency,
            contactName: contactName)
        startWall = a.recurrence?.startWall
        recurrenceID = a.recurrenceID
        recurrenceIDIsDate = a.recurrenceID != nil && a.allDay
    }

    /// The appointment this event describes; currency may be empty (the daemon fills in its default).
    public func appointment() -> Appointment {
        Appointment(
            title: summary, start: start, durationSeconds: durationSeconds, allDay: allDay, address: location,
            notes: notes, category: categories.first?.lowercased(),
            color: (try? Validation.color(color)) ?? nil,  // other programs use names beautyd does not know
            price: priceCents.map { Money(cents: $0, currency: currency ?? "") },
            status: status?.uppercased() == "CANCELLED" ? .cancelled : .scheduled,
            reminders: alarms, timeZone: timeZone,
            // A changed occurrence is one occurrence, whatever RRULE it carries.
            recurrence: recurrenceID != nil ? nil : rrule.map { AppointmentRecurrence(rule: $0, exdates: exdates, rdates: rdates, startWall: startWall) },
            uid: uid, recurrenceID: recurrenceID)
    }
}
