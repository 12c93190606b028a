import BeautyCore
import Foundation
import GRDB

/// Medications, their doses, and the dose side of the delivery ledger. What dose is due when is
/// `DosePlanner`'s (Core): this store writes the rows its plan gives, in the transaction of the change.
public struct MedicationStore: Sendable {
    let writer: PrioritizedWriter

    /// Adds a medication. Given a zone, its doses are planned in the same transaction (with those of
    /// any other medication due for planning); without one, the scheduler's next pass plans them.
    public func add(_ medication: Medication, now: Date, planningIn zone: TimeZone? = nil) throws
        -> Medication
    {
        try writer.write { db in
            var record = MedicationRecord(medication)
            record.id = nil
            record.position = (try Int.fetchOne(db, sql: "SELECT MAX(position) FROM medication") ?? 0) + 1
            record.createdAt = now
            record.updatedAt = now
            record.taskKey = DoseTaskUID.newKey()
            try record.insert(db)
            if let zone { try planDoses(db, now: now, zone: zone) }
            return record.medication
        }
    }

    /// Saves changes; future doses not yet shown are re-planned from the new schedule, the past stays.
    public func update(_ medication: Medication, now: Date, planningIn zone: TimeZone? = nil) throws
        -> Medication
    {
        guard let id = medication.id else { throw StoreError.notFound(kind: "medication", id: 0) }
        return try update(id: id, now: now, planningIn: zone) { $0 = medication }
    }

    /// Reads the stored medication, lets `change` edit it and saves the result, in one transaction (so
    /// stock used up meanwhile by a dose taken is not overwritten). Future doses not yet shown are
    /// dropped; given a zone, they are planned again from the new schedule in the same transaction.
    public func update(
        id: Int64, now: Date, planningIn zone: TimeZone? = nil,
        _ change: (inout Medication) throws -> Void
    ) throws -> Medication {
        try writer.write { db in
            guard let old = try MedicationRecord.fetchOne(db, key: id) else {
                throw StoreError.notFound(kind: "medication", id: id)
            }
            var medication = old.medication
            try change(&medication)
            var record = MedicationRecord(medication)
            record.id = id
            record.position = old.position
            record.createdAt = old.createdAt
            record.taskKey = old.taskKey
            record.updatedAt = now
            record.lowStockWarned = old.lowStockWarned && (medication.stock ?? 0) <= (medication.lowStock ?? -1)
            record.plannedUntil = nil
            try record.update(db)
            try Self.dropFutureDoses(db, medicationID: id, after: now)
            if let zone { try planDoses(db, now: now, zone: zone) }
            return record.medication
        }
    }

    public func delete(id: Int64) throws {
        try writer.write { db in
            try db.execute(
                sql:
                    "DELETE FROM delivery WHERE itemKind = 'medication' AND state = 'pending' AND itemID IN (SELECT id FROM dose WHERE medicationId = ?)",
                arguments: [id])
            guard try MedicationRecord.deleteOne(db, key: id) else {
                throw StoreError.notFound(kind: "medication", id: id)
            }
            try renumber(db)
        }
    }

    public func find(id: Int64) throws -> Medication {
        try writer.read { db in
            guard let record = try MedicationRecord.fetchOne(db, key: id) else {
                throw StoreError.notFound(kind: "medication", id: id)
            }
            return record.medication
        }
    }

    /// In the user's order.
    public func all() throws -> [Medication] {
        try writer.read { db in
            try MedicationRecord.order(Column("position"), Column("id")).fetchAll(db).map(\.medication)
        }
    }

    public func count() throws -> Int {
        try writer.read { db in try MedicationRecord.fetchCount(db) }
    }

    /// Moves a medication to `position` (1-based, clamped) and renumbers the rest.
    public func move(id: Int64, to position: Int) throws -> [Medication] {
        try writer.write { db in
            var ordered = try MedicationRecord.order(Column("position"), Column("id")).fetchAll(db)
            guard let index = ordered.firstIndex(where: { $0.id == id }) else {
                throw StoreError.notFound(kind: "medication", id: id)
            }
            let moving = ordered.remove(at: index)
            ordered.insert(moving, at: min(max(position, 1), ordered.count + 1) - 1)
            // Renumber in the array itself, so the answer carries the new positions.
            for index in ordered.indices where ordered[index].position != index + 1 {
                ordered[index].position = index + 1
                try ordered[index].update(db)
            }
            return ordered.map(\.medication)
        }
    }

