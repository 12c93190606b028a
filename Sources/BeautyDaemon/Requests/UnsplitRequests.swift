import BeautyCore
import BeautyNotify
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// The areas not yet given a controller of their own, sharing every part of the daemon. Each area
/// moves out into `Controllers/` with only the parts it uses; when none is left, this type goes.
struct UnsplitRequests: RequestController {
    let store: AppDatabase
    let scheduler: Scheduler
    let sync: SyncCoordinator
    let notifier: any Notifier
    let settings: SettingsBox
    let startedAt: Date
    let socketPath: String
    let logger: Logger
    let clock: @Sendable () -> Date
    /// The user's zone: local days, local-time texts, plans made at an add or an edit.
    let zone: any ZoneSource
    /// Imports staged in chunks, daemon-wide; each belongs to the connection that began it.
    let importStages: ImportStages
    /// Which connection the request came on.
    var connection: UInt64 = 0

    func addRoutes(to router: inout RequestRouter) {
        var routes = UnsplitRoutes(router: router, requests: self)
        Self.statusRoutes(&routes)
        Self.viewRoutes(&routes)
        Self.appointmentRoutes(&routes)
        Self.occurrenceRoutes(&routes)
        Self.contactRoutes(&routes)
        Self.measurementRoutes(&routes)
        Self.wellbeingRoutes(&routes)
        Self.backupRoutes(&routes)
        Self.syncRoutes(&routes)
        router = routes.router
    }

    func connectionClosed(_ context: RequestContext) {
        importStages.discard(connection: context.connection)
    }
}

/// Registers an unsplit area's handlers, each given the shared parts and its connection.
struct UnsplitRoutes {
    var router: RequestRouter
    let requests: UnsplitRequests

    mutating func register<P, R>(
        _ rpc: RPC<P, R>, _ handler: @escaping @Sendable (UnsplitRequests, P) async throws -> R
    ) {
        let requests = self.requests
        router.register(rpc) { params, context in
            var requests = requests
            requests.connection = context.connection
            return try await handler(requests, params)
        }
    }

    mutating func subscription<R>(_ rpc: RPC<NoParams, R>, ack: R) {
        router.subscription(rpc, ack: ack)
    }
}
