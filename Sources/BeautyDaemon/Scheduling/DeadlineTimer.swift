import Foundation

/// The scheduler's one deadline: the wall-clock timerfd in beautyd; in tests, a timer that fires
/// when the test moves its clock past the deadline.
public protocol DeadlineTimer: AnyObject, Sendable {
    /// Arms the timer for `deadline` (a past deadline fires at once); nil disarms it.
    func arm(at deadline: Date?)
    var deadline: Date? { get }
}

/// Makes the scheduler's timer, given what it calls when it wakes (a deadline, or the clock changed).
public typealias DeadlineTimerFactory =
    @Sendable (_ onWake: @escaping @Sendable (WallClockTimer.Wake) -> Void) throws -> any DeadlineTimer

extension WallClockTimer: DeadlineTimer {
    /// A timerfd read by a thread of its own.
    public static let factory: DeadlineTimerFactory = { onWake in try WallClockTimer(onWake: onWake) }
}