    /// Adds units to the stock; a refill above the threshold re-arms the low-stock warning.
    public func refill(id: Int64, count: Double, now: Date) throws -> Medication {
        try writer.write { db in
            guard var record = try MedicationRecord.fetchOne(db, key: id) else {
                throw StoreError.notFound(kind: "medication", id: id)
            }
            record.stock = try Validation.refill(count, onto: record.stock)
            if record.stock! > (record.lowStock ?? -1) { record.lowStockWarned = false }
            record.updatedAt = now
            try record.update(db)
            return record.medication
        }
    }

    /// Every medication with its task key (docs/PHONE_TASKS.md §3), in the user's order.
    public func tasked() throws -> [TaskedMedication] {
        try writer.read { db in
            try MedicationRecord.order(Column("position"), Column("id")).fetchAll(db).map { record in
                TaskedMedication(medication: record.medication, key: record.taskKey ?? "")
            }
        }
    }

    /// Draws a new task key for a medication: the server already had a task under a UID of the old
    /// one (another beautyd's, or one left from a lost database). Answers the new key.
    public func redrawTaskKey(id: Int64) throws -> String {
        try writer.write { db in
            let key = DoseTaskUID.newKey()
            try db.execute(sql: "UPDATE medication SET taskKey = ? WHERE id = ?", arguments: [key, id])
            guard db.changesCount > 0 else { throw StoreError.notFound(kind: "medication", id: id) }
            return key
        }
    }

    // MARK: - Doses

    /// Writes the dose rows (and pending deliveries for the ones `DosePlan.notifies`) that `DosePlanner.plan`
    /// gives every medication planned less than `DosePlanner.replanningLimit` ahead.
    @discardableResult
    public func planDoses(now: Date, zone: TimeZone) throws -> Int {
        // Every scheduler pass asks; read first so a pass with nothing to plan never queues for the writer.
        guard try writer.read({ db in try !Self.needingDosePlans(now: now).isEmpty(db) }) else { return 0 }
        return try writer.write { db in try planDoses(db, now: now, zone: zone) }
    }

    private static func needingDosePlans(now: Date) -> QueryInterfaceRequest<MedicationRecord> {
        MedicationRecord.filter(
            Column("plannedUntil") == nil || Column("plannedUntil") < DosePlanner.replanningLimit(now: now))
    }

    @discardableResult
    private func planDoses(_ db: Database, now: Date, zone: TimeZone) throws -> Int {
        var created = 0
        for var record in try Self.needingDosePlans(now: now).fetchAll(db) {
            let plan = DosePlanner.plan(record.medication, plannedUntil: record.plannedUntil, now: now, zone: zone)
            for scheduledAt in plan.doses {
                var dose = DoseRecord(
                    id: nil, medicationId: record.id!, scheduledAt: scheduledAt,
                    state: Dose.State.pending.rawValue, confirmedAt: nil, nagCount: 0, shownKey: nil, answerSource: nil)
                try dose.insert(db, onConflict: .ignore)
                guard db.changesCount > 0, let doseID = dose.id else { continue }
                created += 1
                if plan.notifies(scheduledAt) {
                    try DeliveryRecord(Self.doseTrigger(doseID, scheduledAt, fireAt: scheduledAt)).insert(db)
                }
            }
            record.plannedUntil = plan.until
            try record.update(db)
        }
        return created
    }

    /// When dose rows must next be extended (nil when no medication can ever fire again).
    public func nextPlanning() throws -> Date? {
        try writer.read { db in
            guard
                let earliest = try Date.fetchOne(
                    db,
                    sql: """
                        SELECT MIN(plannedUntil) FROM medication
                        WHERE json_extract(schedule, '$.kind') IN ('times', 'interval')
                        """)
            else { return nil }
            return DosePlanner.nextPlanning(plannedUntil: earliest)
        }
    }

    static func doseTrigger(_ doseID: Int64, _ scheduledAt: Date, fireAt: Date, source: TriggerSource = .plan)
        -> Trigger
    {
        var key = Trigger.key(kind: .medication, itemID: doseID, occurrence: scheduledAt, fireAt: fireAt)
        if source != .plan { key += "/\(source.rawValue)" }
        return Trigger(
            key: key, itemKind: .medication, itemID: doseID, occurrence: scheduledAt, fireAt: fireAt, source: source)
    }

