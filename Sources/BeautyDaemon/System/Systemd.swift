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

    /// True when stderr goes to the journal (systemd sets `JOURNAL_STREAM` to its device:inode).
    public static var stderrIsJournal: Bool {
        guard let stream = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] else { return false }
        var info = stat()
        guard fstat(STDERR_FILENO, &info) == 0 else { return false }
        return stream == "\(info.st_dev):\(info.st_ino)"
    }
}
