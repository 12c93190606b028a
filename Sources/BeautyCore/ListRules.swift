import Foundation

/// How the lists filter and order what they answer: a filter given several values keeps what matches any
/// of them, and a list sorts by one key, stably, so equal keys keep the list's own order.
public enum ListFilter {
    /// The values of a filter sent as its old single field and as its list, in order and without repeats:
    /// a client may send either or both.
    public static func values<T: Equatable>(_ one: T?, _ many: [T]?) -> [T] {
        var result: [T] = []
        for value in (one.map { [$0] } ?? []) + (many ?? []) where !result.contains(value) { result.append(value) }
        return result
    }

    /// Whether `category` is one of `wanted` or a sub-category of one (`face` matches `face/facial`),
    /// ignoring case and diacritics (`wlosy` matches `włosy`); no wanted category matches everything.
    public static func category(_ category: String?, matchesAnyOf wanted: [String]) -> Bool {
        guard !wanted.isEmpty else { return true }
        guard let category else { return false }
        let folded = TextFolding.fold(category)
        return wanted.map(TextFolding.fold).contains { folded == $0 || folded.hasPrefix($0 + "/") }
    }

    /// Search texts as compared: trimmed and folded (`TextFolding`), empty ones dropped.
    public static func needles(_ texts: [String]) -> [String] {
        texts.map { TextFolding.fold($0.trimmingCharacters(in: .whitespaces)) }.filter { !$0.isEmpty }
    }

    /// Whether any of `needles` (from `needles(_:)`) is in one of `fields`, ignoring case and diacritics
    /// (`krakow` finds "Kraków"); no needle matches everything.
    public static func text(_ fields: [String], containsAnyOf needles: [String]) -> Bool {
        guard !needles.isEmpty else { return true }
        return needles.contains { needle in fields.contains { TextFolding.contains($0, folded: needle) } }
    }
}

/// What a list can be sorted by.
public enum ListSortKey: String, Codable, Sendable, CaseIterable {
    case title, time, category, price
}

/// A list's `sort` as the wire carries it (one string): a key, read in any case with spaces around it,
/// or a word that is none, kept as sent so that `ListSort.sorted` refuses it naming the keys that list
/// has (a decoding error could not name them).
public enum ListSortChoice: WireWord, Sendable, Equatable {
    case key(ListSortKey)
    case unknown(String)

    public init(_ text: String) {
        self =
            ListSortKey(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased()).map(Self.key)
            ?? .unknown(text)
    }

    public var text: String {
        switch self {
        case let .key(key): key.rawValue
        case let .unknown(text): text
        }
    }
}

/// An item's value for a sort key; `missing` when it has none (no price, no category).
public enum SortValue: Sendable {
    case text(String)
    case time(Date)
    case money(Money)
    case missing

    /// The value for `key` of an item that has all four (an appointment, an agenda entry).
    public init(_ key: ListSortKey, title: String, time: Date, category: String?, price: Money?) {
        switch key {
        case .title: self = .text(title)
        case .time: self = .time(time)
        case .category: self = category.map(SortValue.text) ?? .missing
        case .price: self = price.map(SortValue.money) ?? .missing
        }
    }
}

public enum ListSort {
    /// The list in the order asked for. No `sort`: the list's own order, `reverse` turning it round.
    /// With `sort`: by that key (texts ignoring case and accents; money by currency, then amount, never
    /// converted, so currencies do not mix), descending with `reverse`; equal values keep the list's own order, and items without
    /// a value come last either way. A key the list does not have (`supported`) is refused, naming them.
    public static func sorted<Item>(
        _ items: [Item], sort: ListSortChoice?, reverse: Bool?, supported: [ListSortKey],
        field: String = "sort", value: (Item, ListSortKey) -> SortValue
    ) throws -> [Item] {
        let descending = reverse ?? false
        guard let sort else { return descending ? items.reversed() : items }
        let names = supported.map(\.rawValue).joined(separator: ", ")
        guard case let .key(key) = sort, supported.contains(key) else {
            throw ValidationError(
                field: field, template: "'%s' is not one of %s (what this list can be sorted by)", sort.text, names)
        }
        let keyed = items.enumerated().map { (index: $0.offset, item: $0.element, value: value($0.element, key)) }
        return keyed.sorted { a, b in
            switch (order(a.value, b.value), a.value, b.value) {
            case (.some(let ascending), _, _): return ascending != descending
            case (nil, .missing, .missing): return a.index < b.index
            case (nil, .missing, _): return false
            case (nil, _, .missing): return true
            default: return a.index < b.index
            }
        }.map(\.item)
    }

    /// Whether `a` comes before `b` ascending; nil when they are equal or either has no value.
    public static func order(_ a: SortValue, _ b: SortValue) -> Bool? {
        switch (a, b) {
        case let (.text(x), .text(y)):
            let (fx, fy) = (TextFolding.fold(x), TextFolding.fold(y))
            return fx == fy ? nil : fx < fy
        case let (.time(x), .time(y)):
            return x == y ? nil : x < y
        case let (.money(x), .money(y)):
            return (x.currency, x.cents) == (y.currency, y.cents) ? nil : (x.currency, x.cents) < (y.currency, y.cents)
        default:
            return nil
        }
    }
}
