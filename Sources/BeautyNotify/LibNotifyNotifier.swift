import BeautyCore
import CLibNotify
import Foundation
import Logging

/// Desktop notifications through libnotify on a private GLib loop thread.
public final class LibNotifyNotifier: Notifier, SessionBusDelegate, @unchecked Sendable {
    public let events: AsyncStream<NotifierEvent>
    private let continuation: AsyncStream<NotifierEvent>.Continuation
    private let loop = GLibLoop()
    private let logger: Logger
    private let appName: String
    private let bus: SessionBus

    private let infoLock = NSLock()
    private var info = NotificationServerInfo.failing(TranslatableText("not contacted yet", []))

    // Touched only on the loop thread.
    private var shownByKey: [String: UnsafeMutablePointer<NotifyNotification>] = [:]
    private var keyByNotification: [UnsafeMutablePointer<NotifyNotification>: String] = [:]
    private var capabilities: [String]?
    private var unanswered = UnansweredNotifies()

    public init(appName: String = "beautyd", logger: Logger) {
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        self.logger = logger
        self.appName = appName
        bus = SessionBus(logger: logger)
        loop.run {
            _ = notify_init(appName)
            self.bus.delegate = self
            if !self.bus.connect() { self.updateInfo { $0 = .failing(self.bus.unavailable) } }
        }
    }

    public func serverInfo() -> NotificationServerInfo {
        infoLock.withLock { info }
    }

    public func show(_ notification: DesktopNotification) async throws -> ShowOutcome {
        let outcome: Result<ShowOutcome, NotifierError> = await loop.call { self.showOnLoop(notification) }
        return try outcome.get()
    }

    public func close(key: String) async {
        await loop.call {
            if let notification = self.shownByKey[key] { self.takeOffScreen(notification) }
        }
    }

    // MARK: - On the loop thread

    private static func from(_ data: UnsafeMutableRawPointer?) -> LibNotifyNotifier {
        Unmanaged<LibNotifyNotifier>.fromOpaque(data!).takeUnretainedValue()
    }

    /// Gives back the reference a notification's closed signal or action held (libnotify may still call
    /// them after beautyd has let go of the notifier while stopping).
    private static let release: GDestroyNotify = { data in
        Unmanaged<LibNotifyNotifier>.fromOpaque(data!).release()
    }

    func notificationServerAppeared() {
        capabilities = nil
        refreshServerInfo()
        continuation.yield(.serverAppeared)
    }

    func notificationServerVanished() {
        capabilities = nil
        // Ids belong to the server that handed them out: a new server numbers its popups from 1 again,
        // and a click on one of them must not be taken for a click on an old popup with the same id.
        for notification in Array(keyByNotification.keys) { forget(notification) }
        updateInfo { $0 = .failing(TranslatableText("no notification server on the session bus", [])) }
        continuation.yield(.serverVanished)
    }

    func sessionBusLost() {
        notificationServerVanished()
        // libnotify keeps its proxy, and with it the closed connection, until uninit: after a fresh init its
        // next call connects anew. The notifications were let go first: disposing one asks libnotify for its proxy.
        notify_uninit()
        _ = notify_init(appName)
        unanswered.serverGone()
        updateInfo { $0.fail(SessionBus.missing) }
    }

    func sessionBusUnavailable(_ reason: TranslatableText) {
        updateInfo {
            $0.reachable = false; $0.fail(reason)
        }
    }

    private func updateInfo(_ change: (inout NotificationServerInfo) -> Void) {
        infoLock.withLock { change(&info) }
    }

    /// Asks the server who it is and what it can do (GetServerInformation, GetCapabilities); false if it did not answer.
    @discardableResult
    private func refreshServerInfo() -> Bool {
        var name: UnsafeMutablePointer<CChar>?
        var vendor: UnsafeMutablePointer<CChar>?
        var version: UnsafeMutablePointer<CChar>?
        var spec: UnsafeMutablePointer<CChar>?
        let known = notify_get_server_info(&name, &vendor, &version, &spec) != 0
        defer { for text in [name, vendor, version, spec] { g_free(text) } }
        var caps: [String] = []
        if known, let list = notify_get_server_caps() {
            var node: UnsafeMutablePointer<GList>? = list
            while let current = node {
                if let data = current.pointee.data {
                    caps.append(String(cString: data.assumingMemoryBound(to: CChar.self)))
                }
                node = current.pointee.next
            }
            g_list_free_full(list, g_free)
        }
        capabilities = known ? caps : nil
        updateInfo {
            $0 = NotificationServerInfo(
                reachable: known, name: name.map { String(cString: $0) }, vendor: vendor.map { String(cString: $0) },
                version: version.map { String(cString: $0) }, capabilities: caps)
            if !known { $0.fail(TranslatableText("the notification server did not answer GetServerInformation", [])) }
        }
        return known
    }

