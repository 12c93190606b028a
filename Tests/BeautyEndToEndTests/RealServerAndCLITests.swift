import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EndToEndBus {
    @Suite("Real notification daemons (dunst, xfce4-notifyd) under Xvfb", .serialized)
    struct RealNotificationDaemon {
        @Test("dunst shows the reminder with its summary, body and category, and keeps it until dismissed")
        func dunstShowsTheReminder() async throws {
            // Missing programs fail the test with what to install; they never skip it.
            let xvfb = try Locations.system("Xvfb", package: "xvfb")
            let dunst = try Locations.system("dunst", package: "dunst")
            let dunstctl = try Locations.system("dunstctl", package: "dunst")

            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            let shownOn = try await stack.startXvfb(xvfb)
            // dunst's default timeouts cut to a second: a reminder that took the server's default
            // would leave the screen within it.
            let dunstrc = stack.directory + "/dunstrc"
            try "[urgency_low]\ntimeout = 1\n[urgency_normal]\ntimeout = 1\n[urgency_critical]\ntimeout = 1\n"
                .write(toFile: dunstrc, atomically: true, encoding: .utf8)
            try await stack.startNotificationServer("dunst", dunst, arguments: ["-config", dunstrc], display: shownOn)
            try await stack.startDaemon()

            let start = tomorrowOnTheHour()
            let due = wholeSecond(after: 1.5)
            let added = try stack.addAppointment("Pedicure", start: start, remindAt: [due])
            let id = try #require(added.appointment.id)
            let fired = try await eventually(timeout: .seconds(due.timeIntervalSinceNow + 5)) { () -> Delivery? in
                try stack.client().show(id).deliveries.first { $0.state == .fired }
            }
            let delivery = try #require(fired, "dunst never took the reminder\n\(stack.logs)")
            if let firedAt = delivery.firedAt {
                report(String(format: "dunst: due -> recorded as fired %.1f ms", firedAt.timeIntervalSince(due) * 1000))
            }

            // Still on screen well past dunst's timeout: only the person closes it.
            try await Task.sleep(for: .seconds(4))
            let displayed = try await stack.run(dunstctl, ["count", "displayed"])
            #expect(
                displayed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(displayed)\n\(stack.logs)")

            // The person's click (dunst's left button closes the popup) takes it away and counts as dismissed.
            let xdotool = try Locations.system("xdotool", package: "xdotool")
            let xdo = { (arguments: [String]) in
                try await stack.run(xdotool, arguments, environment: ["DISPLAY": shownOn])
            }
            let popup = try await EndToEndTiming.ClickedDose.popupGeometry(
                try await xdo(["search", "--onlyvisible", "--class", "Dunst"]).stdout, xdo)
            let (left, top, width, height) = try #require(popup, "no dunst popup on \(shownOn)\n\(stack.logs)")
            let click = try await xdo(["mousemove", String(left + width / 2), String(top + height / 2), "click", "1"])
            #expect(click.status == .exited(0), "\(click)")
            let dismissed = try await eventually(timeout: .seconds(5)) {
                try stack.client().show(id).deliveries.map(\.state) == [.dismissed] ? true : nil
            }
            #expect(dismissed == true, "the click on dunst's popup was not recorded as dismissed\n\(stack.logs)")

            // A popup enters dunst's history only once closed.
            var history: [[String: Any]] = []
            for _ in 0..<30 {
                let result = try await stack.run(dunstctl, ["history"])
                #expect(result.status == .exited(0), "\(result)")
                history = Self.historyEntries(result.stdout)
                if !history.isEmpty { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            let entry = try #require(
                history.first { Self.field($0, "summary") == "Pedicure" },
                "no Pedicure in dunst's history: \(history)\n\(stack.logs)")
            #expect(Self.field(entry, "appname") == "beautyd")
            #expect(Self.field(entry, "category") == "x-beautyd.appointment")
            #expect(
                Self.field(entry, "body")?.contains(localClock(start)) == true,
                "body: \(Self.field(entry, "body") ?? "-")")
        }

        @Test("xfce4-notifyd keeps the reminder on screen past its own timeout")
        func xfce4NotifydKeepsTheReminder() async throws {
            let xvfb = try Locations.system("Xvfb", package: "xvfb")
            let xdotool = try Locations.system("xdotool", package: "xdotool")
            let notifyd = try EndToEndTiming.ClickedDose.notifyd()

            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            let shownOn = try await stack.startXvfb(xvfb)
            try await stack.startNotificationServer("xfce4-notifyd", notifyd, display: shownOn)
            try await stack.startDaemon()

            let due = wholeSecond(after: 1.5)
            let added = try stack.addAppointment("Facial", start: tomorrowOnTheHour(), remindAt: [due])
            let id = try #require(added.appointment.id)
            let fired = try await eventually(timeout: .seconds(due.timeIntervalSinceNow + 5)) { () -> Delivery? in
                try stack.client().show(id).deliveries.first { $0.state == .fired }
            }
            try #require(fired != nil, "xfce4-notifyd never took the reminder\n\(stack.logs)")

            let xdo = { (arguments: [String]) in
                try await stack.run(xdotool, arguments, environment: ["DISPLAY": shownOn])
            }
            let popup = { () async throws -> (Int, Int, Int, Int)? in
                try await EndToEndTiming.ClickedDose.popupGeometry(
                    try await xdo(["search", "--onlyvisible", "--name", "^xfce4-notifyd$"]).stdout, xdo)
            }
            var drawn: (Int, Int, Int, Int)?
            for _ in 0..<50 where drawn == nil {
                drawn = try await popup()
                if drawn == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            try #require(drawn != nil, "no xfce4-notifyd popup on \(shownOn)\n\(stack.logs)")
            // xfce4-notifyd's own default timeout (without xfconf) is 10 s.
            try await Task.sleep(for: .seconds(13))
            #expect(try await popup() != nil, "the reminder left the screen before anyone dismissed it\n\(stack.logs)")
        }

        /// `dunstctl history` prints {"type": "aa{sv}", "data": [[{name: {"type", "data"}}, ...]]}.
        static func historyEntries(_ json: String) -> [[String: Any]] {
            guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
                let data = object["data"] as? [[[String: Any]]]
            else { return [] }
            return data.flatMap { $0 }
        }

        static func field(_ entry: [String: Any], _ name: String) -> String? {
            (entry[name] as? [String: Any])?["data"] as? String
        }
    }

    @Suite("beautyctl against the real daemon", .serialized)
    struct Beautyctl {
        @Test("bad arguments exit 2 naming the problem, and store nothing")
        func badArgumentsExit2() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let cases: [(arguments: [String], mentions: [String])] = [
                (["appointment", "add", "Haircut", "--at", "notatime"], ["--at", "notatime"]),
                (["appointment", "add", "", "--at", "2026-12-01 14:00"], ["title"]),
                (["appointment", "add", "Haircut", "--at", "2026-12-01 14:00", "--remind", "5x"], ["--remind", "5x"]),
                (
                    ["appointment", "add", "Haircut", "--at", "2026-12-01 14:00", "--remind-at", "someday"],
                    ["--remind-at", "someday"]
                ),
                (["appointment", "add", "Haircut"], ["--at"]),
                (["appointment", "frobnicate"], ["frobnicate"]),
            ]
            for (arguments, mentions) in cases {
                let result = try await stack.beautyctl(arguments)
                #expect(result.status == .exited(2), "beautyctl \(arguments): \(result)")
                for word in mentions {
                    #expect(result.stderr.contains(word), "beautyctl \(arguments) should mention \(word): \(result)")
                }
            }
            let list = try await stack.beautyctl(["appointment", "list", "--json"])
            #expect(list.status == .exited(0), "\(list)")
            let stored = try WireJSON.decoder().decode([Appointment].self, from: Data(list.stdout.utf8))
            #expect(stored.isEmpty, "a refused command stored something: \(stored)")
        }

        @Test("with no daemon running beautyctl exits 3 and says how to start it")
        func daemonNotRunningExits3() async throws {
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            // The default socket ($XDG_RUNTIME_DIR/beautyd/beautyd.sock) and an explicit --socket.
            for socket in [false, true] {
                let result = try await stack.beautyctl(["status"], socket: socket)
                #expect(result.status == .exited(3), "\(result)")
                #expect(result.stderr.contains(stack.socketPath), "the message should name the socket: \(result)")
                #expect(
                    result.stderr.contains("systemctl --user start beautyd") || result.stderr.contains("beautyd &"),
                    "the message should say how to start the daemon: \(result)")
            }
        }
    }
}
