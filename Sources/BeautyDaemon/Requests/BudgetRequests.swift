import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation

/// budget.* and categories.
extension RequestHandler {
    static func budgetRoutes(_ router: inout RequestRouter) {
        router.register(BudgetRPC.add) { try $0.addBudgetEntry($1) }
        router.register(BudgetRPC.list) { requests, p in
            try Validation.range(from: p.from, to: p.to, .halfOpen)
            return try ListSort.sorted(
                try requests.store.budgetEntries(from: p.from, to: p.to).map(wire), sort: p.sort,
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
        router.register(BudgetRPC.edit) { try $0.editBudgetEntry($1) }
        router.register(BudgetRPC.remove) { requests, p in
            let gone = try requests.store.deleteBudgetEntry(id: p.id)
            requests.logger.info(
                "budget entry deleted: \(gone.name)", metadata: ["item_id": "\(p.id)", "item_kind": "budget"])
            return wire(gone)
        }
        router.register(BudgetRPC.balance) { requests, p in
            try Validation.range(from: p.from, to: p.to, .halfOpen)
            let totals = try requests.store.budgetTotals(from: p.from, to: p.to).map {
                BudgetTotal(
                    currency: $0.currency, incomeCents: $0.incomeCents, expenseCents: $0.expenseCents,
                    balanceCents: $0.balanceCents, entries: $0.count)
            }
            return BudgetBalance(from: p.from, to: p.to, totals: totals)
        }
        router.register(BudgetRPC.categories) { requests, _ in try requests.categoryTree() }
    }

    func addBudgetEntry(_ p: BudgetAddParams) throws -> BudgetEntry {
        let name = try BudgetRules.name(p.name)
        let size = try BudgetRules.amount(
            cents: p.amount.cents, currency: p.amount.currency ?? settings.config.currency)
        let now = clock()
        let row = try store.addBudgetEntry(
            BudgetRow(
                name: name, amountCents: p.income == true ? size.cents : -size.cents, currency: size.currency,
                at: p.at ?? now),
            now: now)
        logger.info("budget entry added: \(row.name)", metadata: ["item_id": "\(row.id ?? 0)", "item_kind": "budget"])
        return Self.wire(row)
    }

    func editBudgetEntry(_ p: BudgetEditParams) throws -> BudgetEntry {
        Self.wire(
            try store.updateBudgetEntry(id: p.id, now: clock()) { row in
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

    /// The two-level category tree the first migration fills, parents and their children by name.
    func categoryTree() throws -> [CategoryNode] {
        let rows = try store.categories()
        let children = Dictionary(grouping: rows.filter { $0.parent != nil }, by: { $0.parent! })
        return rows.filter { $0.parent == nil }.map { parent in
            CategoryNode(
                name: parent.name, title: parent.title,
                children: (children[parent.name] ?? []).map { CategoryNode(name: $0.name, title: $0.title) })
        }
    }

    static func wire(_ row: BudgetRow) -> BudgetEntry {
        BudgetEntry(
            id: row.id ?? 0, name: row.name, amount: Money(cents: row.amountCents, currency: row.currency), at: row.at,
            appointmentID: row.appointmentID, createdAt: row.createdAt, updatedAt: row.updatedAt)
    }
}
