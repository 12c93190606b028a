import Foundation

/// Appointments as iCalendar events and back: what `export --ics` writes and `import` reads.
extension CalendarEvent {
    /// The title of an event that has none.
    public static let untitled = "(no title)"

    /// A SUMMARY as an argument of a message: itself, or "(no title)" in the reader's language.
    public static func title(_ summary: String) -> TranslatableText.Argument {
        summary.isEmpty ? .message(TranslatableText("(no title)", [])) : .plain(summary)
    }

    /// `contactPhone` goes with the contact's name, so that a daemon without that contact can create it.
    public init(_ a: Appointment, contactName: String?, contactPhone: String? = nil) {
        self.init(
            uid: a.effectiveUID, summary: a.title, start: a.start, allDay: a.allDay, durationSeconds: a.durationSeconds,
            timeZone: a.timeZone, location: a.address, notes: a.notes,
            categories: (a.category.map { [$0] } ?? []) + a.tags,
            status: a.status == .cancelled ? "CANCELLED" : "CONFIRMED",
            rrule: a.recurrence.flatMap { $0.rule.isEmpty ? nil : $0.rule },
            exdates: a.recurrence?.exdates ?? [], rdates: a.recurrence?.rdates ?? [],
            alarms: a.reminders, color: a.color, priceCents: a.price?.cents, currency: a.price?.currency,
            contactName: contactName, moreRules: a.recurrence?.moreRules ?? [],
            contactPhone: contactName == nil ? nil : contactPhone,
            done: a.status == .done, cycleSeconds: a.repeatAfterDoneSeconds, extraLines: a.extraProperties)
        startWall = a.recurrence?.startWall
        recurrenceID = a.recurrenceID
        recurrenceIDIsDate = a.recurrenceID != nil && a.allDay
    }

    /// The appointment this event describes; currency may be empty (the daemon fills in its default).
    /// Every CATEGORIES value is a tag here: the daemon, which has the category tree, picks the
    /// one that names a category of it (`CategoryAssignment`).
    public func appointment() -> Appointment {
        let recurs = rrule != nil || !moreRules.isEmpty || !rdates.isEmpty
        let status: Appointment.Status =
            self.status?.uppercased() == "CANCELLED" ? .cancelled : done ? .done : .scheduled
        return Appointment(
            title: summary.isEmpty ? Self.untitled : summary, start: start, durationSeconds: durationSeconds,
            allDay: allDay,
            address: location, notes: notes,
            color: (try? Validation.color(color)) ?? nil,  // the reader keeps other programs' colours as extra lines
            price: priceCents.map { Money(cents: $0, currency: currency ?? "") },
            status: status, reminders: alarms, timeZone: timeZone,
            // A changed occurrence is one occurrence, whatever RRULE it carries.
            recurrence: recurs && recurrenceID == nil
                ? AppointmentRecurrence(
                    rule: rrule ?? "", moreRules: moreRules, exdates: exdates, rdates: rdates, startWall: startWall)
                : nil,
            repeatAfterDoneSeconds: cycleSeconds, uid: uid, recurrenceID: recurrenceID, tags: categories,
            extraProperties: extraLines)
    }
}
