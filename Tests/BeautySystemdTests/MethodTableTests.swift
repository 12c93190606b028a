@testable import BeautyDaemon
import BeautyProtocol
import Foundation
import Testing

/// The typed method table: a method added to `Method` without its RPC constant or its server route
/// fails here, not in front of a user.
@Suite struct MethodTableTests {
    @Test("every method has exactly one RPC constant")
    func oneConstantPerMethod() {
        let counts = Dictionary(RPCTable.methods.map { ($0, 1) }, uniquingKeysWith: +)
        for method in Method.allCases {
            #expect(counts[method] == 1, "\(method.rawValue) has \(counts[method] ?? 0) RPC constants in RPCTable.methods (want 1)")
        }
    }

    @Test("every method has exactly one server route")
    func oneRoutePerMethod() {
        let routes = RequestHandler.routes
        #expect(routes.duplicates.isEmpty, "registered more than once: \(routes.duplicates.map(\.rawValue))")
        for method in Method.allCases {
            #expect(routes.routes[method] != nil, "\(method.rawValue) has no route in RequestHandler.routes")
        }
    }
}
