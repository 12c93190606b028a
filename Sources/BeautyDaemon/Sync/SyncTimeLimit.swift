import BeautyCalDAV
import Foundation

/// `[sync] sync_timeout`: the bound of one whole run against a server, whose every request may come
/// within `request_timeout` while the run never ends (a listing truncated with a new token each time).
enum SyncTimeLimit {
    /// `body`'s result, or `CalDAVError.unreachable` once `seconds` have passed; `body` is cancelled
    /// then and stops at its next request.
    static func run<T: Sendable>(seconds: Int, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                // An event-loop timer: Task.sleep would start libdispatch's once-a-second monitor.
                try await EventLoopConcurrency.sleep(for: .seconds(seconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let result = try await group.next() ?? nil else {
                throw CalDAVError.unreachable("the sync took longer than \(seconds) s")
            }
            return result
        }
    }
}