    public func dose(id: Int64) throws -> Dose {
        try writer.read { db in
            guard let record = try DoseRecord.fetchOne(db, key: id) else {
                throw StoreError.notFound(kind: "dose", id: id)
            }
            return record.dose
        }
    }

    /// The delivery key of the notification currently shown for a dose, if any.
    public func shownKey(ofDose id: Int64) throws -> String? {
        try writer.read { db in try String.fetchOne(db, sql: "SELECT shownKey FROM dose WHERE id = ?", arguments: [id])
        }
    }

    /// Doses scheduled in [from, to), earliest first.
    public func doses(from: Date, to: Date, medicationID: Int64? = nil) throws -> [Dose] {
        try writer.read { db in
            var request = DoseRecord.filter(Column("scheduledAt") >= from && Column("scheduledAt") < to)
            if let medicationID { request = request.filter(Column("medicationId") == medicationID) }
            return try request.order(Column("scheduledAt"), Column("medicationId")).fetchAll(db).map(\.dose)
        }
    }

    /// The notification for a dose was shown: remember which one, count re-notifications, and
    /// schedule the next re-notification (or the instant it is given up as missed).
    public func doseShown(_ trigger: Trigger, at now: Date, nagInterval: TimeInterval) throws {
        try writer.write { db in
            guard var dose = try DoseRecord.fetchOne(db, key: trigger.itemID) else { return }
            if Dose.State(rawValue: dose.state)?.isOpen == true {
                dose.state = Dose.State.fired.rawValue
                dose.nagCount = trigger.source == .nag ? dose.nagCount + 1 : 0
                dose.shownKey = trigger.key
                try dose.update(db)
                let next = Self.doseTrigger(
                    dose.id!, dose.scheduledAt, fireAt: now.addingTimeInterval(nagInterval), source: .nag)
                try DeliveryRecord(next).insert(db, onConflict: .ignore)
            }
        }
    }

    /// Records the user's answer. An open dose takes any answer; a missed or skipped one can still be
    /// answered late as taken (or a missed one as skipped): the user took it after all, and history,
    /// adherence and stock must say so. Pending re-notifications are dropped, and the delivery of the
    /// notification on screen for it is settled with the answer.
    /// Taking a dose uses up stock; the answer says whether the low-stock threshold was just reached.
    public func answerDose(
        id: Int64, _ state: Dose.State, confirmedAt: Date, now: Date, snoozeUntil: Date? = nil,
        source: DoseAnswerSource = .desktop
    ) throws -> DoseAnswer {
        try writer.write { db in
            guard var dose = try DoseRecord.fetchOne(db, key: id) else {
                throw StoreError.notFound(kind: "dose", id: id)
            }
            return try answer(
                db, &dose, state, confirmedAt: confirmedAt, now: now, snoozeUntil: snoozeUntil, source: source)
        }
    }

    /// Answers the dose of a medication at `scheduledAt` that the schedule has but that may not be a row
    /// yet (further ahead than the planned rows): the row is made and answered in one write, so no
    /// unanswered row without its delivery is ever left for the planner to skip.
    public func answerPlannedDose(
        medicationID: Int64, scheduledAt: Date, _ state: Dose.State, confirmedAt: Date, now: Date,
        source: DoseAnswerSource = .desktop
    ) throws -> DoseAnswer {
        try writer.write { db in
            guard try MedicationRecord.exists(db, key: medicationID) else {
                throw StoreError.notFound(kind: "medication", id: medicationID)
            }
            var dose = DoseRecord(
                id: nil, medicationId: medicationID, scheduledAt: scheduledAt, state: Dose.State.pending.rawValue,
                confirmedAt: nil, nagCount: 0, shownKey: nil, answerSource: nil)
            try dose.insert(db, onConflict: .ignore)
            guard
                var stored = try DoseRecord.filter(
                    Column("medicationId") == medicationID && Column("scheduledAt") == scheduledAt
                ).fetchOne(db)
            else { throw StoreError.notFound(kind: "dose", id: 0) }
            return try answer(db, &stored, state, confirmedAt: confirmedAt, now: now, snoozeUntil: nil, source: source)
        }
    }

