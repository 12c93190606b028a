import Foundation

/// Appointments as iCalendar events and back: what `export --ics` writes and `import` reads.
extension CalendarEvent {
    /// The title of an event that has none.
    public static let untitled = "(no title)"

    /// `contactPhone` goes with the contact's name, so that a daemon without that contact can create it.
    public init(_ a: Appointment, contactName: String?, contactPhone: String? = nil) {
        self.init(
            uid: a.effectiveUID, summary: a.title, start: a.start, allDay: a.allDay, durationSeconds: a.durationSeconds,
            timeZone: a.timeZone, location: a.address, notes: a.notes, categories: (a.category.map { [$0] } ?? []) + a.tags,
            status: a.status == .cancelled ? "CANCELLED" : "CONFIRMED",
            rrule: a.recurrence.flatMap { $0.rule.isEmpty ? nil : $0.rule },
            exdates: a.recurrence?.exdates ?? [], rdates: a.recurrence?.rdates ?? [],
            alarms: a.reminders, color: a.color, priceCents: a.price?.cents, currency: a.price?.currency,
            contactName: contactName, moreRules: a.recurrence?.moreRules ?? [], contactPhone: contactName == nil ? nil : contactPhone,
            done: a.status == .done, cycleSeconds: a.repeatAfterDoneSeconds, extraLines: a.extraProperties)
    }

    /// The appointment this event describes; currency may be empty (the daemon fills in its default).
    /// Every CATEGORIES value is a tag here: the daemon, which has the category tree, picks the
    /// one that names a category of it (`CategoryAssignment`).
    public func appointment() -> Appointment {
        let recurs = rrule != nil || !moreRules.isEmpty || !rdates.isEmpty
        let status: Appointment.Status = self.status?.uppercased() == "CANCELLED" ? .cancelled : done ? .done : .scheduled
        return Appointment(
            title: summary.isEmpty ? Self.untitled : summary, start: start, durationSeconds: durationSeconds, allDay: allDay,
            address: location, notes: notes,
            color: (try? Validation.color(color)) ?? nil,  // the reader keeps other programs' colours as extra lines
            price: priceCents.map { Money(cents: $0, currency: currency ?? "") },
            status: status, reminders: alarms, timeZone: timeZone,
            recurrence: recurs ? AppointmentRecurrence(rule: rrule ?? "", moreRules: moreRules, exdates: exdates, rdates: rdates) : nil,
            repeatAfterDoneSeconds: cycleSeconds, uid: uid, tags: categories, extraProperties: extraLines)
    }
}

/// Calendar categories onto beautyd's category tree.
public enum CategoryAssignment {
    /// The first of `categories` that names a node of the tree (its name such as `nails/manicure`,
    /// or its title such as "Manicure", in any case) becomes the category; the others stay free
    /// tags, as given and in order.
    public static func assign(_ categories: [String], tree: [(name: String, title: String)]) -> (category: String?, tags: [String]) {
        var category: String?
        var tags: [String] = []
        for value in categories {
            let key = value.trimmingCharacters(in: .whitespaces).lowercased()
            if category == nil, let node = tree.first(where: { $0.name == key || $0.title.lowercased() == key }) {
                category = node.name
            } else {
                tags.append(value)
            }
        }
        return (category, tags)
    }
}
