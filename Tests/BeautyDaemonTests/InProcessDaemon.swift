@testable import BeautyDaemon
import BeautyNotify
import BeautyProtocol
import BeautyStore
import BeautyTestSupport
import Foundation
import Logging

/// beautyd's parts as `makeDaemon` wires them for beautyd, in this process: an in-memory store, a
/// recording notifier, and a clock, zone and timer the test sets. Requests are the JSON-RPC lines a
/// client sends, answered by the daemon's own request handler; time moves only when the test moves it.
final class InProcessDaemon: @unchecked Sendable {
    let clock: TestClock
    let zone: SettableZone
    let notifier: RecordingNotifier
    let daemon: Daemon
    private let timers = TimerBox()
    private let running: Task<Void, Error>
    private let ids = TestCounter()

    var store: AppDatabase { daemon.store }

    /// How long a wait for the scheduler may take: a safety net only, generous because the whole suite
    /// runs its tests side by side on the cooperative pool of a 2-core machine that is busy besides;
    /// every wait ends as soon as what it waits for is there.
    static let patience: Duration = .seconds(120)

    /// Starts the scheduler at `now` and returns once its first pass has armed the timer. Deliveries are
    /// committed at their instant unless `commitAheadMilliseconds` says otherwise, so the timer's
    /// deadlines are the reminders' own instants. The session's language is English unless a test asks
    /// for another, whatever the language of the shell running the tests.
    init(
        now: Date, config: DaemonConfig = DaemonConfig(), session: SessionLanguage = SessionLanguage(.english),
        zone: TimeZone = testTimeZone, notifier: RecordingNotifier = RecordingNotifier(), store: AppDatabase? = nil,
        commitAheadMilliseconds: Int = 0, importLimits: ImportStages.Limits = .standard
    ) async throws {
        clock = TestClock(now)
        self.zone = SettableZone(zone)
        self.notifier = notifier
        let timers = self.timers
        var config = config
        config.commitAheadMilliseconds = commitAheadMilliseconds
        daemon = try makeDaemon(
            store: try store ?? AppDatabase.inMemory(), notifier: notifier, config: config, session: session,
            socket: "in process",
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
            clock: clock.read, zone: self.zone, timer: { onWake in timers.make(onWake) },
            importLimits: importLimits)
        let scheduler = daemon.scheduler
        running = Task { try await scheduler.run() }
        guard
            await eventually(timeout: Self.patience, { timers.current.map { $0.arms > 0 ? true : nil } ?? nil }) != nil
        else {
            throw HarnessError("the scheduler's first pass did not arm its timer")
        }
    }

    deinit {
        daemon.scheduler.stop()
        running.cancel()
    }

    /// Stops the scheduler as a shutdown does, and waits for it to end (a restart starts another on the same store).
    func stop() async {
        daemon.scheduler.stop()
        running.cancel()
        _ = try? await running.value
    }

    var timer: ManualTimer { timers.current! }

    /// `rpc` with `params`, as one request line through the daemon's request handler; the answer's
    /// result, or its error thrown.
    func call<P, R>(_ rpc: RPC<P, R>, _ params: P) async throws -> R {
        let id = ids.next()
        let line = try WireJSON.encoder().encode(
            RPCRequest(id: .number(id), method: rpc.method.rawValue, params: params))
        guard case let .reply(answer?) = await daemon.requests.handle(line: line) else {
            throw HarnessError("\(rpc.method.rawValue) got no answer")
        }
        let response = try WireJSON.decoder().decode(RPCResponse<R>.self, from: answer)
        if let error = response.error { throw error }
        guard let result = response.result else {
            throw HarnessError("no result in \(String(decoding: answer, as: UTF8.self))")
        }
        return result
    }

    func call<R>(_ rpc: RPC<NoParams, R>) async throws -> R { try await call(rpc, NoParams()) }

    /// Waits until a pass has armed the timer for `deadline` (the scheduler's next wake is there).
    @discardableResult
    func armed(for deadline: Date?, timeout: Duration = InProcessDaemon.patience) async -> Bool {
        await eventually(timeout: timeout, interval: .milliseconds(5)) { timer.deadline == deadline ? true : nil }
            ?? false
    }

    /// Sets the clock to `instant`. If the armed deadline has come, wakes the scheduler as the timerfd
    /// would and returns once that pass has armed the timer again; otherwise nothing wakes.
    func advance(to instant: Date) async throws {
        clock.set(instant)
        guard let deadline = timer.deadline, deadline <= instant else { return }
        let arms = timer.arms
        timer.wake(.deadline)
        guard
            await eventually(timeout: Self.patience, interval: .milliseconds(5), { timer.arms > arms ? true : nil })
                != nil
        else {
            throw HarnessError("no pass ended after the deadline \(deadline) came")
        }
    }

    /// Moves the clock to each deadline the scheduler arms, up to `instant`, firing each; then to `instant`.
    func run(until instant: Date) async throws {
        while let deadline = timer.deadline, deadline <= instant {
            try await advance(to: max(deadline, clock.now))
        }
        try await advance(to: instant)
    }
}

/// The daemon's clock, set by the test.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var instant: Date

    init(_ instant: Date) { self.instant = instant }

    var now: Date { lock.withLock { instant } }
    func set(_ instant: Date) { lock.withLock { self.instant = instant } }
    var read: @Sendable () -> Date { { [self] in now } }
}

/// The user's zone, changed by the test as timedatectl would.
final class SettableZone: ZoneSource, @unchecked Sendable {
    private let lock = NSLock()
    private var zone: TimeZone
    private var watchers: [(DispatchQueue, @Sendable (TimeZone) -> Void)] = []

    init(_ zone: TimeZone) { self.zone = zone }

    var current: TimeZone { lock.withLock { zone } }

    func watch(queue: DispatchQueue, onChange: @escaping @Sendable (TimeZone) -> Void) {
        lock.withLock { watchers.append((queue, onChange)) }
    }

    func set(_ zone: TimeZone) {
        let watchers = lock.withLock {
            self.zone = zone
            return self.watchers
        }
        for (queue, onChange) in watchers { queue.async { onChange(zone) } }
    }
}

/// The scheduler's deadline, fired by the test (`InProcessDaemon.advance`) instead of the kernel.
final class ManualTimer: DeadlineTimer, @unchecked Sendable {
    private let lock = NSLock()
    private let onWake: @Sendable (WallClockTimer.Wake) -> Void
    private var armed: Date?
    private var count = 0

    init(onWake: @escaping @Sendable (WallClockTimer.Wake) -> Void) { self.onWake = onWake }

    func arm(at deadline: Date?) {
        lock.withLock {
            armed = deadline
            count += 1
            history.append(deadline)
            if history.count > 20 { history.removeFirst() }
        }
    }

    private var history: [Date?] = []
    /// The last 20 deadlines armed, oldest first (nil: disarmed), for a test's failure message.
    var lastArmed: [Date?] { lock.withLock { history } }

    var deadline: Date? { lock.withLock { armed } }
    /// How many times a pass armed (or disarmed) it: each pass ends by arming it once.
    var arms: Int { lock.withLock { count } }

    func wake(_ wake: WallClockTimer.Wake) { onWake(wake) }
}

/// Holds the timer the scheduler makes when it starts running.
final class TimerBox: @unchecked Sendable {
    private let lock = NSLock()
    private var timer: ManualTimer?

    func make(_ onWake: @escaping @Sendable (WallClockTimer.Wake) -> Void) -> ManualTimer {
        let made = ManualTimer(onWake: onWake)
        lock.withLock { timer = made }
        return made
    }

    var current: ManualTimer? { lock.withLock { timer } }
}
