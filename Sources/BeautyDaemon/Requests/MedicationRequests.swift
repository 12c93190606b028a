import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation

/// The medication, dose, history and notification-switch methods.
extension UnsplitRequests {
    static func medicationRoutes(_ router: inout UnsplitRoutes) {
        router.register(MedicationRPC.add) { try $0.addMedication($1) }
        router.register(MedicationRPC.list) { requests, p in
            try ListSort.sorted(try requests.store.medications(), sort: p.sort, reverse: p.reverse, supported: [.title])
            { m, _ in .text(m.name) }
        }
        router.register(MedicationRPC.show) { try $0.medicationDetail($1.id) }
        router.register(MedicationRPC.edit) { try $0.editMedication($1) }
        router.register(MedicationRPC.remove) { requests, p in
            let gone = try requests.store.medication(id: p.id)
            try requests.store.deleteMedication(id: p.id)
            requests.scheduler.wake(.edited)
            return gone
        }
        router.register(MedicationRPC.move) { try $0.store.moveMedication(id: $1.id, to: $1.position) }
        router.register(MedicationRPC.refill) { try $0.refill($1) }
        router.register(MedicationRPC.doseTaken) { try await $0.answerDose($1, .taken) }
        router.register(MedicationRPC.doseSkip) { try await $0.answerDose($1, .skipped) }
        router.register(MedicationRPC.doseSnooze) { try await $0.answerDose($1, .snoozed) }
        router.register(MedicationRPC.doseLog) { try await $0.logDose($1) }
        router.register(MedicationRPC.history) { try $0.history($1) }
        router.register(MedicationRPC.notifications) { try $0.notifications($1) }
    }

    func addMedication(_ p: MedAddParams) throws -> MedDetail {
        let medication = try Validation.medication(
            Medication(
                name: p.name, dose: p.dose, notes: p.notes, startDate: p.startDate, endDate: p.endDate,
                schedule: p.schedule ?? .none, stock: p.stock, lowStock: p.lowStock, timeZone: p.timeZone))
        let saved = try store.addMedication(medication, now: clock(), planningIn: zone.current)
        logger.info(
            "medication added: \(saved.name)", metadata: ["item_id": "\(saved.id ?? 0)", "item_kind": "medication"])
        scheduler.wake(.edited)
        return try medicationDetail(saved.id!)
    }

    func editMedication(_ p: MedEditParams) throws -> MedDetail {
        _ = try store.updateMedication(id: p.id, now: clock(), planningIn: zone.current) { m in
            m = try Validation.medication(edited(m, p))
        }
        scheduler.wake(.edited)
        return try medicationDetail(p.id)
    }

    private func edited(_ stored: Medication, _ p: MedEditParams) -> Medication {
        var m = stored
        for field in p.clear ?? [] {
            switch field {
            case .dose: m.dose = nil
            case .notes: m.notes = nil
            case .startDate: m.startDate = nil
            case .endDate: m.endDate = nil
            case .stock: m.stock = nil
            case .lowStock: m.lowStock = nil
            case .timeZone: m.timeZone = nil
            }
        }
        if let v = p.name { m.name = v }
        if let v = p.dose { m.dose = v }
        if let v = p.notes { m.notes = v }
        if let v = p.startDate { m.startDate = v }
        if let v = p.endDate { m.endDate = v }
        if let v = p.schedule { m.schedule = v }
        if let v = p.stock { m.stock = v }
        if let v = p.lowStock { m.lowStock = v }
        if let v = p.timeZone { m.timeZone = v }
        return m
    }

    func refill(_ p: MedRefillParams) throws -> Medication {
        _ = try Validation.refill(p.count, onto: nil)
        return try store.refillMedication(id: p.id, count: p.count, now: clock())
    }

