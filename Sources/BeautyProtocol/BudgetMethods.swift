import BeautyCore
import Foundation

/// An income or expense of the budget: `amount.cents` is positive for income, negative for an expense.
public struct BudgetEntry: Codable, Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var amount: Money
    public var at: Date
    /// Set on the expense recorded when a priced appointment was marked done.
    public var appointmentID: Int64?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int64, name: String, amount: Money, at: Date, appointmentID: Int64? = nil, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.name = name
        self.amount = amount
        self.at = at
        self.appointmentID = appointmentID
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public var isIncome: Bool { amount.cents > 0 }
}

/// `amount.cents` is the size (more than 0); `income` says which way it goes (default: an expense).
public struct BudgetAddParams: Codable, Sendable {
    public var name: String
    /// The currency defaults to the daemon's configured one.
    public var amount: PriceParam
    public var income: Bool?
    /// When it happened; default now.
    public var at: Date?

    public init(name: String, amount: PriceParam, income: Bool? = nil, at: Date? = nil) {
        self.name = name
        self.amount = amount
        self.income = income
        self.at = at
    }
}

/// Fields to change. `amount.cents` is the new size: the entry stays income or expense unless `income` is given.
public struct BudgetEditParams: Codable, Sendable {
    public var id: Int64
    public var name: String?
    public var amount: PriceParam?
    public var income: Bool?
    public var at: Date?
    public init(id: Int64) { self.id = id }
}

/// `from <= at < to`; either bound may be left out.
public struct BudgetRangeParams: Codable, Sendable {
    public var from: Date?
    public var to: Date?
    /// `budget.list` only: `sort` title (the name), time or price (the signed amount), `reverse` descending.
    public var sort: ListSortChoice?
    public var reverse: Bool?
    public init(from: Date? = nil, to: Date? = nil) {
        self.from = from
        self.to = to
    }
}

/// Totals of one currency: income and expenses as positive sums, the balance their difference (may be negative).
public struct BudgetTotal: Codable, Sendable, Equatable {
    public var currency: String
    public var incomeCents: Int64
    public var expenseCents: Int64
    public var balanceCents: Int64
    public var entries: Int
    public init(currency: String, incomeCents: Int64, expenseCents: Int64, balanceCents: Int64, entries: Int) {
        self.currency = currency
        self.incomeCents = incomeCents
        self.expenseCents = expenseCents
        self.balanceCents = balanceCents
        self.entries = entries
    }
}

public struct BudgetBalance: Codable, Sendable, Equatable {
    public var from: Date?
    public var to: Date?
    /// One per currency that has entries in the range, by code; empty when there are none.
    public var totals: [BudgetTotal]
    public init(from: Date?, to: Date?, totals: [BudgetTotal]) {
        self.from = from
        self.to = to
        self.totals = totals
    }
}

/// A treatment category; top-level ones carry their sub-categories.
public struct CategoryNode: Codable, Sendable, Equatable {
    public var name: String
    public var title: String
    /// Sub-categories, by name (none below them: the tree has two levels).
    public var children: [CategoryNode]
    public init(name: String, title: String, children: [CategoryNode] = []) {
        self.name = name
        self.title = title
        self.children = children
    }

    /// Every name in the tree, parents and children.
    public static func names(_ tree: [CategoryNode]) -> Set<String> {
        Set(tree.flatMap { [$0.name] + $0.children.map(\.name) })
    }
}

public enum BudgetRPC {
    public static let add = RPC<BudgetAddParams, BudgetEntry>("budget.add")
    public static let list = RPC<BudgetRangeParams, [BudgetEntry]>("budget.list")
    /// One entry by id: what `budget rm` names when it asks.
    public static let show = RPC<IDParams, BudgetEntry>("budget.show")
    public static let edit = RPC<BudgetEditParams, BudgetEntry>("budget.edit")
    /// Answers the entry as it was.
    public static let remove = RPC<IDParams, BudgetEntry>("budget.rm")
    public static let balance = RPC<BudgetRangeParams, BudgetBalance>("budget.balance")
    public static let categories = RPC<NoParams, [CategoryNode]>("categories")

    static let methods = [
        add.method, list.method, show.method, edit.method, remove.method, balance.method, categories.method,
    ]
}
