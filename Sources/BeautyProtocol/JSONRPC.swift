import BeautyCore
import Foundation

/// JSON-RPC 2.0 envelopes, one JSON object per `\n`-terminated line (docs/PROTOCOL.md).
public enum RPCID: Codable, Sendable, Hashable, CustomStringConvertible {
    case number(Int64)
    case string(String)

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let n = try? container.decode(Int64.self) {
            self = .number(n)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case let .number(n): try container.encode(n)
        case let .string(s): try container.encode(s)
        }
    }

    public var description: String {
        switch self {
        case let .number(n): return String(n)
        case let .string(s): return s
        }
    }
}

public struct RPCRequest<Params: Encodable & Sendable>: Encodable, Sendable {
    public var jsonrpc = "2.0"
    public var id: RPCID
    public var method: String
    public var params: Params

    public init(id: RPCID, method: String, params: Params) {
        self.id = id
        self.method = method
        self.params = params
    }
}

/// Methods that need no params accept a missing, null, or empty `params`.
public struct NoParams: Codable, Sendable {
    public init() {}
}

/// The params of a list with nothing to filter: only its order (`sort` a key the list has, `reverse`).
public struct ListOrderParams: Codable, Sendable {
    public var sort: ListSortChoice?
    public var reverse: Bool?
    public init(sort: ListSortChoice? = nil, reverse: Bool? = nil) {
        self.sort = sort
        self.reverse = reverse
    }
}

public struct RPCErrorObject: Codable, Sendable, Error, Equatable {
    public var code: RPCErrorCode
    public var message: String
    public var data: RPCErrorData?

    public init(code: RPCErrorCode, message: String, data: RPCErrorData? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }
}

/// Machine-readable detail of an error: which field was wrong, which item was missing, and the
/// message as a template (`text`, English with `%s`) and its `args`, which a client translates;
/// `argTexts` holds the arguments that are messages of their own, at their index.
public struct RPCErrorData: Codable, Sendable, Equatable {
    public var field: String?
    public var kind: MissingItemKind?
    public var id: Int64?
    public var text: String?
    public var args: [String]?
    public var argTexts: [TranslatableText?]?

    public init(
        field: String? = nil, kind: MissingItemKind? = nil, id: Int64? = nil, text: String? = nil,
        args: [String]? = nil,
        argTexts: [TranslatableText?]? = nil
    ) {
        self.field = field
        self.kind = kind
        self.id = id
        self.text = text
        self.args = args
        self.argTexts = argTexts
    }

    /// The message as a template, nil when the error has none.
    public var translatable: TranslatableText? {
        text.map { TranslatableText($0, args ?? [], argTexts: argTexts) }
    }
}

/// The kind of item a "no such item" error names (its `data.kind`, a string on the wire); a kind this
/// side does not know is kept as sent.
public enum MissingItemKind: WireWord, Sendable, Equatable {
    case appointment, contact, medication, dose, budgetEntry, waterRecord, measurement
    case other(String)

    public init(_ text: String) {
        self =
            [Self.appointment, .contact, .medication, .dose, .budgetEntry, .waterRecord, .measurement].first {
                $0.text == text
            } ?? .other(text)
    }

    public var text: String {
        switch self {
        case .appointment: "appointment"
        case .contact: "contact"
        case .medication: "medication"
        case .dose: "dose"
        case .budgetEntry: "budget entry"
        case .waterRecord: "water record"
        case .measurement: "measurement"
        case let .other(text): text
        }
    }
}

/// An error answer's `code` (its number on the wire). A struct rather than an enum: a code this side
/// does not know (from a newer beautyd) still decodes, and its message is shown as the daemon wrote it.
public struct RPCErrorCode: RawRepresentable, Codable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public static let parseError = Self(rawValue: -32700)
    public static let invalidRequest = Self(rawValue: -32600)
    public static let methodNotFound = Self(rawValue: -32601)
    public static let invalidParams = Self(rawValue: -32602)
    public static let internalError = Self(rawValue: -32603)
    /// beautyd's own codes (the -32000..-32099 range is reserved for servers).
    public static let notFound = Self(rawValue: -32004)
    public static let refused = Self(rawValue: -32001)
    public static let lineTooLong = Self(rawValue: -32005)
    public static let busy = Self(rawValue: -32002)
    /// The database stayed locked by another program for the whole busy timeout.
    public static let databaseLocked = Self(rawValue: -32010)
    /// The disk holding the database is full.
    public static let diskFull = Self(rawValue: -32011)
    /// The database file is damaged (or holds a value that cannot be read back).
    public static let databaseDamaged = Self(rawValue: -32012)

    /// Every code beautyd sends.
    public static let allCases: [Self] = [
        .parseError, .invalidRequest, .methodNotFound, .invalidParams, .internalError, .notFound, .refused,
        .lineTooLong, .busy, .databaseLocked, .diskFull, .databaseDamaged,
    ]
}

/// A successful answer as sent by the daemon.
public struct RPCSuccess<Result: Encodable & Sendable>: Encodable, Sendable {
    public var jsonrpc = "2.0"
    public var id: RPCID?
    public var result: Result

    public init(id: RPCID?, result: Result) {
        self.id = id
        self.result = result
    }
}

/// An error answer; `id` is null when the request's id could not be read.
public struct RPCFailure: Codable, Sendable {
    public var jsonrpc = "2.0"
    public var id: RPCID?
    public var error: RPCErrorObject

    public init(id: RPCID?, error: RPCErrorObject) {
        self.id = id
        self.error = error
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(jsonrpc, forKey: .jsonrpc)
        try container.encode(id, forKey: .id)  // explicit null, as JSON-RPC requires
        try container.encode(error, forKey: .error)
    }
}

/// Any answer as read by a client: exactly one of `result` and `error`.
public struct RPCResponse<Result: Decodable>: Decodable {
    public var id: RPCID?
    public var result: Result?
    public var error: RPCErrorObject?
}

/// One configuration for every JSON the protocol carries: ISO 8601 instants, sorted keys.
public enum WireJSON {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatInstant(date))
        }
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseInstant(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "'\(text)' is not an ISO 8601 instant such as 2026-12-01T14:00:00+01:00")
            }
            return date
        }
        return decoder
    }

    /// "2026-12-01T13:00:00Z", or with milliseconds when the instant has them.
    public static func formatInstant(_ date: Date) -> String { RFC3339.format(date) }

    /// Strict RFC 3339 ("2026-12-01T14:00:00+01:00", "2026-12-01T13:00:00.250Z"); nil otherwise.
    public static func parseInstant(_ text: String) -> Date? { RFC3339.parse(text) }
}
