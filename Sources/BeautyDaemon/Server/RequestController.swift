/// One area's request handlers (appointments, budget, sync...): it holds only the parts it uses and
/// adds its methods to the router it is given, as Hummingbird's controllers do.
protocol RequestController: Sendable {
    func addRoutes(to router: inout RequestRouter)
    /// A connection has closed: drop what it left behind (a staged import). Most areas keep nothing.
    func connectionClosed(_ context: RequestContext)
}

/// What a handler may know of the request beyond its params.
struct RequestContext: Sendable {
    /// Which connection the request came on (numbered by ConnectionHandler; 0 in process): a staged
    /// import belongs to the connection that began it.
    var connection: UInt64
}

extension RequestController {
    func connectionClosed(_ context: RequestContext) {}
}
