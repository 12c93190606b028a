import Dispatch

/// Runs a task's jobs on its own serial dispatch queue.
///
/// Each client connection gets one. On NIO's shared event loops a long request (a full-range
/// agenda over 100,000 items takes seconds of JSON work) held back every other client whose task
/// landed on the same loop: `status` took up to 3.5 s meanwhile. Serial queues run on libdispatch's
/// overcommit pool, which adds a thread whenever all are busy and has no load monitor (the 1 Hz
/// timer `EventLoopConcurrency` avoids belongs to the non-overcommit pool only).
final class SerialQueueExecutor: TaskExecutor, @unchecked Sendable {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
