import BeautyCore
import BeautyStore
import Foundation
import Testing

/// The dose side of the ledger, with a fixed clock: which dose rows and deliveries planning creates,
/// re-notification (nagging) and giving up, answers, stock, the user's order, adherence and history.
/// (The daemon's `nag_interval` is at least a minute, too slow for the end-to-end tests: the nagging
/// bookkeeping is checked here, the scheduler only calls it.)
@Suite("Store: doses, nagging, stock, order, adherence, history")
struct DoseLedgerTests: WarsawJanuary2027 {
    func twiceDaily(
        _ name: String = "Iron", dose: String = "2 tablets", startDate: LocalDate? = nil,
        stock: Double? = nil, lowStock: Double? = nil
    ) -> Medication {
        Medication(
            name: name, dose: dose, startDate: startDate,
            schedule: MedicationSchedule(
                kind: .times, times: [ClockTime(hour: 8, minute: 0), ClockTime(hour: 20, minute: 0)]),
            stock: stock, lowStock: lowStock)
    }

    /// A fresh database with `medication` added at `now` and its doses planned.
    func planned(_ medication: Medication) throws -> (AppDatabase, Medication) {
        let db = try AppDatabase.inMemory()
        let added = try db.medications.add(medication, now: now)
        try db.medications.planDoses(now: now, zone: zone)
        return (db, added)
    }

    func doses(_ db: AppDatabase, of medication: Medication) throws -> [Dose] {
        try db.medications.doses(from: local(1, 0), to: local(31, 0), medicationID: medication.id!)
    }

    func pending(_ db: AppDatabase, dose: Dose) throws -> [Delivery] {
        try db.deliveries.of(itemKind: .medication, itemID: dose.id!).filter { $0.state == .pending }
    }

    /// The delivery planned for a dose, fired as the scheduler does it (markFired, then doseShown).
    @discardableResult
    func show(_ db: AppDatabase, _ trigger: Trigger, at instant: Date, nagInterval: TimeInterval = 600) throws
        -> Trigger
    {
        #expect(try db.deliveries.markFired([trigger.key], at: instant) == 1)
        try db.medications.doseShown(trigger, at: instant, nagInterval: nagInterval)
        return trigger
    }

    // MARK: - Planning

    @Test func planningCreatesRowsForTheNext48HoursAndDeliveriesOnlyForFutureDoses() throws {
        let db = try AppDatabase.inMemory()
        let iron = try db.medications.add(twiceDaily(), now: now)
        // No start date: it starts when added (10:30), so this morning's 08:00 never existed.
        #expect(try db.medications.planDoses(now: now, zone: zone) == 4)
        let planned = try doses(db, of: iron)
        #expect(planned.map(\.scheduledAt) == [local(15, 20), local(16, 8), local(16, 20), local(17, 8)])
        #expect(planned.allSatisfy { $0.state == .pending && $0.nagCount == 0 && $0.confirmedAt == nil })
        for dose in planned {
            let deliveries = try db.deliveries.of(itemKind: .medication, itemID: dose.id!)
            #expect(deliveries.count == 1)
            #expect(deliveries.first?.state == .pending)
            #expect(deliveries.first?.trigger.fireAt == dose.scheduledAt)
            #expect(deliveries.first?.trigger.occurrence == dose.scheduledAt)
            #expect(deliveries.first?.trigger.source == .plan)
            #expect(deliveries.first?.trigger.key.hasPrefix("medication/\(dose.id!)/") == true)
        }
        #expect(try db.deliveries.next(after: now)?.fireAt == local(15, 20))

        // Planning again changes nothing; a day later the rows are extended, without repeats.
        #expect(try db.medications.planDoses(now: now, zone: zone) == 0)
        #expect(try db.medications.nextPlanning() == now.addingTimeInterval(24 * 3600))
        #expect(try db.medications.planDoses(now: local(16, 11, 30), zone: zone) == 2)
        #expect(try doses(db, of: iron).map(\.scheduledAt).suffix(3) == [local(17, 8), local(17, 20), local(18, 8)])
    }

