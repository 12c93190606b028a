import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension Stack {
    /// Xvfb on a display it picks (-displayfd prints its number once it accepts clients); returns ":N".
    func startXvfb(_ xvfb: String) async throws -> String {
        let x = try spawn("Xvfb", xvfb, ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "1024x768x24"])
        let display = await eventually(timeout: .seconds(10)) { () -> String? in
            let out = x.stdout
            guard out.hasSuffix("\n"), let number = Int(out.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                return nil
            }
            return ":\(number)"
        }
        guard let display else { throw HarnessError("Xvfb did not start\n\(x.outputTail)") }
        return display
    }

    /// A real notification server on `display`; returns once it owns org.freedesktop.Notifications.
    func startNotificationServer(_ name: String, _ executable: String, arguments: [String] = [], display: String)
        async throws
    {
        let server = try spawn(name, executable, arguments, environment: ["DISPLAY": display])
        for _ in 0..<200 where server.isRunning {
            if try await busNameHasOwner("org.freedesktop.Notifications") { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw HarnessError("\(name) did not take org.freedesktop.Notifications\n\(logs)")
    }
}

extension EndToEndTiming {
    @Suite("Medications: a real click on xfce4-notifyd's Taken button (Xvfb, xdotool)", .serialized)
    struct ClickedDose {
        /// xfce4-notifyd lives outside PATH (`dpkg -L xfce4-notifyd`); missing, the test fails with what to install.
        static func notifyd() throws -> String {
            let candidates = [
                "/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd",
                "/usr/lib/aarch64-linux-gnu/xfce4/notifyd/xfce4-notifyd",
                "/usr/lib/xfce4/notifyd/xfce4-notifyd", "/usr/libexec/xfce4/notifyd/xfce4-notifyd",
            ]
            guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
                throw HarnessError(
                    "xfce4-notifyd is not installed; the end-to-end tests need it (apt-get install xfce4-notifyd)")
            }
            return found
        }

        @Test("xfce4-notifyd draws Taken/Snooze/Skip; clicking Taken records the dose: history and stock")
        func clickingTakenOnARealServer() async throws {
            let xvfb = try Locations.system("Xvfb", package: "xvfb")
            let xdotool = try Locations.system("xdotool", package: "xdotool")
            let notifyd = try Self.notifyd()

            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            let shownOn = try await stack.startXvfb(xvfb)
            try await stack.startNotificationServer("xfce4-notifyd", notifyd, display: shownOn)
            try await stack.startDaemon()

            let soon = await DueSoon.after(2.5)
            let added = try stack.addMedication("Iron", dose: "2 tablets", soon, stock: 10)
            let fired = await eventually(timeout: .seconds(soon.due.timeIntervalSinceNow + 5)) { () -> Dose? in
                guard let dose = try? stack.dose(added.doseID, of: added.medication.id!), dose.state == .fired else {
                    return nil
                }
                return dose
            }
            try #require(fired != nil, "the dose was never shown\n\(stack.logs)")

            // The popup: xfce4-notifyd's visible window larger than its 1x1 helper.
            let xdo = { (arguments: [String]) in
                try await stack.run(xdotool, arguments, environment: ["DISPLAY": shownOn])
            }
            var popup: (Int, Int, Int, Int)?
            for _ in 0..<50 where popup == nil {
                popup = try await Self.popupGeometry(
                    try await xdo(["search", "--onlyvisible", "--name", "^xfce4-notifyd$"]).stdout, xdo)
                if popup == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            let (left, top, width, height) = try #require(popup, "no xfce4-notifyd popup on \(shownOn)\n\(stack.logs)")
            // Taken, Snooze and Skip share the popup's bottom row, Taken on the left: measured under
            // Xvfb at 297x120, the row's centre is 32 px above the bottom and Taken's 56 px from the left.
            let clickX = left + width * 19 / 100, clickY = top + height - 32
            report("xfce4-notifyd popup \(width)x\(height) at \(left),\(top); clicking Taken at \(clickX),\(clickY)")
            let click = try await xdo(["mousemove", String(clickX), String(clickY), "click", "1"])
            #expect(click.status == .exited(0), "\(click)")

            let taken = await eventually(timeout: .seconds(5)) { () -> Dose? in
                guard let dose = try? stack.dose(added.doseID, of: added.medication.id!), dose.state == .taken else {
                    return nil
                }
                return dose
            }
            try #require(taken != nil, "the click on Taken was not recorded\n\(stack.logs)")
            let history: HistoryResult = try await stack.beautyctlJSON(["history"])
            #expect(
                history.entries.contains { $0.kind == .dose && $0.id == added.doseID && $0.state == "taken" },
                "\(history.entries)")
            #expect(try stack.medication(added.medication.id!).medication.stock == 8, "2 tablets taken from 10")
        }

        /// The first window of `ids` (xdotool's search output) bigger than a few pixels, as (x, y, width, height).
        static func popupGeometry(_ ids: String, _ xdo: ([String]) async throws -> CommandResult) async throws -> (
            Int, Int, Int, Int
        )? {
            for id in ids.split(separator: "\n") {
                let shell = try await xdo(["getwindowgeometry", "--shell", String(id)]).stdout
                var values: [String: Int] = [:]
                for line in shell.split(separator: "\n") {
                    let parts = line.split(separator: "=")
                    if parts.count == 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
                }
                if let x = values["X"], let y = values["Y"], let w = values["WIDTH"], let h = values["HEIGHT"], w > 50,
                    h > 50
                {
                    return (x, y, w, h)
                }
            }
            return nil
        }
    }
}
