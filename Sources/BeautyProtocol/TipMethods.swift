import BeautyCore
import Foundation

/// `tips` and `tip.random`: both filters optional. `category` is a string so a wrong one gets a
/// message listing the right ones.
public struct TipFilterParams: Codable, Sendable {
    public var category: String?
    public var search: String?
    /// Several values (with the single field, if given, too): a tip matching any of them.
    public var categories: [String]?
    public var searches: [String]?
    public init(category: String? = nil, search: String? = nil) {
        self.category = category
        self.search = search
    }
}

public enum TipRPC {
    public static let list = RPC<TipFilterParams, [Tip]>("tips")
    public static let random = RPC<TipFilterParams, Tip>("tip.random")

    static let methods = [list.method, random.method]
}