    @Test func withAStartDateTodayEarlierDosesAreRecordedWithoutADelivery() throws {
        let db = try AppDatabase.inMemory()
        let iron = try db.medications.add(twiceDaily(startDate: LocalDate(year: 2027, month: 1, day: 15)), now: now)
        #expect(try db.medications.planDoses(now: now, zone: zone) == 5)
        let planned = try doses(db, of: iron)
        #expect(planned.first?.scheduledAt == local(15, 8))
        #expect(
            try db.deliveries.of(itemKind: .medication, itemID: planned[0].id!).isEmpty, "nothing fires late for it")
        #expect(try planned.dropFirst().allSatisfy { try pending(db, dose: $0).count == 1 })
        // It should have been taken: history calls an unanswered past dose missed.
        let history = try db.history.entries(from: local(15, 0), to: local(16, 0), now: now)
        #expect(history.map(\.state) == ["missed"])
        #expect(history.first?.id == planned[0].id)
    }

    @Test func anEditReplansFutureDosesAndKeepsAnsweredOnes() throws {
        let (db, added) = try planned(twiceDaily())
        var iron = added
        let first = try doses(db, of: iron)[0]
        _ = try db.medications.answerDose(id: first.id!, .taken, confirmedAt: now, now: now)
        iron.schedule = MedicationSchedule(kind: .times, times: [ClockTime(hour: 9, minute: 0)])
        _ = try db.medications.update(iron, now: now)
        try db.medications.planDoses(now: now, zone: zone)
        let after = try doses(db, of: iron)
        #expect(after.map(\.scheduledAt) == [local(15, 20), local(16, 9), local(17, 9)])
        #expect(after.map(\.state) == [.taken, .pending, .pending])
        #expect(
            try db.deliveries.due(at: local(20, 0)).map(\.fireAt) == [local(16, 9), local(17, 9)],
            "the old schedule's pending deliveries must be gone")
    }

    // MARK: - Shown, nagged, missed

    @Test func aShownDoseIsNaggedInPlaceUntilAnswered() throws {
        let (db, iron) = try planned(twiceDaily())
        let dose = try doses(db, of: iron)[0]
        let due = dose.scheduledAt
        let planned = try #require(try db.deliveries.due(at: due).first)
        #expect(planned.itemID == dose.id && planned.source == .plan)

        try show(db, planned, at: due.addingTimeInterval(0.01))
        var stored = try db.medications.dose(id: dose.id!)
        #expect(stored.state == .fired && stored.nagCount == 0)
        #expect(try db.medications.shownKey(ofDose: dose.id!) == planned.key)
        // One re-notification is pending, a nag interval after it was shown, for the same dose and occurrence.
        let nag = try #require(try pending(db, dose: dose).first)
        #expect(try pending(db, dose: dose).count == 1)
        #expect(nag.trigger.source == .nag)
        #expect(nag.trigger.fireAt == due.addingTimeInterval(600.01))
        #expect(nag.trigger.occurrence == due)
        #expect(nag.trigger.key.hasPrefix("medication/\(dose.id!)/") && nag.trigger.key.hasSuffix("/nag"))

        // The nag is shown: counted, it becomes the shown notification, and the next one is scheduled.
        try show(db, nag.trigger, at: nag.trigger.fireAt)
        stored = try db.medications.dose(id: dose.id!)
        #expect(stored.state == .fired && stored.nagCount == 1)
        #expect(try db.medications.shownKey(ofDose: dose.id!) == nag.trigger.key)
        let next = try #require(try pending(db, dose: dose).first)
        #expect(next.trigger.fireAt == nag.trigger.fireAt.addingTimeInterval(600))

        // Given up (the scheduler does it after nag_count re-notifications): missed, nothing pending.
        #expect(try db.medications.markDoseMissed(id: dose.id!))
        #expect(try db.medications.dose(id: dose.id!).state == .missed)
        #expect(try pending(db, dose: dose).isEmpty)
        #expect(try db.medications.markDoseMissed(id: dose.id!) == false)
        // A missed dose cannot be snoozed, but it can still be taken late, at the time given.
        #expect(
            try !db.medications.answerDose(id: dose.id!, .snoozed, confirmedAt: now, now: now, snoozeUntil: now).changed
        )
        let late = try db.medications.answerDose(
            id: dose.id!, .taken, confirmedAt: now.addingTimeInterval(-60), now: now)
        #expect(late.changed && late.dose.state == .taken && late.dose.confirmedAt == now.addingTimeInterval(-60))
        #expect(try pending(db, dose: dose).isEmpty, "a late answer schedules nothing")
    }

    @Test func anAnswerDropsPendingNagsAndCountsOnce() throws {
        let (db, iron) = try planned(twiceDaily(stock: 10))
        let dose = try doses(db, of: iron)[0]
        let shownAt = dose.scheduledAt.addingTimeInterval(1)
        try show(db, try #require(try db.deliveries.due(at: dose.scheduledAt).first), at: shownAt)
        #expect(try pending(db, dose: dose).count == 1)

        let takenAt = shownAt.addingTimeInterval(60)
        let answer = try db.medications.answerDose(
            id: dose.id!, .taken, confirmedAt: takenAt.addingTimeInterval(-30), now: takenAt)
        #expect(answer.changed && answer.dose.state == .taken)
        #expect(answer.dose.confirmedAt == takenAt.addingTimeInterval(-30), "confirmedAt is when it was taken (`--at`)")
        #expect(try pending(db, dose: dose).isEmpty, "the pending re-notification must be dropped")
        #expect(try db.medications.find(id: iron.id!).stock == 8)

        let second = try db.medications.answerDose(id: dose.id!, .skipped, confirmedAt: takenAt, now: takenAt)
        #expect(!second.changed && second.dose.state == .taken)
        #expect(try db.medications.find(id: iron.id!).stock == 8, "a second answer must not use stock again")
        #expect(try db.medications.markDoseMissed(id: dose.id!) == false)
        #expect(try db.medications.dose(id: dose.id!).state == .taken)
    }

    @Test func anAnswerSettlesTheNotificationOnScreenInTheSameWrite() throws {
        let (db, iron) = try planned(twiceDaily())
        let dose = try doses(db, of: iron)[0]
        let shown = try show(db, try #require(try db.deliveries.due(at: dose.scheduledAt).first), at: dose.scheduledAt)
        let answer = try db.medications.answerDose(
            id: dose.id!, .skipped, confirmedAt: dose.scheduledAt.addingTimeInterval(60),
            now: dose.scheduledAt.addingTimeInterval(60))
        #expect(answer.changed && answer.shownKey == shown.key, "the caller closes this notification")
        #expect(try db.deliveries.find(key: shown.key)?.state == .skipped)
        let again = try db.medications.answerDose(id: dose.id!, .skipped, confirmedAt: now, now: now)
        #expect(try !again.changed && again.shownKey == nil && db.deliveries.find(key: shown.key)?.state == .skipped)
        // Taken after all: the dose changes, the delivery keeps what the notification was answered with.
        let taken = try db.medications.answerDose(id: dose.id!, .taken, confirmedAt: now, now: now)
        #expect(
            try taken.changed && taken.dose.state == .taken && db.deliveries.find(key: shown.key)?.state == .skipped)
    }

    @Test func aSnoozeReplacesTheNagsWithOneRepeatAndResetsTheCount() throws {
        let (db, iron) = try planned(twiceDaily())
        let dose = try doses(db, of: iron)[0]
        let due = dose.scheduledAt
        try show(db, try #require(try db.deliveries.due(at: due).first), at: due)
        try show(db, try #require(try pending(db, dose: dose).first).trigger, at: due.addingTimeInterval(600))
        #expect(try db.medications.dose(id: dose.id!).nagCount == 1)

        let until = due.addingTimeInterval(700 + 300)
        let answer = try db.medications.answerDose(
            id: dose.id!, .snoozed, confirmedAt: due.addingTimeInterval(700),
            now: due.addingTimeInterval(700), snoozeUntil: until)
        #expect(answer.changed && answer.dose.state == .snoozed && answer.dose.nagCount == 0)
        #expect(answer.dose.confirmedAt == nil, "a snooze is not a confirmation")
        let repeats = try pending(db, dose: dose)
        #expect(repeats.map(\.trigger.source) == [.snooze])
        #expect(repeats.map(\.trigger.fireAt) == [until])
        #expect(repeats.first?.trigger.key.hasSuffix("/snooze") == true)
        // Still open: it can be answered.
        #expect(try db.medications.answerDose(id: dose.id!, .skipped, confirmedAt: until, now: until).changed)
        #expect(try pending(db, dose: dose).isEmpty)
    }

    // MARK: - Stock

    @Test func takenUsesTheDoseNumberAndWarnsOnceUntilARefill() throws {
        let (db, iron) = try planned(twiceDaily(stock: 5, lowStock: 2))
        let d = try doses(db, of: iron)
        #expect(d.count == 4)
        func take(_ dose: Dose) throws -> DoseAnswer {
            try db.medications.answerDose(id: dose.id!, .taken, confirmedAt: now, now: now)
        }

        #expect(try take(d[0]).lowStock == nil)
        #expect(try db.medications.find(id: iron.id!).stock == 3)
        let low = try take(d[1])
        #expect(low.lowStock?.stock == 1, "5 - 2 - 2 reaches the threshold 2: warn")
        #expect(low.lowStock?.name == "Iron")
        let warning = try db.deliveries.of(itemKind: .medication, itemID: d[1].id!).filter {
            $0.trigger.source == .lowStock
        }
        #expect(warning.map(\.state) == [.pending], "the warning goes through the ledger")
        #expect(warning.first?.trigger.fireAt == now)
        #expect(try take(d[2]).lowStock == nil, "warned once")
        #expect(try db.medications.find(id: iron.id!).stock == 0, "never below zero")

        // A refill above the threshold re-arms the warning; skipping uses nothing.
        #expect(try db.medications.refill(id: iron.id!, count: 3, now: now).stock == 3)
        #expect(try db.medications.answerDose(id: d[3].id!, .skipped, confirmedAt: now, now: now).lowStock == nil)
        #expect(try db.medications.find(id: iron.id!).stock == 3)
        try db.medications.planDoses(now: local(16, 11, 30), zone: zone)
        let later = try doses(db, of: iron).filter { $0.state == .pending }
        #expect(try take(try #require(later.first)).lowStock?.stock == 1, "warned again after the refill")
    }

    @Test func aDecimalDoseAndAnUntrackedStock() throws {
        let db = try AppDatabase.inMemory()
        let syrup = try db.medications.add(twiceDaily("Syrup", dose: "2,5 ml", stock: 100), now: now)
        let plain = try db.medications.add(twiceDaily("Plain", dose: "1 tablet"), now: now)
        try db.medications.planDoses(now: now, zone: zone)
        _ = try db.medications.answerDose(id: try doses(db, of: syrup)[0].id!, .taken, confirmedAt: now, now: now)
        #expect(try db.medications.find(id: syrup.id!).stock == 97.5)
        let answer = try db.medications.answerDose(
            id: try doses(db, of: plain)[0].id!, .taken, confirmedAt: now, now: now)
        #expect(answer.changed && answer.lowStock == nil)
        #expect(try db.medications.find(id: plain.id!).stock == nil)
        #expect(try db.medications.refill(id: plain.id!, count: 20, now: now).stock == 20, "a refill starts tracking")
    }

    // MARK: - Order

    @Test func moveAndRemoveKeepPositionsOneToN() throws {
        let db = try AppDatabase.inMemory()
        let ids = try ["A", "B", "C", "D"].map { try db.medications.add(Medication(name: $0), now: now).id! }
        #expect(try db.medications.all().map(\.position) == [1, 2, 3, 4])

        let moved = try db.medications.move(id: ids[3], to: 1)
        #expect(moved.map(\.name) == ["D", "A", "B", "C"])
        #expect(moved.map(\.position) == [1, 2, 3, 4], "the answer carries the new positions")
        #expect(try db.medications.all().map(\.name) == ["D", "A", "B", "C"])
        #expect(try db.medications.all().map(\.position) == [1, 2, 3, 4])
        #expect(try db.medications.move(id: ids[3], to: 99).map(\.name) == ["A", "B", "C", "D"], "past the end: last")
        #expect(
            try db.medications.move(id: ids[2], to: 0).map(\.name) == ["C", "A", "B", "D"], "before the start: first")

        try db.medications.delete(id: ids[0])
        #expect(try db.medications.all().map(\.name) == ["C", "B", "D"])
        #expect(try db.medications.all().map(\.position) == [1, 2, 3])
        #expect(try db.medications.add(Medication(name: "E"), now: now).position == 4)
        #expect(throws: StoreError.notFound(kind: "medication", id: 42)) { try db.medications.move(id: 42, to: 1) }
        #expect(throws: StoreError.notFound(kind: "medication", id: ids[0])) { try db.medications.delete(id: ids[0]) }
    }

    @Test func removingAMedicationDropsItsDosesAndPendingDeliveries() throws {
        let (db, iron) = try planned(twiceDaily())
        let planned = try doses(db, of: iron)
        try db.medications.delete(id: iron.id!)
        #expect(try db.deliveries.due(at: local(20, 0)).isEmpty)
        #expect(throws: StoreError.notFound(kind: "dose", id: planned[0].id!)) {
            try db.medications.dose(id: planned[0].id!)
        }
        #expect(try db.history.adherence(now: now).isEmpty)
    }

    // MARK: - Adherence and history

    /// A daily 08:00 medication from 1 January, planned day by day to the 20th; taken on odd days,
    /// skipped on the 2nd, everything else left unanswered.
    func aMonthOfDoses(_ db: AppDatabase) throws -> Medication {
        let daily = try db.medications.add(
            Medication(
                name: "Vitamin D", dose: "1 capsule", startDate: LocalDate(year: 2027, month: 1, day: 1),
                schedule: MedicationSchedule(kind: .times, times: [ClockTime(hour: 8, minute: 0)])),
            now: local(1, 7))
        for day in 1...20 {
            try db.medications.planDoses(now: local(day, 7), zone: zone)
            let dose = try #require(try db.medications.doses(from: local(day, 0), to: local(day + 1, 0)).first)
            if day % 2 == 1 {
                _ = try db.medications.answerDose(
                    id: dose.id!, .taken, confirmedAt: local(day, 8, 5), now: local(day, 8, 5))
            } else if day == 2 {
                _ = try db.medications.answerDose(
                    id: dose.id!, .skipped, confirmedAt: local(day, 9), now: local(day, 9))
            }
        }
        return daily
    }

    @Test func adherenceIsTakenOutOfScheduledInTheLast7And30Days() throws {
        let db = try AppDatabase.inMemory()
        let daily = try aMonthOfDoses(db)
        let other = try db.medications.add(Medication(name: "As needed", schedule: .asNeeded), now: local(1, 7))
        try db.medications.planDoses(now: local(20, 12), zone: zone)
        #expect(try db.medications.doses(from: local(21, 0), to: local(23, 0)).count == 2)
        // On the 20th at noon: the last 7 days hold the 14th to the 20th (taken: 15, 17, 19);
        // the last 30 days all 20 (taken: the 10 odd days). Rows beyond now (21st, 22nd) do not count.
        let rows = try db.history.adherence(now: local(20, 12))
        #expect(rows.map(\.medicationID) == [daily.id!, other.id!])
        #expect(rows.map(\.name) == ["Vitamin D", "As needed"])
        func counts(_ row: AdherenceRow) -> [Int] { [row.taken7, row.scheduled7, row.taken30, row.scheduled30] }
        #expect(counts(rows[0]) == [3, 7, 10, 20])
        #expect(counts(rows[1]) == [0, 0, 0, 0])
    }

    @Test func historyListsDosesAndRemindersUpToNowOldestFirst() throws {
        let db = try AppDatabase.inMemory()
        _ = try aMonthOfDoses(db)
        // A reminder shown on the 19th at 08:00 too (same instant: ordered by title).
        let facial = try db.appointments.add(
            Appointment(title: "Facial", start: local(19, 12), reminders: [.at(local(19, 8))]), now: local(18, 0))
        let reminder = try #require(try db.deliveries.due(at: local(19, 8)).first { $0.itemKind == .appointment })
        try db.deliveries.markFired([reminder.key], at: local(19, 8))

        let rows = try db.history.entries(from: local(18, 0), to: local(30, 0), now: local(20, 12))
        #expect(rows.map(\.kind) == [.dose, .reminder, .dose, .dose])
        #expect(rows.map(\.title) == ["Vitamin D", "Facial", "Vitamin D", "Vitamin D"])
        #expect(rows.map(\.scheduledAt) == [local(18, 8), local(19, 8), local(19, 8), local(20, 8)])
        // 18th unanswered (a past pending dose is missed), 19th taken, 20th unanswered.
        #expect(rows.map(\.state) == ["missed", "fired", "taken", "missed"])
        #expect(rows.map(\.confirmedAt) == [nil, local(19, 8), local(19, 8, 5), nil])
        #expect(rows[0].detail == "1 capsule" && rows[1].detail == nil)
        #expect(rows[1].id == facial.id)
        // Both ends of the range are included: a dose exactly at `from` counts.
        #expect(
            try db.history.entries(from: local(2, 8), to: local(2, 8, 1), now: local(20, 12)).map(\.state) == [
                "skipped"
            ])
    }
}
