import BeautyCore
import BeautyStore
import Foundation
import GRDB
import Testing

@Suite("Store: budget entries, balances, appointment expenses, categories")
struct BudgetStoreTests {
    let now = Date(timeIntervalSince1970: 1_893_456_000)  // 2030-01-01T00:00:00Z

    func day(_ n: Int, hour: Int = 12) -> Date { now.addingTimeInterval(Double(n) * 86_400 + Double(hour) * 3600) }

    func entry(_ name: String, _ cents: Int64, _ currency: String = "EUR", at: Date) -> BudgetRow {
        BudgetRow(name: name, amountCents: cents, currency: currency, at: at)
    }

    @Test func anEntryRoundTripsAndIsEditedAndDeleted() throws {
        let temp = try TemporaryDatabase()
        defer { withExtendedLifetime(temp) {} }
        let db = try temp.open()
        let saved = try db.budget.add(entry("Szampon", -1299, "PLN", at: day(1)), now: now)
        #expect(saved.id != nil && saved.createdAt == now && saved.updatedAt == now)
        #expect(try db.budget.entry(id: saved.id!) == saved)

        var changed = saved
        changed.name = "Szampon i odżywka"
        changed.amountCents = -2598
        changed.appointmentID = 99  // not the edit's to change
        let later = now.addingTimeInterval(60)
        let updated = try db.budget.update(changed, now: later)
        #expect(updated.name == "Szampon i odżywka" && updated.amountCents == -2598 && updated.currency == "PLN")
        #expect(updated.appointmentID == nil && updated.createdAt == now && updated.updatedAt == later)
        // The file keeps it (a new connection reads the same row).
        #expect(try temp.open().budget.entry(id: saved.id!) == updated)

        #expect(try db.budget.delete(id: saved.id!) == updated)
        #expect(throws: StoreError.notFound(kind: "budget entry", id: saved.id!)) { try db.budget.entry(id: saved.id!) }
        #expect(throws: StoreError.notFound(kind: "budget entry", id: saved.id!)) {
            try db.budget.delete(id: saved.id!)
        }
        #expect(throws: StoreError.notFound(kind: "budget entry", id: 42)) {
            try db.budget.update(BudgetRow(id: 42, name: "x", amountCents: 1, currency: "EUR", at: now), now: now)
        }
        #expect(try db.budget.entries().isEmpty)
    }

    @Test func entriesAreListedByTimeThenIdWithinAHalfOpenRange() throws {
        let db = try AppDatabase.inMemory()
        let late = try db.budget.add(entry("Late", -100, at: day(3)), now: now)
        let sameA = try db.budget.add(entry("Same time A", -200, at: day(2)), now: now)
        let sameB = try db.budget.add(entry("Same time B", 300, at: day(2)), now: now)
        let early = try db.budget.add(entry("Early", 400, at: day(1)), now: now)
        #expect(try db.budget.entries().map(\.id) == [early.id, sameA.id, sameB.id, late.id])
        #expect(try db.budget.entries(from: day(2)).map(\.id) == [sameA.id, sameB.id, late.id])
        #expect(try db.budget.entries(to: day(2)).map(\.id) == [early.id], "'to' is exclusive")
        #expect(try db.budget.entries(from: day(2), to: day(3)).map(\.id) == [sameA.id, sameB.id])
        #expect(try db.budget.entries(from: day(10), to: day(11)).isEmpty)
    }

    @Test func totalsSumIncomeAndExpensesPerCurrencyAndMayGoNegative() throws {
        let db = try AppDatabase.inMemory()
        #expect(try db.budget.totals().isEmpty)
        // The seed's story: an income, an expense, the income deleted — 300 in debt.
        let salary = try db.budget.add(entry("Salary", 120_000, at: day(1)), now: now)
        _ = try db.budget.add(entry("Phone", -30_000, at: day(2)), now: now)
        _ = try db.budget.add(entry("Hairdresser", -4_550, "PLN", at: day(2)), now: now)
        _ = try db.budget.add(entry("Refund", 1_000, "PLN", at: day(5)), now: now)
        #expect(
            try db.budget.totals() == [
                BudgetTotalsRow(currency: "EUR", incomeCents: 120_000, expenseCents: 30_000, count: 2),
                BudgetTotalsRow(currency: "PLN", incomeCents: 1_000, expenseCents: 4_550, count: 2),
            ])
        #expect(try db.budget.totals().map(\.balanceCents) == [90_000, -3_550])
        _ = try db.budget.delete(id: salary.id!)
        let eur = try #require(try db.budget.totals().first)
        #expect(eur.incomeCents == 0 && eur.expenseCents == 30_000 && eur.balanceCents == -30_000)
        // A range: only day 2.
        #expect(
            try db.budget.totals(from: day(2, hour: 0), to: day(3, hour: 0)) == [
                BudgetTotalsRow(currency: "EUR", incomeCents: 0, expenseCents: 30_000, count: 1),
                BudgetTotalsRow(currency: "PLN", incomeCents: 0, expenseCents: 4_550, count: 1),
            ])
        #expect(try db.budget.totals(from: day(6)).isEmpty)
    }

    @Test func aDoneAppointmentsPriceIsRecordedOnceAndOutlivesTheAppointment() throws {
        let db = try AppDatabase.inMemory()
        let visit = try db.appointments.add(
            Appointment(title: "Manicure", start: day(1), price: Money(cents: 12_000, currency: "PLN")), now: now)
        let first = try db.budget.recordAppointmentExpense(
            appointmentID: visit.id!, name: visit.title, price: visit.price!, at: day(1), now: now)
        #expect(
            first?.amountCents == -12_000 && first?.currency == "PLN" && first?.appointmentID == visit.id
                && first?.name == "Manicure")
        let again = try db.budget.recordAppointmentExpense(
            appointmentID: visit.id!, name: visit.title, price: visit.price!, at: day(2), now: now)
        #expect(again == nil, "a second record for the same appointment must insert nothing")
        #expect(try db.budget.entries().count == 1)
        #expect(try db.budget.entry(appointmentID: visit.id!) == first)

        try db.appointments.delete(id: visit.id!)
        let kept = try #require(try db.budget.entries().first)
        #expect(
            kept.id == first?.id && kept.appointmentID == nil && kept.amountCents == -12_000,
            "the expense stays, unlinked")
    }

    @Test func theCategoryTreeIsSeededWithTwoLevels() throws {
        let db = try AppDatabase.inMemory()
        let rows = try db.categories.all()
        #expect(
            rows.map(\.name) == [
                "body", "body/massage", "body/spa", "body/waxing", "face", "face/brows", "face/facial",
                "face/makeup", "hair", "hair/colour", "hair/cut", "hair/styling", "nails", "nails/manicure",
                "nails/pedicure",
            ])
        for row in rows {
            if row.name.contains("/") {
                #expect(row.parent == String(row.name.split(separator: "/")[0]), "\(row)")
            } else {
                #expect(row.parent == nil, "\(row)")
            }
        }
        #expect(rows.first { $0.name == "hair/cut" }?.title == "Haircut")
    }
}
