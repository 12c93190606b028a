import BeautyCore
import Foundation

/// Something that happened in the daemon, streamed to `subscribe`rs (`beautyctl watch`).
public struct DaemonEvent: Codable, Sendable {
    public var type: String
    public var at: Date
    public var key: String?
    public var itemKind: ItemKind?
    public var itemID: Int64?
    public var title: String?
    public var detail: String?
    public init(type: String, at: Date, key: String? = nil, itemKind: ItemKind? = nil, itemID: Int64? = nil,
                title: String? = nil, detail: String? = nil) {
        self.type = type
        self.at = at
        self.key = key
        self.itemKind = itemKind
        self.itemID = itemID
        self.title = title
        self.detail = detail
    }
}

/// A `subscribe` answer streams these lines: `{"jsonrpc":"2.0","method":"event","params":{...}}`.
public struct RPCNotification<Params: Codable & Sendable>: Codable, Sendable {
    public var jsonrpc = "2.0"
    public var method: String
    public var params: Params
    public init(method: String, params: Params) {
        self.method = method
        self.params = params
    }
}