    func medicationDetail(_ id: Int64) throws -> MedDetail {
        let m = try store.medication(id: id)
        let now = clock()
        let cal = LocalTime.calendar(zone.current)
        let today = cal.startOfDay(for: now)
        let tomorrow = cal.date(byAdding: .day, value: 1, to: today)!
        // A medication pinned with --tz keeps its own wall clock (as the store plans it).
        let zone = m.zone(default: self.zone.current)
        let horizon = now.addingTimeInterval(14 * 86_400)
        // A dose already answered (taken early, skipped ahead) is not next.
        let answered = Set(
            try store.doses(from: now, to: horizon, medicationID: id).filter { !$0.state.isOpen }.map(\.scheduledAt))
        let upcoming = DosePlanner.doses(for: m, from: now, to: horizon, zone: zone).filter { !answered.contains($0) }
        let adherence = try store.adherence(now: now).first { $0.medicationID == id }.map(Self.wire)
        return MedDetail(
            medication: m, activeToday: DosePlanner.isActive(m, on: LocalDate(now, in: zone), zone: zone),
            today: try store.doses(from: today, to: tomorrow, medicationID: id), upcoming: Array(upcoming.prefix(10)),
            adherence: adherence)
    }

    func answerDose(_ p: DoseParams, _ state: Dose.State) async throws -> DoseResult {
        if let seconds = p.forSeconds, seconds <= 0 || seconds > 86_400 {
            throw ValidationError(field: "forSeconds", template: "must be between 1 second and 1 day")
        }
        let now = clock()
        if let at = p.at, at > now.addingTimeInterval(60) {
            throw ValidationError(field: "at", template: "must not be in the future")
        }
        try checkEarly(p, state)
        let answer: DoseAnswer
        switch (p.id, p.medicationID, p.scheduledAt) {
        case let (id?, nil, nil):
            answer = try await scheduler.answerDose(id: id, state, at: p.at ?? now, snoozeSeconds: p.forSeconds)
        case let (nil, medicationID?, scheduledAt?):
            try checkPlannedDose(medicationID: medicationID, at: scheduledAt)
            answer = try await scheduler.answerPlannedDose(
                medicationID: medicationID, scheduledAt: scheduledAt, state, at: p.at ?? now)
        default:
            throw ValidationError(
                field: "id", template: "give a dose id, or (for a dose with none yet) medicationID and scheduledAt")
        }
        let medication = try store.medication(id: answer.dose.medicationID)
        let until =
            state == .snoozed && answer.changed
            ? try store.deliveries(itemKind: .medication, itemID: answer.dose.id ?? 0).last { $0.state == .pending }?
                .trigger.fireAt : nil
        return DoseResult(dose: answer.dose, medication: medication, changed: answer.changed, snoozedUntil: until)
    }

    func logDose(_ p: DoseLogParams) async throws -> DoseResult {
        let now = clock()
        if let at = p.at, at > now.addingTimeInterval(60) {
            throw ValidationError(field: "at", template: "must not be in the future")
        }
        let answer = try await scheduler.logDose(medicationID: p.medicationID, at: p.at ?? now)
        return DoseResult(
            dose: answer.dose, medication: try store.medication(id: p.medicationID), changed: true, snoozedUntil: nil)
    }

    /// An answer timed long before its dose was due waits for `early` (see `DoseParams.early`); the
    /// error's arguments are the two instants (RFC 3339) for the client to word its question.
    private func checkEarly(_ p: DoseParams, _ state: Dose.State) throws {
        guard let at = p.at, p.early != true, state == .taken || state == .skipped,
            let due = try p.scheduledAt ?? p.id.map({ try store.dose(id: $0).scheduledAt }),
            at < due.addingTimeInterval(-DoseParams.earlyLimit)
        else { return }
        throw ValidationError(
            field: "early",
            template: "answered at %s, more than 12 hours before the dose was due (%s): set early to confirm",
            RFC3339.format(at), RFC3339.format(due))
    }

