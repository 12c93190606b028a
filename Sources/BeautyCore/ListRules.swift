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

    /// Whether `category` is one of `wanted` or a sub-category of one (`face` matches `face/facial`);
    /// no wanted category matches everything.
    public static func category(_ category: String?, matchesAnyOf wanted: [String]) -> Bool {
        guard !wanted.isEmpty else { return true }
        guard let category else { return false }
        return wanted.contains { category == $0 || category.hasPrefix($0 + "/") }
    }

    /// Search texts as compared: trimmed and lower-cased, empty ones dropped.
    public static func needles(_ texts: [String]) -> [String] {
        texts.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }

    /// Whether any of `needles` (from `needles(_:)`) is in one of `fields`, ignoring case; no needle matches everything.
    public static func text(_ fields: [String], containsAnyOf needles: [String]) -> Bool {
        guard !needles.isEmpty else { return true }
        let haystack = fields.joined(separator: "\n").lowercased()
        return needles.contains { haystack.contains($0) }
    }
}
