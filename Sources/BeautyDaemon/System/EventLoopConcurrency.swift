import NIOCore
import NIOPosix
import Synchronization

/// Keeps Swift concurrency off libdispatch's global thread pool, so an idle daemon never wakes.
///
/// On Linux the first job that runs on a libdispatch global (non-overcommit) queue starts that
/// pool's load monitor: a one-second timer on the manager thread that runs for the life of the
/// process (swift-corelibs-libdispatch, src/event/workqueue.c). Every `Task`, actor hop and
/// `Task.sleep` goes there by default, which made an idle beautyd wake 60 times a minute.
/// NIO's event-loop threads instead sleep in epoll until there is work or a timer is due.
public enum EventLoopConcurrency {
    /// Makes NIO's singleton event loops Swift concurrency's global executor. Call it first thing
    /// in `main`, on the main thread, before anything is scheduled.
    @discardableResult
    public static func install() -> Bool {
        let installed = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        isInstalled.store(installed, ordering: .relaxed)
        return installed
    }

    /// Whether `install()` succeeded (NIO refuses on toolchains whose runtime hook it does not know).
    public static var installed: Bool { isInstalled.load(ordering: .relaxed) }
    private static let isInstalled = Atomic<Bool>(false)

    /// `Task.sleep` on an event loop's timer (`Task.sleep` itself uses `dispatch_after` on a global
    /// queue, which would start the monitor). Throws when the task is cancelled.
    public static func sleep(for duration: Duration) async throws {
        let scheduled = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: TimeAmount(duration)) {}
        try await withTaskCancellationHandler {
            try await scheduled.futureResult.get()
        } onCancel: {
            scheduled.cancel()
        }
    }
}