    /// A dose taken outside the schedule (as needed, or an extra one): a new dose, taken at `takenAt`,
    /// using stock as any dose taken does. A dose already at that instant is refused: it is answered
    /// by its id instead, so nothing is counted twice.
    public func logDose(medicationID: Int64, takenAt: Date, now: Date) throws -> DoseAnswer {
        try writer.write { db in
            guard let medication = try MedicationRecord.fetchOne(db, key: medicationID) else {
                throw StoreError.notFound(kind: "medication", id: medicationID)
            }
            var dose = DoseRecord(
                id: nil, medicationId: medicationID, scheduledAt: takenAt, state: Dose.State.pending.rawValue,
                confirmedAt: nil, nagCount: 0, shownKey: nil, answerSource: nil)
            try dose.insert(db, onConflict: .ignore)
            guard db.changesCount > 0 else {
                let existing =
                    try Int64.fetchOne(
                        db, sql: "SELECT id FROM dose WHERE medicationId = ? AND scheduledAt = ?",
                        arguments: [medicationID, takenAt]) ?? 0
                throw ValidationError(
                    field: "at", template: "%s already has dose %s at that time: answer it with its id",
                    medication.name, existing)
            }
            return try answer(db, &dose, .taken, confirmedAt: takenAt, now: now, snoozeUntil: nil, source: .desktop)
        }
    }

    /// Both the desktop and the phone answered a dose differently and the phone's answer came first
    /// (docs/PHONE_TASKS.md §8): a taken dose becomes skipped (its units go back to the stock) or a
    /// skipped one taken (they are used up, as by any intake), at the phone's time. A dose not yet
    /// answered takes the answer as `answerDose` would; one already so answered is left alone.
    public func reviseDoseAnswer(
        id: Int64, to state: Dose.State, confirmedAt: Date, now: Date, source: DoseAnswerSource = .phone
    ) throws -> DoseAnswer {
        try writer.write { db in
            guard var dose = try DoseRecord.fetchOne(db, key: id) else {
                throw StoreError.notFound(kind: "dose", id: id)
            }
            let current = Dose.State(rawValue: dose.state)
            guard state == .taken || state == .skipped else {
                return DoseAnswer(dose: dose.dose, changed: false, lowStock: nil, shownKey: nil)
            }
            guard current == .taken || current == .skipped else {
                return try answer(
                    db, &dose, state, confirmedAt: confirmedAt, now: now, snoozeUntil: nil, source: source)
            }
            guard current != state else {
                return DoseAnswer(dose: dose.dose, changed: false, lowStock: nil, shownKey: nil)
            }
            var lowStock: Medication?
            if state == .taken {
                lowStock = try useStock(db, dose, now: now)
            } else if var medication = try MedicationRecord.fetchOne(db, key: dose.medicationId),
                let stock = medication.stock
            {
                medication.stock = stock + medication.medication.unitsPerDose
                if medication.stock! > (medication.lowStock ?? -1) { medication.lowStockWarned = false }
                try medication.update(db)
            }
            dose.state = state.rawValue
            dose.confirmedAt = confirmedAt
            dose.answerSource = source.rawValue
            try dose.update(db)
            return DoseAnswer(dose: dose.dose, changed: true, lowStock: lowStock, shownKey: nil)
        }
    }

    private func answer(
        _ db: Database, _ dose: inout DoseRecord, _ state: Dose.State, confirmedAt: Date, now: Date,
        snoozeUntil: Date?, source: DoseAnswerSource
    ) throws -> DoseAnswer {
        let id = dose.id!
        guard let current = Dose.State(rawValue: dose.state), current.accepts(state) else {
            return DoseAnswer(dose: dose.dose, changed: false, lowStock: nil, shownKey: nil)
        }
        try db.execute(
            sql: "DELETE FROM delivery WHERE itemKind = 'medication' AND itemID = ? AND state = 'pending'",
            arguments: [id])
        if let shown = dose.shownKey {
            let settled: DeliveryState = state == .taken ? .taken : (state == .skipped ? .skipped : .snoozed)
            try DeliveryStore.transition(db, [shown], from: [.fired], to: settled, at: now, firedAt: nil)
        }
        dose.state = state.rawValue
        dose.confirmedAt = state == .taken || state == .skipped ? confirmedAt : nil
        dose.answerSource = state == .taken || state == .skipped ? source.rawValue : nil
        if state == .snoozed, let snoozeUntil {
            dose.nagCount = 0
            try DeliveryRecord(Self.doseTrigger(id, dose.scheduledAt, fireAt: snoozeUntil, source: .snooze)).insert(
                db, onConflict: .ignore)
        }
        try dose.update(db)
        let lowStock = state == .taken ? try useStock(db, dose, now: now) : nil
        return DoseAnswer(dose: dose.dose, changed: true, lowStock: lowStock, shownKey: dose.shownKey)
    }

