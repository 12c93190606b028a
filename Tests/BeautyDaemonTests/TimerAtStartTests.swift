@testable import BeautyDaemon
import BeautyStore
import BeautyTestSupport
import Foundation
import Logging
import Testing

/// The scheduler's timer is made with the daemon, before its socket listens: out of descriptors, beautyd
/// fails to start. Made later, in the scheduler's run, the failure ended the whole daemon after it had
/// said it was ready (seen when a client flood used every descriptor at that moment).
@Suite struct TimerAtStartTests {
    struct OutOfDescriptors: Error {}

    @Test func aTimerThatCannotBeMadeFailsTheDaemonBeforeItServes() throws {
        let made = TestCounter()
        #expect(throws: OutOfDescriptors.self) {
            _ = try makeDaemon(
                store: try AppDatabase.inMemory(), notifier: RecordingNotifier(), config: DaemonConfig(), socket: "in process",
                logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
                timer: { _ in _ = made.next(); throw OutOfDescriptors() })
        }
        #expect(made.next() == 2, "the timer is made once, while the daemon is made")
    }
}
