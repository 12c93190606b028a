import ServiceLifecycle

/// Runs the sync loop as a lifecycle service beside the scheduler and the socket.
struct SyncService: Service {
    let sync: SyncCoordinator

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await sync.run()
        }
        await sync.shutdown()
    }
}