    private func showOnLoop(_ request: DesktopNotification) -> Result<ShowOutcome, NotifierError> {
        guard bus.connect() else {
            updateInfo {
                $0.reachable = false; $0.fail(bus.unavailable)
            }
            return .failure(
                NotifierError(
                    TranslatableText("%s (%s)", [.message(bus.unavailable), .message(SessionBus.addressText)])))
        }
        let server = bus.notificationServerOwner()
        if let waiting = unanswered.pending {
            if waiting.server == server {
                // That server may still show the Notify it never answered. It is not sent again: the server is asked
                // something it answers only after all that was queued before (a bus delivers one sender's calls in order).
                guard refreshServerInfo() else {
                    return .failure(
                        NotifierError(
                            TranslatableText(
                                "the notification server %s has not answered since %s; the reminder is not sent again while that server may still show it",
                                [.plain(waiting.server), .plain(Self.clock(waiting.since))])))
                }
                logger.notice(
                    "the notification server \(waiting.server) answers again: the \(waiting.keys.count) reminder(s) in the Notify calls it had not answered count as shown"
                )
                unanswered.serverAnswered()
            } else {
                unanswered.serverGone()
            }
        }
        let shownLate = unanswered.shownLate(among: request.covers)
        if !shownLate.isEmpty { return .success(.shownEarlier(shownLate)) }
        if capabilities == nil { refreshServerInfo() }
        let canAct = capabilities?.contains("actions") ?? false
        var body = Validation.showable(request.body, keepingNewlines: true)
        if !canAct, !request.actions.isEmpty, let hint = request.noActionsHint { body += "\n" + hint }
        // Bodies may carry markup on servers with body-markup: escape ours so text shows as typed.
        let markup = capabilities?.contains("body-markup") ?? false
        let shownBody = markup ? NotificationText.escapeMarkup(body) : body
        // Validation refuses control and bidi characters on the way in; a row stored before it did
        // (or written by another program) must still not reorder or drive what the server draws.
        let summary = Validation.showable(request.summary, keepingNewlines: false)

        let reuseKey = request.replacesKey ?? request.key
        let notification: UnsafeMutablePointer<NotifyNotification>
        if let existing = shownByKey[reuseKey] {
            notification = existing
            _ = notify_notification_update(notification, summary, shownBody, nil)
            if reuseKey != request.key {
                shownByKey[reuseKey] = nil
                shownByKey[request.key] = notification
                keyByNotification[notification] = request.key
            }
        } else {
            notification = notify_notification_new(summary, shownBody, nil)
            _ = beautyd_connect_closed(
                notification,
                { notification, data in
                    LibNotifyNotifier.from(data).closed(notification!)
                }, Unmanaged.passRetained(self).toOpaque(), Self.release)
            shownByKey[request.key] = notification
            keyByNotification[notification] = request.key
        }
        notify_notification_set_category(notification, request.category)
        notify_notification_set_urgency(notification, NotifyUrgency(UInt32(request.urgency.rawValue)))
        notify_notification_set_timeout(
            notification, request.staysUntilDismissed ? NOTIFY_EXPIRES_NEVER : NOTIFY_EXPIRES_DEFAULT)
        // A server with `persistence` (GNOME Shell, Plasma) keeps a `resident` reminder until it is closed; without the
        // hint a button press removes it. A resident popup stays after the press too: actionInvoked closes it then.
        let resident = request.staysUntilDismissed && capabilities?.contains("persistence") == true
        notify_notification_set_hint(notification, "resident", resident ? g_variant_new_boolean(1) : nil)
        notify_notification_clear_actions(notification)
        if canAct {
            for action in request.actions {
                notify_notification_add_action(
                    notification, action.id, action.label,
                    { notification, action, data in
                        LibNotifyNotifier.from(data).actionInvoked(notification!, String(cString: action!))
                    }, Unmanaged.passRetained(self).toOpaque(), Self.release)
            }
        }
        // Shown by `status` while the server keeps us waiting (a hung server holds this thread up to ~25 s).
        let asked = Date()
        updateInfo { $0.fail(TranslatableText("no answer to Notify yet (asked at %s)", [.plain(Self.clock(asked))])) }
        var error: UnsafeMutablePointer<GError>?
        if notify_notification_show(notification, &error) == 0 {
            let detail = error.map { String(cString: $0.pointee.message) } ?? "unknown libnotify error"
            var problem: TranslatableText?
            if beautyd_error_is_unanswered(error) != 0, let server {
                unanswered.add(request.covers, server: server, at: asked)
                problem = TranslatableText(
                    "no answer to Notify from %s (%s); not sent again while that server may still show it",
                    [.plain(server), .plain(detail)])
            }
            g_error_free(error)
            forget(notification)
            capabilities = nil
            updateInfo {
                $0.reachable = false; if let problem { $0.fail(problem) } else { $0.fail(detail) }
            }
            return .failure(problem.map { NotifierError($0) } ?? NotifierError(detail))
        }
        updateInfo {
            $0.reachable = true; $0.fail(nil)
        }
        return .success(.shown(id: UInt32(beautyd_notification_id(notification))))
    }

    /// "14:03:07 CET": a moment of today, in the local zone.
    private static func clock(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm:ss zzz"
        return formatter.string(from: date)
    }

    private func actionInvoked(_ notification: UnsafeMutablePointer<NotifyNotification>, _ action: String) {
        guard let key = keyByNotification[notification] else { return }
        continuation.yield(.action(key: key, action: action))
        // Every button is an answer, and an answered popup must go: a `resident` one stays after the click (as some
        // servers keep any), and only its sender can close it. One the server closes itself after the click is asked again,
        // and the server's error for the closed id is ignored.
        takeOffScreen(notification)
    }

    /// Asks the server to close it (CloseNotification); its NotificationClosed then forgets it.
    private func takeOffScreen(_ notification: UnsafeMutablePointer<NotifyNotification>) {
        var error: UnsafeMutablePointer<GError>?
        if notify_notification_close(notification, &error) == 0 { g_error_free(error) }
    }

    private func closed(_ notification: UnsafeMutablePointer<NotifyNotification>) {
        guard let key = keyByNotification[notification] else { return }
        let reason = Int(notify_notification_get_closed_reason(notification))
        forget(notification)
        continuation.yield(.closed(key: key, reason: reason))
    }

    private func forget(_ notification: UnsafeMutablePointer<NotifyNotification>) {
        if let key = keyByNotification.removeValue(forKey: notification) { shownByKey[key] = nil }
        g_object_unref(notification)
    }
}
