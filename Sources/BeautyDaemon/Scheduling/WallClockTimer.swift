import CTimerFD
import Foundation

/// One absolute CLOCK_REALTIME deadline (timerfd with TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET).
/// Absolute wall-clock time keeps counting through suspend, and a clock change wakes the reader at
/// once, so nothing polls: with no deadline armed the daemon does not wake at all.
///
/// The timerfd is read by a thread of its own (`thread`), asleep in poll until the deadline, which is also
/// the scheduler's executor: a deadline resumes the scheduler with no thread switch. A libdispatch read
/// source took two thread wakes before the scheduler's (its manager thread's epoll, then a worker), and
/// came later by itself: 0.16 against 0.11 ms at the median, 0.29 against 0.18 ms p99, in a small program
/// here (benchmarks/RESULTS.md §11d).
public final class WallClockTimer: @unchecked Sendable {
    public enum Wake: Sendable, Equatable {
        case deadline
        /// The wall clock was set or jumped: recompute everything.
        case clockChanged
    }

    private let fd: Int32
    /// Reads the timerfd; an executor for the actor its wakes resume.
    let thread: PollThread
    private let lock = NSLock()
    private var armed: Date?

    /// `threadName` tells its thread apart in /proc (tests count their own).
    public init(threadName: String = "beautyd-timer", onWake: @escaping @Sendable (Wake) -> Void) throws {
        fd = timerfd_create(CLOCK_REALTIME, ctimerfd_flag_nonblock() | ctimerfd_flag_cloexec())
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let fd = self.fd
        do {
            thread = try PollThread(name: threadName, watching: fd) {
                var expirations: UInt64 = 0
                let n = read(fd, &expirations, MemoryLayout<UInt64>.size)
                if n == MemoryLayout<UInt64>.size {
                    onWake(.deadline)
                } else if n < 0, errno == ECANCELED {
                    onWake(.clockChanged)
                }
            }
        } catch {
            close(fd)
            throw error
        }
    }

    /// Arms the timer for `deadline` (a past deadline fires at once); nil disarms it.
    public func arm(at deadline: Date?) {
        lock.lock()
        defer { lock.unlock() }
        armed = deadline
        var spec = itimerspec()
        if let deadline {
            let seconds = max(deadline.timeIntervalSince1970, 0)
            let whole = seconds.rounded(.down)
            // An all-zero it_value would disarm the timer; a past deadline must fire at once instead.
            let nanos = max(Int((seconds - whole) * 1_000_000_000), whole == 0 ? 1 : 0)
            spec.it_value = timespec(tv_sec: Int(whole), tv_nsec: nanos)
        }
        let flags = deadline == nil ? 0 : (ctimerfd_flag_abstime() | ctimerfd_flag_cancel_on_set())
        _ = timerfd_settime(fd, flags, &spec, nil)
    }

    public var deadline: Date? {
        lock.lock()
        defer { lock.unlock() }
        return armed
    }

    /// The thread ends and closes the timerfd.
    deinit { thread.stop() }
}
