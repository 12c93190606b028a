@testable import BeautyDaemon
import BeautyStore
import BeautyTestSupport
import Foundation
import Logging
import Testing

/// The scheduler's timer is made with the daemon, before its socket listens: out of descriptors, beautyd
/// fails to start. Made in the scheduler's run, the failure would end the whole daemon after it said it
/// was ready (a client flood can use every descriptor at that moment).
@Suite struct TimerAtStartTests {
    struct OutOfDescriptors: Error {}

    @Test func aTimerThatCannotBeMadeFailsTheDaemonBeforeItServes() throws {
        let made = TestCounter()
        #expect(throws: OutOfDescriptors.self) {
            _ = try makeDaemon(
                store: try AppDatabase.inMemory(), notifier: RecordingNotifier(), config: DaemonConfig(),
                session: SessionLanguage(.english), socket: "in process",
                logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
                timer: { _ in
                    _ = made.next(); throw OutOfDescriptors()
                })
        }
        #expect(made.next() == 2, "the timer is made once, while the daemon is made")
    }
}
