import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation

/// budget.* and categories.
extension RequestHandler {
    func budget(_ method: Method, id: RPCID?, line: Data) async -> Data? {
        switch method {
        case .budgetAdd: return await call(id, line, addBudgetEntry)
        case .budgetList:
            return await call(id, line) { (p: BudgetRangeParams) in
                try Self.checkRange(p)
                return try store.budgetEntries(from: p.from, to: p.to).map(Self.wire)
            }
        case .budgetEdit: return await call(id, line, editBudgetEntry)
        case .budgetRemove:
            return await call(id, line) { (p: IDParams) in
                let gone = try store.deleteBudgetEntry(id: p.id)
                logger.info("budget entry deleted: \(gone.name)", metadata: ["item_id": "\(p.id)", "item_kind": "budget"])
                return Self.wire(gone)
            }
        case .budgetBalance:
            return await call(id, line) { (p: BudgetRangeParams) in
                try Self.checkRange(p)
                let totals = try store.budgetTotals(from: p.from, to: p.to).map {
                    BudgetTotal(currency: $0.currency, incomeCents: $0.incomeCents, expenseCents: $0.expenseCents,
                                balanceCents: $0.balanceCents, entries: $0.count)
                }
                return BudgetBalance(from: p.from, to: p.to, totals: totals)
            }
        case .categories: return await call(id, line) { (_: NoParams) in try categoryTree() }
        default:
            return await call(id, line) { (_: NoParams) -> String in
                throw ValidationError(field: "method", "\(method.rawValue) is not a budget method")
            }
        }
    }

    func addBudgetEntry(_ p: BudgetAddParams) throws -> BudgetEntry {
        let name = try BudgetRules.name(p.name)
        let size = try BudgetRules.amount(cents: p.amount.cents, currency: p.amount.currency ?? settings.config.currency)
        let now = clock()
        let row = try store.addBudgetEntry(
            BudgetRow(name: name, amountCents: p.income == true ? size.cents : -size.cents, currency: size.currency, at: p.at ?? now),
            now: now)
        logger.info("budget entry added: \(row.name)", metadata: ["item_id": "\(row.id ?? 0)", "item_kind": "budget"])
        return Self.wire(row)
    }

    func editBudgetEntry(_ p: BudgetEditParams) throws -> BudgetEntry {
        Self.wire(try store.updateBudgetEntry(id: p.id, now: clock()) { row in
            if let name = p.name { row.name = try BudgetRules.name(name) }
            // A new size keeps the entry's direction and currency unless they are given too.
            let size = try BudgetRules.amount(cents: p.amount?.cents ?? abs(row.amountCents), currency: p.amount?.currency ?? row.currency)
            let income = p.income ?? (row.amountCents > 0)
            row.amountCents = income ? size.cents : -size.cents
            row.currency = size.currency
            if let at = p.at { row.at = at }
        })
    }

    /// The seeded two-level tree, parents and their children by name.
    func categoryTree() throws -> [CategoryNode] {
        let rows = try store.categories()
        let children = Dictionary(grouping: rows.filter { $0.parent != nil }, by: { $0.parent! })
        return rows.filter { $0.parent == nil }.map { parent in
            CategoryNode(name: parent.name, title: parent.title,
                         children: (children[parent.name] ?? []).map { CategoryNode(name: $0.name, title: $0.title) })
        }
    }

    static func checkRange(_ p: BudgetRangeParams) throws {
        if let from = p.from, let to = p.to, to <= from { throw ValidationError(field: "to", "must be after 'from'") }
    }

    static func wire(_ row: BudgetRow) -> BudgetEntry {
        BudgetEntry(id: row.id ?? 0, name: row.name, amount: Money(cents: row.amountCents, currency: row.currency), at: row.at,
                    appointmentID: row.appointmentID, createdAt: row.createdAt, updatedAt: row.updatedAt)
    }
}
