import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation

/// appointment.*: add, edit, show, list, rm, done/cancel (status changes), import and export.
extension UnsplitRequests {
    static func appointmentRoutes(_ router: inout UnsplitRoutes) {
        router.register(AppointmentRPC.add) { try $0.addAppointment($1) }
        router.register(AppointmentRPC.list) { requests, p in
            try ListSort.sorted(
                try requests.store.appointments(from: p.from, to: p.to, statuses: p.status.map(Set.init)),
                sort: p.sort, reverse: p.reverse, supported: ListSortKey.allCases
            ) { a, key in
                SortValue(key, title: a.title, time: a.start, category: a.category, price: a.price)
            }
        }
        router.register(AppointmentRPC.show) { try $0.detail($1.id) }
        router.register(AppointmentRPC.edit) { requests, p in
            try p.occurrence == nil ? requests.editAppointment(p) : requests.editOccurrence(p)
        }
        router.register(AppointmentRPC.remove) { requests, p in
            if p.occurrence != nil { return try requests.removeOccurrence(p) }
            let gone = try requests.detail(p.id)
            try requests.store.deleteAppointment(id: p.id, now: requests.clock(), zone: requests.zone.current)
            requests.scheduler.wake(.edited)
            return gone
        }
        router.register(AppointmentRPC.importCalendar) { try $0.importAppointments($1) }
        router.register(AppointmentRPC.importBegin) { requests, _ in try requests.beginImport() }
        router.register(AppointmentRPC.importChunk) { try $0.stageImportChunk($1) }
        router.register(AppointmentRPC.importCommit) { try $0.commitImport($1) }
        router.register(AppointmentRPC.importAbort) { try $0.abortImport($1) }
        router.register(AppointmentRPC.exportCalendar) { requests, _ in try requests.exportAppointments() }
        router.register(AppointmentRPC.exportICS) { try $0.exportICS($1) }
        router.register(AppointmentRPC.done) { try $0.setStatus($1, .done) }
        router.register(AppointmentRPC.cancel) { try $0.setStatus($1, .cancelled) }
    }

    private func addAppointment(_ p: AppointmentAddParams) throws -> AppointmentDetail {
        let config = settings.config
        let zone = self.zone.current
        let reminders = p.reminders ?? config.defaultReminderSeconds.map(Reminder.before)
        let asked = Appointment(
            title: p.title, start: p.start, allDay: p.allDay ?? false, address: p.address, notes: p.notes,
            contactID: p.contactID, category: p.category, color: p.color,
            price: p.price.map { Money(cents: $0.cents, currency: $0.currency ?? config.currency) },
            reminders: reminders, timeZone: p.timeZone, recurrence: p.recurrence,
            repeatAfterDoneSeconds: p.repeatAfterDoneSeconds)
        let appointment = try AppointmentDraft.adding(
            asked, durationSeconds: p.durationSeconds, defaultDurationSeconds: config.defaultDurationSeconds,
            series: .init(
                recurrence: p.recurrence, everySeconds: p.everySeconds,
                repeatAfterDoneSeconds: p.repeatAfterDoneSeconds,
                exdates: p.exdates ?? [], startWall: p.startWall)
        ).resolved(zone: zone)
        let saved = try store.addAppointment(appointment, now: clock(), zone: zone)
        logger.info("appointment added: \(saved.title)", metadata: ["item_id": "\(saved.id ?? 0)"])
        scheduler.wake(.edited)
        return try detail(saved.id!, warningsIn: zone)
    }

    private func editAppointment(_ p: AppointmentEditParams) throws -> AppointmentDetail {
        let zone = self.zone.current
        let series = AppointmentDraft.Series(
            recurrence: p.recurrence, everySeconds: p.everySeconds,
            repeatAfterDoneSeconds: p.repeatAfterDoneSeconds, exdates: p.exdates ?? [],
            startWall: p.startWall)
        let saved = try store.updateAppointment(id: p.id, now: clock(), zone: zone) { a in
            a = try AppointmentDraft.editing(
                a, to: pinnedEdit(a, p, zone: zone), durationGiven: p.durationSeconds != nil, series: series,
                placesStart: p.start != nil || p.allDay != nil
            ).resolved(zone: zone)
        }
        scheduler.wake(.edited)
        return try detail(saved.id!, warningsIn: zone)
    }

    /// The stored appointment with the request's changes, pinned to `zone` when the change places a floating one's start.
    func pinnedEdit(_ stored: Appointment, _ p: AppointmentEditParams, zone: TimeZone) -> Appointment {
        AppointmentZonePin.pinned(
            edited(stored, p), placesStart: p.start != nil || p.allDay != nil,
            clearsZone: p.clear?.contains(.timeZone) == true, zone: zone)
    }