    /// A dose answered by its medication and time must be one the schedule has.
    private func checkPlannedDose(medicationID: Int64, at scheduledAt: Date) throws {
        let medication = try store.medication(id: medicationID)
        let zone = medication.zone(default: self.zone.current)
        guard
            DosePlanner.doses(for: medication, from: scheduledAt, to: scheduledAt.addingTimeInterval(1), zone: zone)
                == [scheduledAt]
        else {
            throw ValidationError(
                field: "scheduledAt", template: "%s has no dose at %s", medication.name,
                Timestamps(zone: zone).short(scheduledAt))
        }
    }

    func history(_ p: HistoryParams) throws -> HistoryResult {
        let now = clock()
        let to = p.to ?? now
        let from = p.from ?? to.addingTimeInterval(-30 * 86_400)
        try Validation.range(from: from, to: to, .halfOpen)
        let rows = try store.history(from: from, to: to, now: now).map {
            HistoryEntry(
                kind: $0.kind == .dose ? .dose : .reminder, id: $0.id, title: $0.title, detail: $0.detail,
                scheduledAt: $0.scheduledAt,
                state: $0.state, confirmedAt: $0.confirmedAt)
        }
        return HistoryResult(from: from, to: to, entries: rows, adherence: try store.adherence(now: now).map(Self.wire))
    }

    func notifications(_ p: NotificationsParams) throws -> NotificationsResult {
        if let enabled = p.enabled {
            try store.setSetting(Scheduler.notificationsSetting, enabled ? "on" : "off")
            logger.notice("notifications switched \(enabled ? "on" : "off")")
            scheduler.wake(.edited)
        }
        return NotificationsResult(enabled: try store.setting(Scheduler.notificationsSetting) != "off")
    }

    /// Doses still to come today, and those that should have been taken: every dose of yesterday and
    /// today whose time passed and that is not taken (missed and skipped too, so one answered late
    /// stays in view until the end of the day after its own).
    func doseEntries(now: Date, dayStart: Date, dayEnd: Date, yesterday: Date) throws -> (
        later: [AgendaEntry], overdue: [AgendaEntry]
    ) {
        let medications = Dictionary(uniqueKeysWithValues: try store.medications().map { ($0.id!, $0) })
        var later: [AgendaEntry] = [], overdue: [AgendaEntry] = []
        for dose in try store.doses(from: yesterday, to: dayEnd) where dose.state != .taken {
            guard let medication = medications[dose.medicationID] else { continue }
            let entry = AgendaEntry(dose: dose, medication: medication)
            if dose.scheduledAt > now {
                if dose.state.isOpen, dose.scheduledAt >= dayStart { later.append(entry) }
            } else {
                overdue.append(entry)
            }
        }
        return (later, overdue)
    }

    /// Doses in an agenda range: stored rows where they exist, the plan beyond them.
    /// `searches` as `ListFilter.needles` gives them: a medication matching any of them.
    func agendaDoses(from: Date, to: Date, searches: [String]) throws -> [AgendaEntry] {
        var entries: [AgendaEntry] = []
        let stored = try store.doses(from: from, to: to)
        let byKey = Dictionary(stored.map { ("\($0.medicationID)/\($0.scheduledAt.timeIntervalSince1970)", $0) }) {
            a, _ in a
        }
        for medication in try store.medications() {
            guard
                ListFilter.text(
                    [medication.name, medication.notes ?? "", medication.dose ?? ""], containsAnyOf: searches)
            else { continue }
            for instant in DosePlanner.doses(
                for: medication, from: from, to: to, zone: medication.zone(default: zone.current))
            {
                let dose =
                    byKey["\(medication.id!)/\(instant.timeIntervalSince1970)"]
                    ?? Dose(id: 0, medicationID: medication.id!, scheduledAt: instant)
                entries.append(AgendaEntry(dose: dose, medication: medication))
            }
        }
        return entries
    }

    static func wire(_ row: AdherenceRow) -> Adherence {
        Adherence(
            medicationID: row.medicationID, name: row.name, taken7: row.taken7, scheduled7: row.scheduled7,
            taken30: row.taken30, scheduled30: row.scheduled30)
    }
}
