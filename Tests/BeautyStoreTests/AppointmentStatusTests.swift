import BeautyCore
import BeautyStore
import Foundation
import GRDB
import Testing

@Suite("Store: marking an appointment done is one transaction")
struct AppointmentStatusTests: WarsawJanuary2027 {
    /// A priced manicure on a four-week cycle, two days ago at 10:00.
    func manicure(_ db: AppDatabase) throws -> Appointment {
        try db.appointments.add(
            Appointment(
                title: "Manicure hybrydowy", start: local(13, 10), durationSeconds: 3600,
                price: Money(cents: 12_000, currency: "PLN"), reminders: [.before(3600)],
                repeatAfterDoneSeconds: 28 * 86_400),
            now: local(1, 9), zone: zone)
    }

    @Test func doneBooksTheNextVisitRecordsTheExpenseAndSetsTheStatus() throws {
        let db = try AppDatabase.inMemory()
        let visit = try manicure(db)
        let change = try db.appointments.setStatus(id: visit.id!, .done, now: now, zone: zone)
        #expect(change.appointment.status == .done)
        let followUp = try #require(change.followUp)
        #expect(followUp.status == .scheduled && followUp.start == local(15, 10).addingTimeInterval(28 * 86_400))
        #expect(try db.appointments.get(id: followUp.id!) == followUp)
        #expect(change.expense?.amountCents == -12_000 && change.expense?.at == local(13, 10))
        #expect(try db.budget.entries() == [change.expense!])

        // Done again: nothing more is booked or recorded.
        let again = try db.appointments.setStatus(id: visit.id!, .done, now: now, zone: zone)
        #expect(again.followUp == nil && again.expense == nil)
        #expect(try db.appointments.count() == 2 && db.budget.entries().count == 1)
    }

    @Test func aVisitMarkedDoneAheadBooksItsExpenseAtTheVisit() throws {
        let db = try AppDatabase.inMemory()
        let visit = try manicure(db)
        let change = try db.appointments.setStatus(id: visit.id!, .done, now: local(2, 9), zone: zone)
        #expect(
            change.expense?.at == local(13, 10), "booked when the command ran: \(String(describing: change.expense))")
    }

    @Test func whenTheLastStepFailsNeitherTheFollowUpNorTheExpenseStays() throws {
        let db = try AppDatabase.inMemory()
        let visit = try manicure(db)
        // The status is written last: refusing it fails the change after the follow-up and the expense were written.
        try db.writer.write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER refuseDone BEFORE UPDATE OF status ON appointment WHEN NEW.status = 'done'
                    BEGIN SELECT RAISE(ABORT, 'refused for the test'); END
                    """)
        }
        #expect(throws: DatabaseError.self) {
            try db.appointments.setStatus(id: visit.id!, .done, now: now, zone: zone)
        }
        #expect(try db.appointments.get(id: visit.id!).status == .scheduled)
        #expect(try db.appointments.count() == 1, "no follow-up visit")
        #expect(try db.budget.entries().isEmpty, "no expense")
        #expect(
            try db.deliveries.of(itemKind: .appointment, itemID: visit.id!).map(\.state) == [.pending],
            "its reminder stays")
    }

    @Test func cancellingBooksNothingAndRecordsNothing() throws {
        let db = try AppDatabase.inMemory()
        let visit = try manicure(db)
        let change = try db.appointments.setStatus(id: visit.id!, .cancelled, now: now, zone: zone)
        #expect(change.appointment.status == .cancelled && change.followUp == nil && change.expense == nil)
        #expect(try db.appointments.count() == 1 && db.budget.entries().isEmpty)
        #expect(
            try db.deliveries.of(itemKind: .appointment, itemID: visit.id!).isEmpty, "no reminder for a cancelled visit"
        )
    }

    @Test func anEditAppliesToTheStoredAppointmentNotToAnOlderCopy() throws {
        let db = try AppDatabase.inMemory()
        let visit = try manicure(db)
        _ = try db.appointments.setStatus(id: visit.id!, .done, now: now, zone: zone)
        let edited = try db.appointments.update(id: visit.id!, now: now, zone: zone) {
            $0.notes = "bring the red polish"
        }
        #expect(edited.status == .done && edited.notes == "bring the red polish")
        #expect(try db.appointments.get(id: visit.id!) == edited)
    }
}
