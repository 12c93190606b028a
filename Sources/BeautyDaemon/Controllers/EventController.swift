import BeautyProtocol

/// subscribe: the connection becomes a stream of the daemon's events (`DaemonEvent`: a reminder fired,
/// snoozed, dismissed, missed, a dose answered...), which the connection's handler feeds from the event hub
/// after this acknowledgement.
struct EventController: RequestController {
    func addRoutes(to router: inout RequestRouter) {
        router.subscription(ViewRPC.subscribe, ack: SubscribeResult(subscribed: true))
    }
}
