@testable import BeautyCalDAV
import BeautyTestSupport
import Foundation
import NIOPosix
import Testing

/// A sync that was cancelled (the daemon stopping, `[sync] sync_timeout`) starts no further request,
/// even when the cancellation came before the request began.
@Suite struct CancellationTests {
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }

    @Test func aDeadlineEnteredAlreadyCancelledNeverStartsItsWork() async throws {
        let ran = Flag()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Deadline.run(
                within: .seconds(600), on: MultiThreadedEventLoopGroup.singleton.any(),
                expired: { CalDAVError.unreachable("expired") }
            ) {
                ran.set()
                return 1
            }
        }
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(!ran.isSet, "the work ran although the caller was cancelled before it started")
    }

    @Test func aRequestOfACancelledTaskReachesNoServer() async throws {
        let server = try await CalDAVTestServer.start(.radicale)
        let credentials = try PasswordFileCredentials(user: server.user, passwordFile: server.passwordFile)
        let client = try CalDAVClient(account: CalDAVAccount(url: server.calendarURL, credentials: credentials))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.calendar(at: server.calendarURL)
        }
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(client.statistics.requests == 0)
        await server.stop()
    }
}
