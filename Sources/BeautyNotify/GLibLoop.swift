import CLibNotify
import Foundation

/// Runs the GLib default main loop on a thread of its own. libnotify is not thread-safe and
/// delivers action clicks only through a running loop, so every libnotify call is sent here.
final class GLibLoop: @unchecked Sendable {
    private final class Job {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    private let context: OpaquePointer
    private let loop: OpaquePointer

    init() {
        context = g_main_context_default()
        loop = g_main_loop_new(context, 0)
        let loopAddress = UInt(bitPattern: loop)  // an address is Sendable; the loop outlives the process
        let thread = Thread { g_main_loop_run(OpaquePointer(bitPattern: loopAddress)) }
        thread.name = "beautyd-glib"
        thread.start()
    }

    /// Queues `body` to run on the loop thread.
    func run(_ body: @escaping () -> Void) {
        let job = Unmanaged.passRetained(Job(body)).toOpaque()
        g_main_context_invoke_full(
            context, G_PRIORITY_DEFAULT,
            { data in
                Unmanaged<Job>.fromOpaque(data!).takeRetainedValue().body()
                return 0  // G_SOURCE_REMOVE
            }, job, nil)
    }

    /// Runs `body` on the loop thread and suspends (without blocking a thread) until it returns.
    func call<T: Sendable>(_ body: @escaping () -> T) async -> T {
        await withCheckedContinuation { continuation in
            run { continuation.resume(returning: body()) }
        }
    }
}
