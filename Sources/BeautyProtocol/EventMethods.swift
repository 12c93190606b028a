import BeautyCore
import Foundation

/// Something that happened in the daemon, streamed to `subscribe`rs (`beautyctl watch`).
public struct DaemonEvent: Codable, Sendable {
    /// What happened; `type` on the wire.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case fired, renotified, missed, suppressed, snoozed, dismissed, taken, skipped
        case lowStock = "low-stock"

        /// The event announcing a dose answered taken, skipped or snoozed; nil for a state no one answers.
        public init?(answer: Dose.State) {
            switch answer {
            case .taken: self = .taken
            case .skipped: self = .skipped
            case .snoozed: self = .snoozed
            case .pending, .fired, .missed: return nil
            }
        }
    }

    /// A `Kind`'s name, kept a string so that a client reads events of kinds newer than itself.
    public var type: String
    public var at: Date
    public var key: String?
    public var itemKind: ItemKind?
    public var itemID: Int64?
    public var title: String?
    public var detail: String?
    public init(
        _ kind: Kind, at: Date, key: String? = nil, itemKind: ItemKind? = nil, itemID: Int64? = nil,
        title: String? = nil, detail: String? = nil
    ) {
        type = kind.rawValue
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

extension RPCNotification where Params == DaemonEvent {
    /// An event line of a `subscribe` stream.
    public init(event: DaemonEvent) { self.init(method: "event", params: event) }
}
