import Foundation

/// Rules both the client (early, exit 2) and the daemon (authoritative) apply to budget entries.
public enum BudgetRules {
    /// 1 000 000 000.00 in any currency.
    public static let maxCents: Int64 = 100_000_000_000

    public static func name(_ raw: String) throws -> String {
        try Validation.name(raw, field: "name")
    }

    /// The size of an amount: more than 0, at most `maxCents`, with a currency code such as EUR.
    public static func amount(cents: Int64, currency: String) throws -> Money {
        guard cents != 0 else { throw ValidationError(field: "amount", template: "must not be zero") }
        guard cents > 0 else {
            throw ValidationError(field: "amount", template: "must be more than 0 (use income to choose the direction)")
        }
        guard cents <= maxCents else { throw ValidationError(field: "amount", template: "is too large") }
        return try Validation.money(Money(cents: cents, currency: currency), field: "amount")!
    }
}
