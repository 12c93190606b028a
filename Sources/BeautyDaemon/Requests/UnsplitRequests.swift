import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// The areas not yet given a controller of their own, sharing every part of the daemon. Each area
/// moves out into `Controllers/` with only the parts it uses; when none is left, this type goes.
struct UnsplitRequests: RequestController {
    let store: AppDatabase
    let scheduler: Scheduler
    let settings: SettingsBox
    let logger: Logger
    let clock: @Sendable () -> Date
    /// The user's zone: local days, local-time texts, plans made at an add or an edit.
    let zone: any ZoneSource

    func addRoutes(to router: inout RequestRouter) {
        var routes = UnsplitRoutes(router: router, requests: self)
        Self.medicationRoutes(&routes)
        router = routes.router
    }
}

/// Registers an unsplit area's handlers, each given the shared parts.
struct UnsplitRoutes {
    var router: RequestRouter
    let requests: UnsplitRequests

    mutating func register<P, R>(
        _ rpc: RPC<P, R>, _ handler: @escaping @Sendable (UnsplitRequests, P) async throws -> R
    ) {
        let requests = self.requests
        router.register(rpc) { params in try await handler(requests, params) }
    }
}
