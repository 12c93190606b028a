import BeautyCore
import CLibNotify
import Foundation
import Logging
import Testing

@testable import BeautyNotify

/// The real GLib session-bus connection against a private dbus-daemon that is killed and started again.
@Suite(.serialized) struct SessionBusTests {
    /// What the bus reports, touched only on the GLib loop thread.
    final class Recorder: SessionBusDelegate {
        var lost = 0
        var unavailable: [TranslatableText] = []
        func notificationServerAppeared() {}
        func notificationServerVanished() {}
        func sessionBusLost() { lost += 1 }
        func sessionBusUnavailable(_ reason: TranslatableText) { unavailable.append(reason) }
    }

    /// A private session bus with no service directories (nothing is auto-started). posix_spawn, not
    /// Foundation.Process: a child of the test runner is stopped with SIGKILL and reaped here.
    struct PrivateBus {
        let pid: pid_t

        static func start(at socket: String) async throws -> PrivateBus {
            let config = socket + ".conf"
            try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig><type>session</type><listen>unix:path=\(socket)</listen><auth>EXTERNAL</auth>
            <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
            </busconfig>
            """.write(toFile: config, atomically: true, encoding: .utf8)
            unlink(socket)
            let arguments = ["/usr/bin/dbus-daemon", "--config-file=\(config)", "--nofork"]
            let argv = arguments.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, arguments[0], nil, nil, argv, environ)
            guard spawned == 0 else { throw NotifierError("cannot start dbus-daemon: errno \(spawned)") }
            let bus = PrivateBus(pid: pid)
            for _ in 0..<100 where access(socket, F_OK) != 0 { try await Task.sleep(for: .milliseconds(50)) }
            guard access(socket, F_OK) == 0 else {
                bus.kill()
                throw NotifierError("dbus-daemon made no socket at \(socket)")
            }
            return bus
        }

        func kill() {
            _ = Glibc.kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
    }

    /// Polls `condition` on the loop thread for up to `seconds`.
    private func eventually(_ loop: GLibLoop, seconds: Double, _ condition: @escaping () -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if await loop.call(condition) { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return await loop.call(condition)
    }

    final class WeakSessionBus: @unchecked Sendable { weak var bus: SessionBus? }

    @Test("GLib's timers and signals keep the bus they call alive after its owner let go (beautyd stopping)")
    func registrationsKeepTheBusAlive() async throws {
        let loop = GLibLoop()
        let probe = WeakSessionBus()
        // Connected or not, connect() leaves GLib something that calls the bus: a retry timer, or the
        // closed signal and the name watch.
        await loop.call {
            let session = SessionBus(logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
            probe.bus = session
            session.connect()
        }
        #expect(await loop.call { probe.bus != nil }, "freed while GLib may still call it")
    }

    @Test(
        "a bus that is back while GLib still hands out the closed connection leaves beautyd running, says why, and is reconnected once that connection is let go"
    )
    func closedConnectionStillHeld() async throws {
        var template = Array("/tmp/bn-XXXXXX".utf8CString)
        let directory = String(cString: try #require(mkdtemp(&template)))
        let socket = directory + "/bus"
        var bus = try await PrivateBus.start(at: socket)
        defer { bus.kill() }
        setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=\(socket)", 1)

        let loop = GLibLoop()
        let recorder = Recorder()
        let session = SessionBus(logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        // The delegate is weak and GLib keeps calling the bus after this test: the recorder must stay.
        _ = Unmanaged.passRetained(recorder)
        _ = await loop.call {
            session.delegate = recorder; return session.connect()
        }
        // On a busy machine the new dbus-daemon may not have answered the first connect in time; the
        // session's own retries connect it (the wait is a safety net, it ends once connected).
        try #require(
            try await eventually(loop, seconds: 120) { session.connection != nil }, "never connected to the new bus")
        // Another holder of the shared connection keeps GLib handing out that one after the bus has gone.
        let held = await loop.call { () -> UInt in
            var error: UnsafeMutablePointer<GError>?
            return UInt(bitPattern: beautyd_session_bus(&error))
        }
        try #require(held != 0)

        bus.kill()
        try #require(try await eventually(loop, seconds: 10) { recorder.lost == 1 && session.connection == nil })
        bus = try await PrivateBus.start(at: socket)
        // The retries find the closed connection again and again: reported, and beautyd keeps running.
        let reported = try await eventually(loop, seconds: 15) { recorder.unavailable == [SessionBus.stale] }
        let reasons = await loop.call { recorder.unavailable }
        #expect(reported, "reported: \(reasons)")
        #expect(await loop.call { session.unavailable } == SessionBus.stale)

        await loop.call { g_object_unref(UnsafeMutableRawPointer(bitPattern: held)) }
        let reconnected = try await eventually(loop, seconds: 15) { session.connection != nil }
        #expect(reconnected, "not reconnected once the closed connection was let go")
        #expect(await loop.call { session.unavailable } == SessionBus.missing)
    }
}
