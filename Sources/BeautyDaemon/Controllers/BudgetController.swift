import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// budget.*: income and expenses, listed, edited, summed.
struct BudgetController: RequestController {
    let budget: BudgetStore
    let settings: SettingsBox
    let logger: Logger
    let clock: @Sendable () -> Date

    func addRoutes(to router: inout RequestRouter) {
        router.register(BudgetRPC.add, add)
        router.register(BudgetRPC.list, list)
        router.register(BudgetRPC.show, show)
        router.register(BudgetRPC.edit, edit)
        router.register(BudgetRPC.remove, remove)
        router.register(BudgetRPC.balance, balance)
    }

    func add(_ p: BudgetAddParams) throws -> BudgetEntry {
        let name = try BudgetRules.name(p.name)
        let size = try BudgetRules.amount(
            cents: p.amount.cents, currency: p.amount.currency ?? settings.config.currency)
        let now = clock()
        let row = try budget.add(
            BudgetRow(
                name: name, amountCents: p.income == true ? size.cents : -size.cents, currency: size.currency,
                at: p.at ?? now),
            now: now)
        logger.info("budget entry added: \(row.name)", metadata: ["item_id": "\(row.id ?? 0)", "item_kind": "budget"])
        return Self.wire(row)
    }

    func list(_ p: BudgetRangeParams) throws -> [BudgetEntry] {
        try Validation.range(from: p.from, to: p.to, .halfOpen)
        return try ListSort.sorted(
            try budget.entries(from: p.from, to: p.to).map(Self.wire), sort: p.sort,
            reverse: p.reverse, supported: [.title, .time, .price]
        ) { e, key in
            switch key {
            case .title: .text(e.name)
            // What it cost: an expense by its size, income below every expense (the dearest first with --reverse).
            case .price: .money(Money(cents: -e.amount.cents, currency: e.amount.currency))
            case .time, .category: .time(e.at)
            }
        }
    }

    func show(_ p: IDParams) throws -> BudgetEntry {
        Self.wire(try budget.entry(id: p.id))
    }

    func edit(_ p: BudgetEditParams) throws -> BudgetEntry {
        Self.wire(
            try budget.update(id: p.id, now: clock()) { row in
                if let name = p.name { row.name = try BudgetRules.name(name) }
                // A new size keeps the entry's direction and currency unless they are given too.
                let size = try BudgetRules.amount(
                    cents: p.amount?.cents ?? abs(row.amountCents), currency: p.amount?.currency ?? row.currency)
                let income = p.income ?? (row.amountCents > 0)
                row.amountCents = income ? size.cents : -size.cents
                row.currency = size.currency
                if let at = p.at { row.at = at }
            })
    }

    func remove(_ p: IDParams) throws -> BudgetEntry {
        let gone = try budget.delete(id: p.id)
        logger.info("budget entry deleted: \(gone.name)", metadata: ["item_id": "\(p.id)", "item_kind": "budget"])
        return Self.wire(gone)
    }

    func balance(_ p: BudgetRangeParams) throws -> BudgetBalance {
        try Validation.range(from: p.from, to: p.to, .halfOpen)
        let totals = try budget.totals(from: p.from, to: p.to).map {
            BudgetTotal(
                currency: $0.currency, incomeCents: $0.incomeCents, expenseCents: $0.expenseCents,
                balanceCents: $0.balanceCents, entries: $0.count)
        }
        return BudgetBalance(from: p.from, to: p.to, totals: totals)
    }

    static func wire(_ row: BudgetRow) -> BudgetEntry {
        BudgetEntry(
            id: row.id ?? 0, name: row.name, amount: Money(cents: row.amountCents, currency: row.currency), at: row.at,
            appointmentID: row.appointmentID, createdAt: row.createdAt, updatedAt: row.updatedAt)
    }
}
