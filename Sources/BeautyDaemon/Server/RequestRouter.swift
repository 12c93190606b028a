import BeautyProtocol
import Foundation

/// The server's half of the method table: each `RPC`'s handler, given the params decoded as that
/// RPC's `Params` and answering its `Result`, so no handler can pair a method with other types.
struct RequestRouter: Sendable {
    /// A handler with its params bound, run once the envelope has been checked.
    typealias Call = @Sendable (RequestContext) async throws -> any Encodable & Sendable

    enum Route: Sendable {
        /// Decodes the params from the request object (once, in the line's only parse) and binds them.
        case call(@Sendable (KeyedDecodingContainer<RequestLine.Key>) -> Result<Call, InvalidParams>)
        /// Answers `ack`, then streams events; its params are not read.
        case subscription(ack: any Encodable & Sendable)
    }

    /// The params did not decode as the method's `Params`.
    struct InvalidParams: Error {
        var underlying: any Error
    }

    private(set) var routes: [Method: Route] = [:]
    /// Methods registered more than once (the method-table test wants none).
    private(set) var duplicates: [Method] = []

    mutating func register<P, R>(
        _ rpc: RPC<P, R>, _ handler: @escaping @Sendable (P, RequestContext) async throws -> R
    ) {
        add(
            rpc.method,
            .call { container in
                Result { try RequestLine.params(P.self, in: container) }
                    .map { params in { context in try await handler(params, context) } }
                    .mapError { InvalidParams(underlying: $0) }
            })
    }

    /// A handler that needs only its params.
    mutating func register<P, R>(_ rpc: RPC<P, R>, _ handler: @escaping @Sendable (P) async throws -> R) {
        register(rpc) { params, _ in try await handler(params) }
    }

    mutating func subscription<R>(_ rpc: RPC<NoParams, R>, ack: R) {
        add(rpc.method, .subscription(ack: ack))
    }

    private mutating func add(_ method: Method, _ route: Route) {
        if routes[method] != nil { duplicates.append(method) }
        routes[method] = route
    }
}

/// A request line decoded in one pass: the envelope's members and, for a routed method, its params as
/// the method's own type. What is wrong with it is checked afterwards, in JSON-RPC's order.
struct RequestLine: Decodable {
    enum Key: String, CodingKey {
        case jsonrpc, id, method, params
    }

    /// What a routed method asks for.
    enum Bound {
        case call(Result<RequestRouter.Call, RequestRouter.InvalidParams>)
        case subscription(ack: any Encodable & Sendable)
    }

    /// Where `init(from:)` finds the router that binds the params (the decoder's userInfo).
    static let routerKey = CodingUserInfoKey(rawValue: "beautyd.router")!

    var jsonrpc: String?
    var id: RPCID?
    var method: String?
    /// Nil when `method` is missing or names no route.
    var bound: Bound?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        jsonrpc = try container.decodeIfPresent(String.self, forKey: .jsonrpc)
        id = try container.decodeIfPresent(RPCID.self, forKey: .id)
        method = try container.decodeIfPresent(String.self, forKey: .method)
        let router = decoder.userInfo[Self.routerKey] as? RequestRouter
        switch method.map(Method.init(rawValue:)).flatMap({ router?.routes[$0] }) {
        case let .call(bind)?: bound = .call(bind(container))
        case let .subscription(ack)?: bound = .subscription(ack: ack)
        case nil: bound = nil
        }
    }

    /// `params` may be missing or null for methods whose fields are all optional: they decode as `{}`.
    static func params<P: Decodable>(_ type: P.Type, in container: KeyedDecodingContainer<Key>) throws -> P {
        if container.contains(.params), try !container.decodeNil(forKey: .params) {
            return try container.decode(P.self, forKey: .params)
        }
        return try WireJSON.decoder().decode(P.self, from: Data("{}".utf8))
    }
}