    func edited(_ stored: Appointment, _ p: AppointmentEditParams) -> Appointment {
        var a = stored
        for field in p.clear ?? [] {
            switch field {
            case .address: a.address = nil
            case .notes: a.notes = nil
            case .contact: a.contactID = nil
            case .category: a.category = nil
            case .color: a.color = nil
            case .price: a.price = nil
            case .reminders: a.reminders = []
            case .timeZone: a.timeZone = nil
            case .recurrence: a.recurrence = nil
            case .cycle: a.repeatAfterDoneSeconds = nil
            }
        }
        if let v = p.title { a.title = v }
        if let v = p.start { a.start = v }
        if let v = p.durationSeconds { a.durationSeconds = v }
        if let v = p.allDay { a.allDay = v }
        if let v = p.address { a.address = v }
        if let v = p.notes { a.notes = v }
        if let v = p.contactID { a.contactID = v }
        if let v = p.category { a.category = v }
        if let v = p.color { a.color = v }
        if let v = p.price { a.price = Money(cents: v.cents, currency: v.currency ?? settings.config.currency) }
        if let v = p.reminders { a.reminders = v }
        if let v = p.timeZone { a.timeZone = v }
        if let v = p.recurrence { a.recurrence = v }
        if let v = p.repeatAfterDoneSeconds { a.repeatAfterDoneSeconds = v }
        return a
    }

    private func exportAppointments() throws -> AppointmentExportResult {
        try store.assignMissingUIDs()
        let all = try store.appointments()
        // One read of the contacts, not one per appointment (an export has a hundred thousand).
        let contacts = Dictionary(uniqueKeysWithValues: try store.contacts().map { ($0.id!, $0) })
        let linked = try all.map { a in try a.contactID.map { try contacts[$0] ?? store.contact(id: $0) } }
        return AppointmentExportResult(
            appointments: all, contactNames: linked.map { $0?.name }, contactPhones: linked.map { $0?.phone })
    }

    private func exportICS(_ p: AppointmentExportICSParams) throws -> AppointmentExportICSResult {
        let defaultZone =
            try p.zone.map { name in
                guard let zone = TimeZone(identifier: name) else {
                    throw ValidationError(
                        field: "zone", template: "'%s' is not a time zone of the tz database (such as Europe/Warsaw)",
                        Validation.quotable(name))
                }
                return zone
            } ?? zone.current
        let exported = try exportAppointments()
        let events = CalendarEvent.exporting(
            exported.appointments, contactNames: exported.contactNames, contactPhones: exported.contactPhones)
        // DTSTAMP is when the file is written, in UTC (RFC 5545 §3.8.7.2).
        let text = ICalendar.serializedBytes(events, stamp: clock(), defaultZone: defaultZone)
        return AppointmentExportICSResult(ics: String(decoding: text, as: UTF8.self), count: events.count)
    }

    private func setStatus(_ p: AppointmentOccurrenceParams, _ status: Appointment.Status) throws -> AppointmentDetail {
        let change =
            try p.occurrence.map {
                try store.setOccurrenceStatus(seriesID: p.id, occurrence: $0, status, now: clock(), zone: zone.current)
            }
            ?? store.setAppointmentStatus(id: p.id, status, now: clock(), zone: zone.current)
        let id = change.appointment.id ?? p.id
        if let followUp = change.followUp {
            logger.info(
                "next visit of the cycle scheduled for \(Timestamps().short(followUp.start))",
                metadata: ["item_id": "\(followUp.id ?? 0)"])
        }
        if let row = change.expense {
            logger.info(
                "expense recorded for a done appointment: \(Money(cents: row.amountCents, currency: row.currency).formatted)",
                metadata: ["item_id": "\(id)", "budget_entry": "\(row.id ?? 0)"])
        }
        scheduler.wake(.edited)
        var result = try detail(id)
        result.followUp = change.followUp
        return result
    }

    /// `warningsIn`: after an add or an edit, the reminders' warnings written in this zone.
    func detail(_ id: Int64, warningsIn zone: TimeZone? = nil) throws -> AppointmentDetail {
        let a = try store.appointment(id: id)
        let contact = a.contactID.flatMap { try? store.contact(id: $0) }
        let next =
            a.recurrence == nil
            ? nil
            : AppointmentOccurrences.starts(of: a, from: clock(), to: .distantFuture, zone: self.zone.current, limit: 5)
        let deliveries = try store.deliveries.of(itemKind: .appointment, itemID: id, now: clock())
        let allDayTime = store.allDayReminderTime
        let warnings =
            zone.map {
                AppointmentDraft.warnings(
                    for: a, deliveries: deliveries, zone: $0, now: clock(), allDayTime: allDayTime)
            } ?? []
        let changed = a.recurrence == nil ? [] : try store.changedOccurrences(ofSeries: id)
        var result = AppointmentDetail(
            appointment: a, contact: contact, deliveries: deliveries, nextOccurrences: next,
            warnings: warnings.isEmpty ? nil : warnings, changedOccurrences: changed.isEmpty ? nil : changed)
        if a.allDay { result.allDayReminderTime = allDayTime }
        return result
    }
}
