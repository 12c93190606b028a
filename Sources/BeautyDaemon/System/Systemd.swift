import CSystemd
import Foundation

/// The daemon's side of the systemd contract: readiness, status, watchdog, socket activation.
public enum Systemd {
    /// Sends `READY=1`, `STATUS=...`, `WATCHDOG=1`, `STOPPING=1`... to `$NOTIFY_SOCKET` (a no-op without one).
    public static func notify(_ state: String) {
        _ = sd_notify(0, state)
    }

    /// The listening socket systemd passed us (`beautyd.socket`), if any; unsets `LISTEN_FDS` for children.
    public static func activationSocket() -> Int32? {
        let count = sd_listen_fds(1)
        guard count >= 1 else { return nil }
        return SD_LISTEN_FDS_START
    }

    /// Half the watchdog period systemd expects pings at, or nil when the watchdog is off.
    public static func watchdogPingInterval() -> Duration? {
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
        return .microseconds(Int64(usec / 2))
    }

    /// Makes SIGABRT end the process: it is what systemd sends when a watchdog ping is missed
    /// (WatchdogSec=), and a hung beautyd must die so Restart= can start a new one. Swift's runtime
    /// backtracer catches SIGABRT too, but for a signal sent by another process it prints a
    /// backtrace for seconds and then returns, and the process serves on as if nothing happened.
    /// Faults (SIGSEGV, SIGILL, SIGTRAP from a failed precondition) keep their backtraces.
    public static func endOnAbort() {
        signal(SIGABRT) { _ in
            let line: StaticString = "beautyd: SIGABRT (a missed watchdog ping, or kill -ABRT): ending now\n"
            _ = write(STDERR_FILENO, line.utf8Start, line.utf8CodeUnitCount)
            // Async-signal-safe: with the default action back, the raised signal ends the process
            // as soon as this handler returns (SIGABRT is blocked while it runs).
            signal(SIGABRT, SIG_DFL)
            raise(SIGABRT)
        }
    }

    /// True when stderr goes to the journal (systemd sets `JOURNAL_STREAM` to its device:inode).
    public static var stderrIsJournal: Bool {
        guard let stream = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] else { return false }
        var info = stat()
        guard fstat(STDERR_FILENO, &info) == 0 else { return false }
        return stream == "\(info.st_dev):\(info.st_ino)"
    }
}
