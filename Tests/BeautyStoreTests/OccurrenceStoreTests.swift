import BeautyCore
import BeautyStore
import Foundation
import Testing

/// One occurrence of a series changed on its own, and a series split in two, with a fixed clock on
/// an in-memory database: the rows, the series' `changed` list and the deliveries move together.
@Suite("Store: changed occurrences and split series")
struct OccurrenceStoreTests {
    let warsaw = TimeZone(identifier: "Europe/Warsaw")!

    /// A wall-clock time in January 2027 in Warsaw (UTC+1 all month).
    func local(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        LocalTime.instant(year: 2027, month: 1, day: day, hour: hour, minute: minute, in: warsaw)!
    }

    /// Wednesday 6 January, noon: the series' next visits are Friday 8 and 15 January.
    var now: Date { local(6, 12) }

    /// Every Friday at 15:00 from 1 January 2027, reminded an hour before.
    func fridays(_ rule: String = "FREQ=WEEKLY", uid: String? = nil, price: Money? = nil) -> Appointment {
        Appointment(
            title: "Manicure", start: local(1, 15), durationSeconds: 3600, price: price, reminders: [.before(3600)],
            recurrence: AppointmentRecurrence(rule: rule), uid: uid)
    }

    func pending(_ db: AppDatabase, _ id: Int64) throws -> [Delivery] {
        try db.deliveries.of(itemKind: .appointment, itemID: id).filter { $0.state == .pending }
    }

    /// What an agenda of January shows: (start, title, status) of every occurrence and single row.
    func january(_ db: AppDatabase) throws -> [(Date, String, Appointment.Status)] {
        try db.appointments.forRange(from: local(1, 0), to: local(31, 0)).flatMap { a in
            AppointmentOccurrences.starts(of: a, from: local(1, 0), to: local(31, 0), zone: warsaw).map {
                ($0, a.title, a.status)
            }
        }.sorted { $0.0 < $1.0 }
    }

    @Test func movingOneOccurrenceMakesItsRowAndTheSeriesSkipsIt() throws {
        let db = try AppDatabase.inMemory()
        let series = try db.appointments.add(fridays(), now: now, zone: warsaw)
        #expect(try pending(db, series.id!).map(\.trigger.occurrence) == [local(8, 15), local(15, 15)])

        let moved = try db.occurrences.change(seriesID: series.id!, occurrence: local(8, 15), now: now, zone: warsaw) {
            $0.start = local(8, 16)
        }
        #expect(moved.seriesID == series.id && moved.recurrenceID == local(8, 15) && moved.recurrence == nil)
        #expect(moved.title == "Manicure" && moved.reminders == [.before(3600)])
        #expect(try db.appointments.get(id: series.id!).recurrence?.changed == [local(8, 15)])
        #expect(
            try pending(db, series.id!).map(\.trigger.occurrence) == [local(15, 15)],
            "the series still plans the moved one")
        #expect(try pending(db, moved.id!).map(\.trigger.fireAt) == [local(8, 15)], "the reminder follows the new time")
        let agenda = try january(db)
        #expect(agenda.map(\.0) == [local(1, 15), local(8, 16), local(15, 15), local(22, 15), local(29, 15)])

