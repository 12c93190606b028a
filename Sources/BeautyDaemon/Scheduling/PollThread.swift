import CTimerFD
import Foundation

/// A thread asleep in poll that runs the jobs of the actor taking it as its executor and reads one more
/// descriptor when it becomes readable: the scheduler's timerfd, so that a due deadline resumes the
/// scheduler on the thread that read it instead of waking another (benchmarks/RESULTS.md §11d: from the
/// read to the pass 0.08 ms at the median and 0.21 ms p99 on the same thread, 0.11 and 0.32 ms with a switch).
final class PollThread: SerialExecutor, @unchecked Sendable {
    /// An eventfd, written when the first job is queued and when the thread is asked to stop.
    private let jobsFD: Int32
    private let lock = NSLock()
    private var jobs: [UnownedJob] = []
    private var stopping = false
    private var ended = false

    /// Starts the thread, which owns `fd` from now on (it closes it when it ends); `onReadable` runs on the
    /// thread each time `fd` is readable, and must read it. Throws if the thread does not start: an executor
    /// that never runs would leave the daemon answering but never firing.
    init(name: String, watching fd: Int32, onReadable: @escaping @Sendable () -> Void) throws {
        jobsFD = eventfd(0, ctimerfd_eventfd_cloexec() | ctimerfd_eventfd_nonblock())
        guard jobsFD >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let started = DispatchSemaphore(value: 0)
        let thread = Thread {
            // Seen in /proc and in debuggers (Foundation's `Thread.name` does not reach the kernel here).
            ctimerfd_name_this_thread(name)
            started.signal()
            self.run(watching: fd, onReadable)
        }
        thread.start()
        guard started.wait(timeout: .now() + Self.startPatience) == .success else {
            stop()
            throw POSIXError(.EAGAIN)
        }
    }

    /// How long a thread may take to start before the start counts as failed.
    static let startPatience: TimeInterval = 30

    deinit { close(jobsFD) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        // Only the first job of a batch wakes the thread: it takes the whole queue at once.
        let first = lock.withLock {
            assert(!ended, "a job queued on a PollThread that has ended never runs")
            jobs.append(job)
            return jobs.count == 1
        }
        if first { signal() }
    }

    /// Ends the thread once it has run every job queued until then, and closes `fd`.
    func stop() {
        lock.withLock { stopping = true }
        signal()
    }

    private func signal() {
        var one: UInt64 = 1
        _ = write(jobsFD, &one, MemoryLayout<UInt64>.size)
    }

    private func run(watching fd: Int32, _ onReadable: @Sendable () -> Void) {
        defer { close(fd) }
        var watched = [
            pollfd(fd: jobsFD, events: Int16(POLLIN), revents: 0), pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            guard poll(&watched, nfds_t(watched.count), -1) >= 0 else {
                // EINTR, or ENOMEM for a while.
                if errno != EINTR { usleep(1000) }
                continue
            }
            if watched[0].revents != 0 {
                var count: UInt64 = 0
                _ = read(jobsFD, &count, MemoryLayout<UInt64>.size)
                if runQueuedJobs() { return }
            }
            if watched[1].revents != 0 { onReadable() }
        }
    }

    /// Runs the jobs queued so far; true once stopping with none left (the thread then ends).
    private func runQueuedJobs() -> Bool {
        while true {
            let (taken, stop) = lock.withLock {
                defer { jobs = [] }
                return (jobs, stopping)
            }
            for job in taken { job.runSynchronously(on: asUnownedSerialExecutor()) }
            guard stop else { return false }
            // Jobs the last ones queued run too before the thread ends.
            let done = lock.withLock {
                if jobs.isEmpty { ended = true }
                return ended
            }
            if done { return true }
        }
    }
}
