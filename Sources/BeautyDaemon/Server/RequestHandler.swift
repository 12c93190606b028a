import BeautyCore
import BeautyNotify
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// Answers one JSON-RPC request line. Never throws and never calls the notification server:
/// every failure becomes a JSON-RPC error, so one bad client cannot hurt another.
public struct RequestHandler: Sendable {
    /// Every method's handler, as the controllers added them.
    let router: RequestRouter
    private let controllers: [any RequestController]
    /// The database file, named in a store failure's message.
    let databasePath: String
    let logger: Logger
    /// Which connection the request came on (set per connection by ConnectionHandler; 0 in process).
    var connection: UInt64 = 0

    init(controllers: [any RequestController], databasePath: String, logger: Logger) {
        var router = RequestRouter()
        for controller in controllers { controller.addRoutes(to: &router) }
        self.router = router
        self.controllers = controllers
        self.databasePath = databasePath
        self.logger = logger
    }

    /// The connection this handler serves has closed.
    func connectionClosed() {
        for controller in controllers { controller.connectionClosed(RequestContext(connection: connection)) }
    }

    /// What to do with a request line.
    public enum Outcome: Sendable {
        /// Write this line back (nil for a JSON-RPC notification, which gets no answer).
        case reply(Data?)
        /// Acknowledge with this line, then stream daemon events on the connection.
        case subscribe(ack: Data)
    }

    public func handle(line: Data) async -> Outcome {
        // A syntax check only: JSONDecoder reads lazily and accepts a malformed value it never reads
        // (`"x":01`, a raw tab in a string), which JSON-RPC answers with a parse error.
        guard WireJSON.isWellFormed(line) else {
            return .reply(
                failure(
                    nil,
                    RPCErrorObject(code: RPCErrorCode.parseError, message: "parse error: the line is not valid JSON")))
        }
        let decoder = WireJSON.decoder()
        decoder.userInfo[RequestLine.routerKey] = router
        guard let request = try? decoder.decode(RequestLine.self, from: line) else {
            return .reply(
                failure(
                    nil,
                    RPCErrorObject(
                        code: RPCErrorCode.invalidRequest,
                        message: "invalid request: expected an object with jsonrpc, id, method and params")))
        }
        let id = request.id
        guard request.jsonrpc == "2.0" else {
            return .reply(
                failure(
                    id,
                    RPCErrorObject(
                        code: RPCErrorCode.invalidRequest, message: "invalid request: \"jsonrpc\" must be \"2.0\"")))
        }
        guard let name = request.method else {
            return .reply(
                failure(
                    id,
                    RPCErrorObject(code: RPCErrorCode.invalidRequest, message: "invalid request: \"method\" is missing")
                ))
        }
        switch request.bound {
        case nil:
            let known = Method.allCases.map(\.rawValue).joined(separator: ", ")
            // A notification (no id) gets no answer, not even this error (JSON-RPC 2.0, section 4.1).
            return .reply(
                id == nil
                    ? nil
                    : failure(
                        id,
                        RPCErrorObject(
                            code: RPCErrorCode.methodNotFound, message: "unknown method '\(name)' (known: \(known))")))
        case let .subscription(ack):
            return .subscribe(ack: success(id, ack) ?? Data())
        case let .call(bound):
            let answer: Data?
            do {
                answer = success(id, try await bound.get()(RequestContext(connection: connection)))
            } catch {
                answer = failure(id, rpcError(error))
            }
            return .reply(id == nil ? nil : answer)
        }
    }

    /// Every failure of a request as the error it is answered with (the one place errors are mapped).
    private func rpcError(_ error: any Error) -> RPCErrorObject {
        switch error {
        case let error as RequestRouter.InvalidParams:
            return RPCErrorObject(
                code: RPCErrorCode.invalidParams, message: "invalid params: \(Self.describe(error.underlying))")
        case let error as ValidationError:
            return Self.refusal(error, code: RPCErrorCode.invalidParams)
        case let error as NotFoundRefusal:
            return Self.refusal(error.refusal, code: RPCErrorCode.notFound)
        case let error as ImportStages.Busy:
            return RPCErrorObject(
                code: RPCErrorCode.busy, message: error.text.english,
                data: RPCErrorData(text: error.text.text, args: error.text.args))
        case let StoreError.notFound(kind, itemID):
            return RPCErrorObject(
                code: RPCErrorCode.notFound, message: "no \(kind) with id \(itemID)",
                data: RPCErrorData(kind: MissingItemKind(kind), id: itemID))
        default:
            let report = StoreFailureReport(error, databasePath: databasePath)
            logger.error("request failed: \(report.rpcError.message)")
            return report.rpcError
        }
    }

    /// A refusal with its field, and its message as a template a client translates.
    private static func refusal(_ error: ValidationError, code: RPCErrorCode) -> RPCErrorObject {
        RPCErrorObject(
            code: code, message: error.description,
            data: RPCErrorData(
                field: error.field, text: error.template, args: error.template.map { _ in error.arguments },
                argTexts: error.argTexts))
    }

    /// "params.start: expected an ISO 8601 instant" rather than Swift's DecodingError dump.
    static func describe(_ error: Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ keys: [CodingKey]) -> String {
            let parts = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return parts.isEmpty ? "params" : parts.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case let .typeMismatch(type, context):
            return "\(path(context.codingPath)): expected \(Self.typeName(type))"
        case let .valueNotFound(type, context):
            return "\(path(context.codingPath)): expected \(Self.typeName(type)), got null"
        case let .keyNotFound(key, context):
            return "\(path(context.codingPath + [key])): missing"
        case let .dataCorrupted(context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Int64.Type: return "an integer"
        case is Bool.Type: return "true or false"
        case is Double.Type: return "a number"
        default:
            let name = "\(type)"
            return name.hasPrefix("Array")
                ? "a list" : (name.hasPrefix("Dictionary") ? "an object" : "an object (\(name))")
        }
    }

    private func success<R: Encodable & Sendable>(_ id: RPCID?, _ result: R) -> Data? {
        // The largest answers write their own JSON (the same bytes, without JSONEncoder's cost per value).
        if let writable = result as? any WireJSONWritable { return WireJSON.success(id: id, result: writable) }
        return try? WireJSON.encoder().encode(RPCSuccess(id: id, result: result))
    }

    private func failure(_ id: RPCID?, _ error: RPCErrorObject) -> Data {
        (try? WireJSON.encoder().encode(RPCFailure(id: id, error: error))) ?? Data()
    }
}
