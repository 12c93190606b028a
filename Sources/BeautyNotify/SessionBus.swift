import BeautyCore
import CLibNotify
import Foundation
import Logging

/// What the session bus connection reports to the notifier (on the GLib loop thread).
protocol SessionBusDelegate: AnyObject {
    func notificationServerAppeared()
    func notificationServerVanished()
    /// The bus went away: everything tied to its connection (libnotify's proxy, shown notifications)
    /// must be let go now, so that GLib makes a new connection when the bus is back.
    func sessionBusLost()
    /// Reconnecting keeps failing for `reason` (while retries go on).
    func sessionBusUnavailable(_ reason: TranslatableText)
}

/// The session bus connection shared by libnotify and the watch on the notification server, kept up
/// across the bus going away. GLib's shared connection would raise SIGTERM when its bus closes
/// (exit-on-close), ending beautyd and every reminder after it; here that is switched off, a closed
/// connection is let go, and the same address is tried again until a bus answers there (a
/// socket-activated user bus comes back at the same address). Never exits: a reminder due meanwhile
/// stays pending and waits, where an exit could lose the one being shown. Used only on the GLib loop thread.
final class SessionBus {
    weak var delegate: SessionBusDelegate?
    private let logger: Logger
    private(set) var connection: OpaquePointer?
    private var watchID: guint = 0
    private var closedHandler: gulong = 0
    private var retryDelayMs: guint = SessionBus.firstRetryMs
    private var retryPending = false
    private var waitingLogged = false
    private var everConnected = false
    private var staleConnections = 0
    /// The notification server's unique name, kept by the watch on its well-known name.
    private var serverOwner: String?
    /// Why there is no connection, for `status`.
    private(set) var unavailable = SessionBus.missing

    /// Retries start quickly (a restarted bus is usually back within a second) and slow down to this.
    private static let firstRetryMs: guint = 250
    private static let longestRetryMs: guint = 5000

    /// `status`'s lastError while there is no bus (the log names the address).
    static let missing = TranslatableText("no session bus: reminders wait for it", [])
    /// `status`'s lastError when the bus is back but GLib hands out only the closed connection (something still
    /// holds it); reported once it lasts over several tries in a row, and tried again all the while.
    static let stale = TranslatableText(
        "the session bus is back but GLib still hands out the closed connection: reminders wait; `systemctl --user restart beautyd` reconnects",
        [])
    private static let staleBeforeReport = 3
    /// Where the bus is expected: English for log lines, in the reader's language for `status`.
    static let addressText = addressText(ProcessInfo.processInfo.environment)
    static var address: String { addressText.english }

    static func addressText(_ environment: [String: String]) -> TranslatableText {
        environment["DBUS_SESSION_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : TranslatableText.verbatim($0) }
            ?? TranslatableText("the default address (%s)", ["$XDG_RUNTIME_DIR/bus"])
    }

    init(logger: Logger) {
        self.logger = logger
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> SessionBus {
        Unmanaged<SessionBus>.fromOpaque(data!).takeUnretainedValue()
    }

    /// What each GLib registration (the retry timer, the closed signal, the name watch) is handed: a
    /// reference of its own, given back by `release` when GLib drops the registration. The bus then lives as
    /// long as GLib may still call it, even after beautyd has let go of its notifier while stopping (the loop
    /// thread runs until the process ends; a retry that fired on a freed bus corrupted the heap at exit).
    private var retained: UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }
    private static let release: GDestroyNotify = { data in Unmanaged<SessionBus>.fromOpaque(data!).release() }

    /// Connects now unless connected; false (and a retry scheduled) while there is no bus.
    @discardableResult
    func connect() -> Bool {
        if connection != nil { return true }
        var error: UnsafeMutablePointer<GError>?
        guard let candidate = beautyd_session_bus(&error) else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_error_free(error)
            staleConnections = 0
            unavailable = Self.missing
            if !waitingLogged {
                waitingLogged = true
                logger.warning("no session bus at \(Self.address) (\(message)): reminders wait until it is there")
            }
            scheduleRetry()
            return false
        }
        if g_dbus_connection_is_closed(candidate) != 0 {
            // Something still holds the closed connection, so GLib hands it out again instead of a new one.
            g_object_unref(UnsafeMutableRawPointer(candidate))
            staleConnections += 1
            if staleConnections == Self.staleBeforeReport {
                unavailable = Self.stale
                logger.critical(
                    "cannot reconnect to the session bus at \(Self.address): \(Self.stale.english); still trying")
                delegate?.sessionBusUnavailable(Self.stale)
            }
            scheduleRetry()
            return false
        }
        connection = candidate
        staleConnections = 0
        unavailable = Self.missing
        retryDelayMs = Self.firstRetryMs
        waitingLogged = false
        let message = "connected to the session bus at \(Self.address)"
        if everConnected { logger.notice("\(message) again") } else { logger.info("\(message)") }
        everConnected = true
        closedHandler = beautyd_connect_bus_closed(
            candidate,
            { _, _, error, data in
                SessionBus.from(data).closed(error.map { String(cString: $0.pointee.message) } ?? "closed")
            }, retained, Self.release)
        watchID = beautyd_watch_notification_server(
            candidate,
            { _, _, owner, data in
                let bus = SessionBus.from(data)
                bus.serverOwner = owner.map { String(cString: $0) }
                bus.delegate?.notificationServerAppeared()
            },
            { _, _, data in
                let bus = SessionBus.from(data)
                bus.serverOwner = nil
                bus.delegate?.notificationServerVanished()
            },
            retained, Self.release)
        return true
    }

    /// The unique name of the notification server now: as the watch on its name last saw it, else asked of the
    /// bus (which answers even while the server hangs). Known without a round trip, a burst of Notify calls
    /// waits for no call to the bus.
    func notificationServerOwner() -> String? {
        if let serverOwner { return serverOwner }
        guard let connection, let owner = beautyd_notification_server_owner(connection) else { return nil }
        defer { g_free(owner) }
        return String(cString: owner)
    }

    private func closed(_ reason: String) {
        logger.error(
            "lost the session bus at \(Self.address) (\(reason)): reminders wait until it is back; reconnecting")
        // The watch first: it would otherwise report the server vanishing a second time.
        if watchID != 0 { g_bus_unwatch_name(watchID) }
        watchID = 0
        serverOwner = nil
        delegate?.sessionBusLost()
        if let connection {
            g_signal_handler_disconnect(UnsafeMutableRawPointer(connection), closedHandler)
            g_object_unref(UnsafeMutableRawPointer(connection))
        }
        closedHandler = 0
        connection = nil
        scheduleRetry()
    }

    private func scheduleRetry() {
        guard !retryPending else { return }
        retryPending = true
        g_timeout_add_full(
            G_PRIORITY_DEFAULT, retryDelayMs,
            { data in
                let bus = SessionBus.from(data)
                bus.retryPending = false
                bus.connect()
                return 0  // G_SOURCE_REMOVE: connect() schedules the next try itself
            }, retained, Self.release)
        retryDelayMs = min(retryDelayMs * 2, Self.longestRetryMs)
    }
}
