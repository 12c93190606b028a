import CTimerFD
import Dispatch
import Foundation

/// One absolute CLOCK_REALTIME deadline (timerfd with TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET).
/// Absolute wall-clock time keeps counting through suspend, and a clock change wakes the reader at
/// once, so nothing polls: with no deadline armed the daemon does not wake at all.
public final class WallClockTimer: @unchecked Sendable {
    public enum Wake: Sendable, Equatable {
        case deadline
        /// The wall clock was set or jumped: recompute everything.
        case clockChanged
    }

    private let fd: Int32
    private let source: DispatchSourceRead
    private let lock = NSLock()
    private var armed: Date?

    public init(queue: DispatchQueue, onWake: @escaping @Sendable (Wake) -> Void) throws {
        fd = timerfd_create(CLOCK_REALTIME, ctimerfd_flag_nonblock() | ctimerfd_flag_cloexec())
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        let fd = self.fd
        source.setEventHandler { @Sendable in
            var expirations: UInt64 = 0
            let n = read(fd, &expirations, MemoryLayout<UInt64>.size)
            if n == MemoryLayout<UInt64>.size {
                onWake(.deadline)
            } else if n < 0, errno == ECANCELED {
                onWake(.clockChanged)
            }
        }
        source.resume()
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

    deinit {
        source.cancel()
        close(fd)
    }
}