    /// A dose taken uses up its units; answers the medication when its stock just reached the
    /// low-stock threshold (the warning is queued in the ledger then).
    private func useStock(_ db: Database, _ dose: DoseRecord, now: Date) throws -> Medication? {
        guard var medication = try MedicationRecord.fetchOne(db, key: dose.medicationId), let stock = medication.stock
        else { return nil }
        var lowStock: Medication?
        medication.stock = max(0, stock - medication.medication.unitsPerDose)
        if let threshold = medication.lowStock, medication.stock! <= threshold, !medication.lowStockWarned {
            medication.lowStockWarned = true
            lowStock = medication.medication
            // Through the ledger, so the warning waits for a notification server instead of being lost.
            try DeliveryRecord(Self.doseTrigger(dose.id!, dose.scheduledAt, fireAt: now, source: .lowStock)).insert(
                db, onConflict: .ignore)
        }
        try medication.update(db)
        return lowStock
    }

    /// Gives up on a dose nobody answered.
    public func markDoseMissed(id: Int64) throws -> Bool {
        try writer.write { db in
            try db.execute(
                sql: "UPDATE dose SET state = 'missed' WHERE id = ? AND state IN ('pending', 'fired', 'snoozed')",
                arguments: [id])
            let changed = db.changesCount > 0
            try db.execute(
                sql: "DELETE FROM delivery WHERE itemKind = 'medication' AND itemID = ? AND state = 'pending'",
                arguments: [id])
            return changed
        }
    }

    static func dropFutureDoses(_ db: Database, medicationID: Int64, after now: Date) throws {
        try db.execute(
            sql: """
                DELETE FROM delivery WHERE itemKind = 'medication' AND state = 'pending'
                  AND itemID IN (SELECT id FROM dose WHERE medicationId = ? AND scheduledAt > ? AND state = 'pending')
                """, arguments: [medicationID, now])
        try db.execute(
            sql: "DELETE FROM dose WHERE medicationId = ? AND scheduledAt > ? AND state = 'pending'",
            arguments: [medicationID, now])
    }

    private func renumber(_ db: Database) throws {
        for (offset, var record) in try MedicationRecord.order(Column("position"), Column("id")).fetchAll(db)
            .enumerated()
        where record.position != offset + 1 {
            record.position = offset + 1
            try record.update(db)
        }
    }
}

/// Where a dose was answered: on the desktop (a notification button, `beautyctl dose`) or on the
/// phone (its task ticked or cancelled, docs/PHONE_TASKS.md).
public enum DoseAnswerSource: String, Codable, Sendable, CaseIterable {
    case desktop, phone
}

/// The outcome of `answerDose`.
public struct DoseAnswer: Sendable {
    public var dose: Dose
    /// False when the dose had already been answered (a second click changes nothing).
    public var changed: Bool
    /// Set when this intake brought the stock down to the warning threshold for the first time.
    public var lowStock: Medication?
    /// The delivery key of the notification that was on screen for the dose (settled with the answer, to be closed).
    public var shownKey: String?
}

extension Dose.State {
    /// Not yet answered by the user.
    public var isOpen: Bool { self == .pending || self == .fired || self == .snoozed }

    /// Whether a dose in this state can still be given `answer`: an open one any answer, a missed one
    /// taken or skipped late, a skipped one taken after all.
    public func accepts(_ answer: Dose.State) -> Bool {
        switch self {
        case .pending, .fired, .snoozed: true
        case .missed: answer == .taken || answer == .skipped
        case .skipped: answer == .taken
        case .taken: false
        }
    }
}
