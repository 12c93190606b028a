import BeautyCore
import CLibNotify
import Foundation
import Logging

/// Desktop notifications on a private GLib loop thread: libnotify asks the server who it is and what it can do;
/// Notify itself is sent straight on the session bus connection without waiting for its answer
/// (libnotify's `notify_notification_show` waits for each), so a burst of reminders is in flight at once,
/// and the server's ActionInvoked and NotificationClosed signals are read here.
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
    /// The server's id of the notification last shown for each key, and back.
    private var idByKey: [String: UInt32] = [:]
    private var keyByID: [UInt32: String] = [:]
    /// The subscription to the server's signals, on the connection it was made on.
    private var signals: (connection: OpaquePointer, subscription: guint)?
    private var capabilities: [String]?
    private var unanswered = UnansweredNotifies()
    private let timeOfDay: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm:ss zzz"
        return formatter
    }()

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
        try await send(notification).value
    }

    public func send(_ notification: DesktopNotification, sending: @escaping @Sendable () -> Void = {}) -> ShowReply {
        let answer = PendingAnswer()
        loop.run { self.sendOnLoop(notification, sending: sending, answer: answer.resolve) }
        return Task { try await answer.value.get() }
    }

    public func close(key: String) async {
        await loop.call {
            if let id = self.idByKey[key] { self.takeOffScreen(id) }
        }
    }

    // MARK: - On the loop thread

    private static func from(_ data: UnsafeMutableRawPointer?) -> LibNotifyNotifier {
        Unmanaged<LibNotifyNotifier>.fromOpaque(data!).takeUnretainedValue()
    }

    /// Gives back the reference the signal subscription held: GLib may still call it after beautyd has let
    /// go of the notifier while stopping (the loop thread runs until the process ends).
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
        idByKey = [:]
        keyByID = [:]
        updateInfo { $0 = .failing(TranslatableText("no notification server on the session bus", [])) }
        continuation.yield(.serverVanished)
    }

    func sessionBusLost() {
        notificationServerVanished()
        if let signals { g_dbus_connection_signal_unsubscribe(signals.connection, signals.subscription) }
        signals = nil
        // libnotify keeps its proxy, and with it the closed connection, until uninit: after a fresh init its
        // next call connects anew.
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

    /// Sends Notify for `request` and returns at once; `answer` gets the outcome once the server answered
    /// (or at once when it is not sent).
    private func sendOnLoop(
        _ request: DesktopNotification, sending: () -> Void,
        answer: @escaping (Result<ShowOutcome, NotifierError>) -> Void
    ) {
        switch prepareOnLoop(request) {
        case .failure(let error): answer(.failure(error))
        case .success(.shownEarlier(let keys)): answer(.success(.shownEarlier(keys)))
        case .success(.send(let call)):
            sending()
            notifyOnLoop(call, answer: answer)
        }
    }

    /// What a Notify call carries, once the checks before sending have passed.
    private struct NotifyCall {
        var request: DesktopNotification
        var connection: OpaquePointer
        var server: String?
        var summary: String
        var body: String
        var actions: [String]
        var resident: Bool
    }

    /// A Notify call to send, or none: the server already showed what the notification covers.
    private enum Prepared {
        case send(NotifyCall)
        case shownEarlier(Set<String>)
    }

    private func prepareOnLoop(_ request: DesktopNotification) -> Result<Prepared, NotifierError> {
        guard bus.connect(), let connection = bus.connection else {
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
                                [.plain(waiting.server), .plain(clock(waiting.since))])))
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
        subscribeToSignals(on: connection)
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

        // A server with `persistence` (GNOME Shell, Plasma) keeps a `resident` reminder until it is closed; without the
        // hint a button press removes it. A resident popup stays after the press too: actionInvoked closes it then.
        let resident = request.staysUntilDismissed && capabilities?.contains("persistence") == true
        let actions = canAct ? request.actions.flatMap { [$0.id, $0.label] } : []
        return .success(
            .send(
                NotifyCall(
                    request: request, connection: connection, server: server, summary: summary, body: shownBody,
                    actions: actions, resident: resident)))
    }

    /// Sends the Notify call; its answer comes back on the loop thread, to `answer`.
    private func notifyOnLoop(_ call: NotifyCall, answer: @escaping (Result<ShowOutcome, NotifierError>) -> Void) {
        let request = call.request
        let reuseKey = request.replacesKey ?? request.key
        let asked = Date()
        let reply = Unmanaged.passRetained(
            NotifyReply { [self] source, result in
                var error: UnsafeMutablePointer<GError>?
                let id = beautyd_notify_finish(source, result, &error)
                if let error {
                    answer(.failure(notifyFailed(error, request: call.request, server: call.server, asked: asked)))
                    return
                }
                if reuseKey != request.key, let old = idByKey.removeValue(forKey: reuseKey) { keyByID[old] = nil }
                if let old = idByKey[request.key], old != id { keyByID[old] = nil }
                idByKey[request.key] = id
                keyByID[id] = request.key
                updateInfo {
                    $0.reachable = true; $0.fail(nil)
                }
                answer(.success(.shown(id: id)))
            })
        withArrayOfCStrings(call.actions) { actions in
            beautyd_notify(
                call.connection, appName, idByKey[reuseKey] ?? 0, call.summary, call.body, actions,
                gsize(call.actions.count),
                request.category, UInt8(request.urgency.rawValue), call.resident ? 1 : -1,
                request.staysUntilDismissed ? 0 : -1,
                { source, result, data in
                    Unmanaged<NotifyReply>.fromOpaque(data!).takeRetainedValue().body(source, result)
                }, reply.toOpaque())
        }
        // Shown by `status` while the server keeps us waiting (a hung server does not answer for ~25 s). Noted once the
        // call is out, not before: the answer runs on this thread, so never before this.
        updateInfo { $0.fail(TranslatableText("no answer to Notify yet (asked at %s)", [.plain(clock(asked))])) }
    }

    /// What a Notify that failed leaves behind: one left unanswered is not sent again while its server may still
    /// show it; the notification is forgotten, and the server's capabilities asked again next time.
    private func notifyFailed(
        _ error: UnsafeMutablePointer<GError>, request: DesktopNotification, server: String?, asked: Date
    ) -> NotifierError {
        let detail = String(cString: error.pointee.message)
        var problem: TranslatableText?
        if beautyd_error_is_unanswered(error) != 0, let server {
            unanswered.add(request.covers, server: server, at: asked)
            problem = TranslatableText(
                "no answer to Notify from %s (%s); not sent again while that server may still show it",
                [.plain(server), .plain(detail)])
        }
        g_error_free(error)
        if let id = idByKey.removeValue(forKey: request.replacesKey ?? request.key) { keyByID[id] = nil }
        capabilities = nil
        updateInfo {
            $0.reachable = false; if let problem { $0.fail(problem) } else { $0.fail(detail) }
        }
        return problem.map { NotifierError($0) } ?? NotifierError(detail)
    }

    /// "14:03:07 CET": a moment of today, in the local zone. Each Notify notes the time it was asked at, on the
    /// thread that sends the next: with the formatter made once that costs about 1 µs here, with one made each time 33 µs.
    private func clock(_ date: Date) -> String { timeOfDay.string(from: date) }

    /// Listens to the server's ActionInvoked and NotificationClosed on `connection` (once per connection).
    private func subscribeToSignals(on connection: OpaquePointer) {
        if signals?.connection == connection { return }
        let subscription = beautyd_subscribe_notification_signals(
            connection,
            { _, sender, _, _, name, parameters, data in
                LibNotifyNotifier.from(data).signalled(sender.map { String(cString: $0) }, name, parameters)
            }, Unmanaged.passRetained(self).toOpaque(), Self.release)
        signals = (connection, subscription)
    }

    /// A signal of the notification server: only its owner's, as libnotify's proxy listens.
    private func signalled(
        _ sender: String?, _ name: UnsafePointer<CChar>?, _ parameters: OpaquePointer?
    ) {
        var id: UInt32 = 0
        var reason: UInt32 = 0
        var action: UnsafePointer<CChar>?
        guard beautyd_notification_signal(name, parameters, &id, &reason, &action) != 0,
            let sender, sender == bus.notificationServerOwner()
        else { return }
        if let action { actionInvoked(id, String(cString: action)) } else { closed(id, reason: Int(reason)) }
    }

    private func actionInvoked(_ id: UInt32, _ action: String) {
        guard let key = keyByID[id] else { return }
        continuation.yield(.action(key: key, action: action))
        // Every button is an answer, and an answered popup must go: a `resident` one stays after the click (as some
        // servers keep any), and only its sender can close it. One the server closes itself after the click is asked again,
        // and the server's error for the closed id is ignored.
        takeOffScreen(id)
    }

    /// Asks the server to close it (CloseNotification); its NotificationClosed then forgets it.
    private func takeOffScreen(_ id: UInt32) {
        if let connection = bus.connection { beautyd_close_notification(connection, id) }
    }

    private func closed(_ id: UInt32, reason: Int) {
        guard let key = keyByID.removeValue(forKey: id) else { return }
        if idByKey[key] == id { idByKey[key] = nil }
        continuation.yield(.closed(key: key, reason: reason))
    }
}

/// The answer to one Notify call, called once on the loop thread.
private final class NotifyReply {
    let body: (UnsafeMutablePointer<GObject>?, OpaquePointer?) -> Void
    init(_ body: @escaping (UnsafeMutablePointer<GObject>?, OpaquePointer?) -> Void) { self.body = body }
}

/// The outcome of a Notify sent on the loop thread, awaited from any task.
private final class PendingAnswer: @unchecked Sendable {
    private let lock = NSLock()
    private var outcome: Result<ShowOutcome, NotifierError>?
    private var waiting: CheckedContinuation<Result<ShowOutcome, NotifierError>, Never>?

    func resolve(_ result: Result<ShowOutcome, NotifierError>) {
        let waiter = lock.withLock {
            outcome = result
            defer { waiting = nil }
            return waiting
        }
        waiter?.resume(returning: result)
    }

    var value: Result<ShowOutcome, NotifierError> {
        get async {
            await withCheckedContinuation { continuation in
                let ready = lock.withLock {
                    if outcome == nil { waiting = continuation }
                    return outcome
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}

/// `strings` as a C array of C strings for the length of `body`.
private func withArrayOfCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