        // Acting on it again edits the same row.
        let again = try db.occurrences.change(seriesID: series.id!, occurrence: local(8, 15), now: now, zone: warsaw) {
            $0.title = "Pedicure"
        }
        #expect(again.id == moved.id && again.start == local(8, 16) && again.title == "Pedicure")
        #expect(try db.appointments.count() == 2)
        #expect(try db.occurrences.changed(ofSeries: series.id!).map(\.id) == [moved.id])
    }

    @Test func movingTheWholeSeriesMovesItsChangedAndExcludedOccurrencesAlong() throws {
        let db = try AppDatabase.inMemory()
        var weekly = fridays()
        weekly.recurrence?.exdates = [local(22, 15)]
        let series = try db.appointments.add(weekly, now: now, zone: warsaw)
        _ = try db.occurrences.setStatus(
            seriesID: series.id!, occurrence: local(15, 15), .cancelled, now: now, zone: warsaw)

        // Every visit an hour later: the cancelled one and the excluded one go along, none comes back.
        let moved = try db.appointments.update(id: series.id!, now: now, zone: warsaw) { $0.start = local(1, 16) }
        #expect(moved.recurrence?.changed == [local(15, 16)] && moved.recurrence?.exdates == [local(22, 16)])
        #expect(try db.occurrences.changed(ofSeries: series.id!).map(\.recurrenceID) == [local(15, 16)])
        let agenda = try january(db)
        #expect(agenda.map(\.0) == [local(1, 16), local(8, 16), local(15, 15), local(29, 16)], "\(agenda)")
        #expect(agenda.filter { $0.2 == .cancelled }.map(\.0) == [local(15, 15)])
    }

    @Test func cancellingOneOccurrenceDropsItsRemindersAndTheAgendaMarksIt() throws {
        let db = try AppDatabase.inMemory()
        let series = try db.appointments.add(fridays(), now: now, zone: warsaw)
        let change = try db.occurrences.setStatus(
            seriesID: series.id!, occurrence: local(15, 15), .cancelled, now: now, zone: warsaw)
        #expect(change.appointment.status == .cancelled && change.appointment.recurrenceID == local(15, 15))
        #expect(try pending(db, change.appointment.id!).isEmpty)
        #expect(try pending(db, series.id!).map(\.trigger.occurrence) == [local(8, 15)])
        #expect(try db.appointments.get(id: series.id!).status == .scheduled)
        let fifteenth = try january(db).filter { $0.0 == local(15, 15) }
        #expect(fifteenth.count == 1 && fifteenth.first?.2 == .cancelled, "\(fifteenth)")
    }

    @Test func doneOnOneOccurrenceRecordsItsPriceOnce() throws {
        let db = try AppDatabase.inMemory()
        let series = try db.appointments.add(
            fridays(price: Money(cents: 9000, currency: "PLN")), now: now, zone: warsaw)
        let change = try db.occurrences.setStatus(
            seriesID: series.id!, occurrence: local(1, 15), .done, now: now, zone: warsaw)
        #expect(change.appointment.status == .done && change.expense?.amountCents == -9000)
        #expect(try db.appointments.get(id: series.id!).status == .scheduled, "the series goes on")
        #expect(try db.budget.entries().count == 1)
    }

    @Test func aReminderAlreadyShownIsNotShownAgainUnlessTheOccurrenceMoves() throws {
        let db = try AppDatabase.inMemory()
        let series = try db.appointments.add(fridays(), now: now, zone: warsaw)
        let shown = try #require(try pending(db, series.id!).first { $0.trigger.occurrence == local(8, 15) })
        #expect(try db.deliveries.markFired([shown.trigger.key], at: local(8, 14)) == 1)
        let later = local(8, 14, 30)

        let retitled = try db.occurrences.change(
            seriesID: series.id!, occurrence: local(8, 15), now: later, zone: warsaw
        ) { $0.title = "Nails" }
        #expect(try pending(db, retitled.id!).isEmpty, "the 14:00 reminder was shown already")
        #expect(try db.deliveries.find(key: shown.trigger.key)?.state == .fired, "the ledger keeps it")

        let moved = try db.occurrences.change(seriesID: series.id!, occurrence: local(8, 15), now: later, zone: warsaw)
        {
            $0.start = local(8, 17)
        }
        #expect(try pending(db, moved.id!).map(\.trigger.fireAt) == [local(8, 16)])
    }

    @Test func aReminderDueButNotYetShownPassesToTheOccurrenceThatStaysAndGoesWithOneThatMoves() throws {
        let db = try AppDatabase.inMemory()
        let series = try db.appointments.add(fridays(), now: now, zone: warsaw)
        let waiting = local(8, 14, 30)  // the 14:00 reminder is due; no notification server took it yet
        let row = try db.occurrences.change(seriesID: series.id!, occurrence: local(8, 15), now: waiting, zone: warsaw)
        {
            $0.notes = "Bring the gel"
        }
        #expect(try pending(db, row.id!).map(\.trigger.fireAt) == [local(8, 14)])
        #expect(try !pending(db, series.id!).contains { $0.trigger.occurrence == local(8, 15) })
        #expect(
            try db.deliveries.due(at: waiting).filter { $0.occurrence == local(8, 15) }.count == 1,
            "shown once, not twice"
        )
    }

    @Test func anInstantThatIsNoOccurrenceIsRefusedWithTheNearestAndChangesNothing() throws {
        let db = try AppDatabase.inMemory()
        let series = try db.appointments.add(fridays(), now: now, zone: warsaw)
        let error = #expect(throws: ValidationError.self) {
            try db.occurrences.change(seriesID: series.id!, occurrence: local(9, 15), now: now, zone: warsaw) {
                $0.title = "x"
            }
        }
        #expect(error?.field == "occurrence")
        #expect(
            error?.message.contains(
                "the nearest are 2027-01-01 15:00, 2027-01-08 15:00, 2027-01-15 15:00, 2027-01-22 15:00") == true,
            "\(String(describing: error))")
        #expect(try db.appointments.count() == 1)
        #expect(try db.appointments.get(id: series.id!).recurrence?.changed == [])
    }

    @Test func aFailingChangeLeavesNothing() throws {
        let db = try AppDatabase.inMemory()
        let series = try db.appointments.add(fridays(), now: now, zone: warsaw)
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try db.occurrences.change(seriesID: series.id!, occurrence: local(8, 15), now: now, zone: warsaw) { _ in
                throw Refused()
            }
        }
        #expect(throws: ValidationError.self) {
            try db.occurrences.change(seriesID: series.id!, occurrence: local(8, 15), now: now, zone: warsaw) {
                $0.recurrence = AppointmentRecurrence(rule: "FREQ=DAILY")
            }
        }
        #expect(try db.appointments.count() == 1)
        #expect(try db.appointments.get(id: series.id!).recurrence?.changed == [])
        #expect(try pending(db, series.id!).map(\.trigger.occurrence) == [local(8, 15), local(15, 15)])
    }

    @Test func splittingACountedSeriesSharesTheCountAndTakesLaterChangesAlong() throws {
        let db = try AppDatabase.inMemory()
        let series = try db.appointments.add(
            fridays("FREQ=WEEKLY;COUNT=5", uid: "nails@example.org"), now: now, zone: warsaw)
        let changed = try db.occurrences.change(seriesID: series.id!, occurrence: local(22, 15), now: now, zone: warsaw)
        {
            $0.title = "Gel"
        }
        _ = try db.occurrences.setStatus(
            seriesID: series.id!, occurrence: local(8, 15), .cancelled, now: now, zone: warsaw)

        let tail = try db.occurrences.split(id: series.id!, at: local(15, 15), now: now, zone: warsaw)
        let head = try db.appointments.get(id: series.id!)
        #expect(head.recurrence?.rule == "FREQ=WEEKLY;COUNT=2" && head.recurrence?.changed == [local(8, 15)])
        #expect(
            tail.recurrence?.rule == "FREQ=WEEKLY;COUNT=3" && tail.start == local(15, 15)
                && tail.recurrence?.changed == [local(22, 15)])
        #expect(tail.uid != nil && tail.uid != head.uid)
        let moved = try db.appointments.get(id: changed.id!)
        #expect(moved.seriesID == tail.id && moved.uid == tail.uid && moved.recurrenceID == local(22, 15))
        #expect(try january(db).map(\.0) == [local(1, 15), local(8, 15), local(15, 15), local(22, 15), local(29, 15)])
        #expect(try january(db).map(\.1) == ["Manicure", "Manicure", "Manicure", "Gel", "Manicure"])
    }

    @Test func splittingWithAMoveEndsTheSeriesByUntilAndMovesTheRest() throws {
        let db = try AppDatabase.inMemory()
        let series = try db.appointments.add(fridays(), now: now, zone: warsaw)
        let tail = try db.occurrences.split(id: series.id!, at: local(15, 15), now: now, zone: warsaw) {
            $0.start = local(15, 16)
        }
        #expect(try db.appointments.get(id: series.id!).recurrence?.rule == "FREQ=WEEKLY;UNTIL=20270115T135959Z")
        #expect(try january(db).map(\.0) == [local(1, 15), local(8, 15), local(15, 16), local(22, 16), local(29, 16)])
        #expect(try pending(db, series.id!).map(\.trigger.occurrence) == [local(8, 15)])
        #expect(try pending(db, tail.id!).map(\.trigger.fireAt) == [local(15, 15)])
        #expect(throws: ValidationError.self) {
            try db.occurrences.split(id: series.id!, at: local(1, 15), now: now, zone: warsaw)
        }
    }

    @Test func removingASeriesRemovesItsChangedOccurrencesAndTheirReminders() throws {
        let db = try AppDatabase.inMemory()
        let series = try db.appointments.add(fridays(), now: now, zone: warsaw)
        let row = try db.occurrences.change(seriesID: series.id!, occurrence: local(8, 15), now: now, zone: warsaw) {
            $0.start = local(8, 17)
        }
        try db.appointments.delete(id: series.id!, now: now, zone: warsaw)
        #expect(try db.appointments.count() == 0)
        #expect(try db.deliveries.pendingCount() == 0)
        #expect(try pending(db, row.id!).isEmpty)
    }

    @Test func removingAChangedOccurrenceTakesItOutOfTheSeries() throws {
        let db = try AppDatabase.inMemory()
        let series = try db.appointments.add(fridays(), now: now, zone: warsaw)
        let row = try db.occurrences.change(seriesID: series.id!, occurrence: local(8, 15), now: now, zone: warsaw) {
            $0.start = local(8, 17)
        }
        try db.appointments.delete(id: row.id!, now: now, zone: warsaw)
        let after = try db.appointments.get(id: series.id!)
        #expect(after.recurrence?.changed == [] && after.recurrence?.exdates == [local(8, 15)])
        #expect(try january(db).map(\.0) == [local(1, 15), local(15, 15), local(22, 15), local(29, 15)])
        #expect(try db.deliveries.pendingCount() == 1)

        // A series' occurrence never changed goes the same way.
        _ = try db.occurrences.remove(id: series.id!, occurrence: local(15, 15), now: now, zone: warsaw)
        #expect(try db.appointments.get(id: series.id!).recurrence?.exdates == [local(8, 15), local(15, 15)])
        #expect(try db.deliveries.pendingCount() == 0)
    }

    @Test func importLinksChangedOccurrencesByUIDAndTwiceChangesNothing() throws {
        let db = try AppDatabase.inMemory()
        var master = fridays(uid: "visit@example.org")
        master.reminders = []
        var moved = SeriesOccurrence.detached(from: master, at: local(8, 15))
        moved.start = local(8, 16)
        var cancelled = SeriesOccurrence.detached(from: master, at: local(15, 15))
        cancelled.status = .cancelled
        // Changed occurrences first, as some files have them: the store still links them.
        let counts = try db.appointments.importAll([moved, cancelled, master], now: now, zone: warsaw)
        #expect(counts.inserted == 3)
        let series = try #require(try db.appointments.get(uid: "visit@example.org"))
        #expect(series.recurrence?.changed == [local(8, 15), local(15, 15)])
        #expect(try db.occurrences.changed(ofSeries: series.id!).map(\.start) == [local(8, 16), local(15, 15)])
        #expect(try january(db).map(\.0) == [local(1, 15), local(8, 16), local(15, 15), local(22, 15), local(29, 15)])
        let again = try db.appointments.importAll([moved, cancelled, master], now: now, zone: warsaw)
        #expect(again.inserted == 0 && again.updated == 0 && again.unchanged == 3)
    }

    @Test func aChangedOccurrenceImportedWithoutItsSeriesIsSingleUntilTheSeriesComes() throws {
        let db = try AppDatabase.inMemory()
        let master = fridays(uid: "visit@example.org")
        var moved = SeriesOccurrence.detached(from: master, at: local(8, 15))
        moved.start = local(8, 16)
        _ = try db.appointments.importAll([moved], now: now, zone: warsaw)
        let alone = try db.appointments.list()
        #expect(
            alone.count == 1 && alone[0].seriesID == nil && alone[0].recurrence == nil
                && alone[0].recurrenceID == local(8, 15))
        #expect(try january(db).map(\.0) == [local(8, 16)])

        _ = try db.appointments.importAll([master], now: now, zone: warsaw)
        let series = try #require(try db.appointments.get(uid: "visit@example.org"))
        #expect(try db.appointments.get(id: alone[0].id!).seriesID == series.id)
        #expect(series.recurrence?.changed == [local(8, 15)])
        #expect(try january(db).map(\.0) == [local(1, 15), local(8, 16), local(15, 15), local(22, 15), local(29, 15)])
    }
}
