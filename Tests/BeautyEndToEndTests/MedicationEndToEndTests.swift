import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A dose due at a chosen whole second a few seconds away. Times of day have minute granularity,
/// so these tests use an `interval` schedule instead: a window starting at the minute before
/// `due`'s minute, every `due - windowStart` seconds, ending at the first whole minute not before
/// `due`. Its first dose (the window's start) is earlier than the moment the medication is added, so
/// it never exists; the second is `due`; a third would fall after the window's end. One dose, on the
/// second, whatever the time of day.
struct DueSoon {
    let due: Date
    let schedule: MedicationSchedule

    init(at due: Date) {
        self.due = due
        let epoch = Int(due.timeIntervalSince1970)
        let windowStart = Date(timeIntervalSince1970: TimeInterval(epoch - epoch % 60 - 60))
        let windowEnd = Date(timeIntervalSince1970: TimeInterval(epoch % 60 == 0 ? epoch : epoch - epoch % 60 + 60))
        schedule = MedicationSchedule(
            kind: .interval, intervalSeconds: epoch - Int(windowStart.timeIntervalSince1970),
            windowStart: Self.clock(windowStart), windowEnd: Self.clock(windowEnd))
    }

    static func clock(_ date: Date) -> ClockTime {
        let parts = LocalTime.calendar(testTimeZone).dateComponents([.hour, .minute], from: date)
        return ClockTime(hour: parts.hour!, minute: parts.minute!)
    }

    /// A whole second at least `seconds` away. Around midnight the window would start on the previous
    /// day (before the medication's first day), so between 23:58 and 00:02 local time this first waits.
    static func after(_ seconds: TimeInterval) async -> DueSoon {
        let calendar = LocalTime.calendar(testTimeZone)
        while true {
            let due = wholeSecond(after: seconds)
            let parts = calendar.dateComponents([.hour, .minute], from: due)
            let minuteOfDay = parts.hour! * 60 + parts.minute!
            if minuteOfDay >= 2, minuteOfDay < 24 * 60 - 2 { return DueSoon(at: due) }
            try? await Task.sleep(for: .seconds(5))
        }
    }
}

extension Stack {
    /// `med.add` over the socket; returns the medication and the id of its dose at `dueSoon.due`.
    func addMedication(
        _ name: String, dose: String, _ dueSoon: DueSoon, stock: Double? = nil, lowStock: Double? = nil,
        notes: String? = nil
    ) throws -> (medication: Medication, doseID: Int64) {
        var params = MedicationAddParams(name: name)
        params.dose = dose
        params.notes = notes
        params.schedule = dueSoon.schedule
        params.stock = stock
        params.lowStock = lowStock
        let detail: MedicationDetail = try client().call("med.add", params)
        guard detail.today.map(\.scheduledAt) == [dueSoon.due], let id = detail.today.first?.id else {
            throw HarnessError("\(name): expected one dose today at \(iso(dueSoon.due)), got \(detail.today)")
        }
        return (detail.medication, id)
    }

    func medication(_ id: Int64) throws -> MedicationDetail { try client().call("med.show", IDParams(id: id)) }

    /// The stored state of one dose (looked up through its medication).
    func dose(_ doseID: Int64, of medicationID: Int64) throws -> Dose? {
        try medication(medicationID).today.first { $0.id == doseID }
    }

    /// `beautyctl ARGS... --json`, decoded.
    func beautyctlJSON<T: Decodable>(_ arguments: [String], as: T.Type = T.self) async throws -> T {
        let result = try await beautyctl(arguments + ["--json"])
        guard result.status == .exited(0) else {
            throw HarnessError("beautyctl \(arguments.joined(separator: " ")): \(result)")
        }
        return try WireJSON.decoder().decode(T.self, from: Data(result.stdout.utf8))
    }
}

extension EndToEndTiming {
    @Suite("Medications: dose notifications, answers, stock, the switch", .serialized)
    struct Medications {
        @Test("a dose is shown on time, critical, with Taken/Snooze/Skip; clicks and beautyctl answers are recorded")
        func doseNotificationsAndAnswers() async throws {
            let stack = try await Stack.start(config: "[scheduling]\nsnooze = \"2s\"\n")
            defer { stack.shutdown() }
            let watcher = try stack.client(timeout: 10)
            _ = try watcher.roundTrip(#"{"jsonrpc":"2.0","id":1,"method":"subscribe"}"#)

            // Three medications due on the same second.
            let soon = await DueSoon.after(3.5)
            let iron = try stack.addMedication(
                "Iron", dose: "2 tablets", soon, stock: 4, lowStock: 2, notes: "with orange juice")
            let magnesium = try stack.addMedication("Magnesium", dose: "1 tablet", soon)
            let zinc = try stack.addMedication("Zinc", dose: "1 capsule", soon)
            let ids = [iron.doseID, magnesium.doseID, zinc.doseID]

            // Before it is due: still to come today, and the next trigger names the medication.
            let next = try stack.client().status().nextTrigger
            #expect(
                next?.fireAt == soon.due && next?.itemKind == .medication && next?.title == "Iron",
                "status.nextTrigger: \(String(describing: next))")
            let before: NowResult = try await stack.beautyctlJSON(["now"])
            let later = before.laterToday.filter { $0.kind == .medication }
            #expect(
                later.map(\.id) == ids && later.allSatisfy { $0.status == "pending" && $0.start == soon.due },
                "now.laterToday: \(before.laterToday)")
            #expect(later.map(\.address) == ["2 tablets", "1 tablet", "1 capsule"])
            try #require(Date() < soon.due, "setting up took too long for this test to mean anything")

            let shown = await stack.waitForNotifications(3, timeout: .seconds(soon.due.timeIntervalSinceNow + 5))
            try #require(shown.count == 3, "expected three dose notifications, got \(shown)\n\(stack.logs)")
            for (call, (name, dose)) in zip(
                shown, [("Iron", "2 tablets"), ("Magnesium", "1 tablet"), ("Zinc", "1 capsule")])
            {
                #expect(call.summary == "Time for \(name)", "\(call)")
                #expect(call.appName == "beautyd")
                #expect(call.actions == ["taken", "Taken", "snooze", "Snooze", "skip", "Skip"], "\(call)")
                #expect(call.hints.urgency == 2, "a dose must be critical: \(call)")
                #expect(call.expireTimeout == 0, "a dose stays until dismissed: \(call)")
                #expect(call.hints.category == "x-beautyd.medication")
                #expect(
                    call.body.contains(dose) && call.body.contains(localClock(soon.due)),
                    "the body should give the dose and the scheduled time \(localClock(soon.due)): \(call.body)")
                let lateness = call.time - soon.due.timeIntervalSince1970
                report(String(format: "dose lateness (due -> Notify received), %@: %.1f ms", name, lateness * 1000))
                #expect(lateness >= 0, "\(name) was shown \(-lateness) s before its dose was due")
            }
            #expect(shown[0].body.contains("with orange juice"), "notes belong in the body: \(shown[0].body)")

            // Shown and unanswered: the doses should have been taken.
            let after: NowResult = try await stack.beautyctlJSON(["now"])
            #expect(after.overdue.filter { $0.kind == .medication }.map(\.id) == ids, "now.overdue: \(after.overdue)")
            #expect(after.overdue.allSatisfy { $0.status == "fired" }, "\(after.overdue)")

            // Taken, clicked on the server: stored, stock down by the dose's number, one low-stock warning.
            let invoked = ContinuousClock.now
            try await stack.click("taken", on: shown[0].id)
            let taken = try await eventually(timeout: .seconds(3), interval: .milliseconds(2)) { () -> Dose? in
                let dose = try stack.dose(iron.doseID, of: iron.medication.id!)
                return dose?.state == .taken ? dose : nil
            }
            let storedAfter = ContinuousClock.now - invoked
            let stored = try #require(taken, "Taken was not recorded\n\(stack.logs)")
            let storedMs =
                Double(storedAfter.components.seconds) * 1000 + Double(storedAfter.components.attoseconds) / 1e15
            report(String(format: "Invoke(taken) -> dose stored as taken: %.1f ms (dbus-send included)", storedMs))
            let confirmedAt = try #require(stored.confirmedAt)
            #expect(confirmedAt >= soon.due && confirmedAt <= Date())
            #expect(try stack.medication(iron.medication.id!).medication.stock == 2)
            let lowStock = await eventually(timeout: .seconds(3)) { () -> NotifyCall? in
                stack.notifications().first { $0.summary == "Running low: Iron" }
            }
            let warning = try #require(lowStock, "no low-stock notification: \(stack.notifications())\n\(stack.logs)")
            #expect(warning.body.contains("2 left") && warning.body.contains("beautyctl med refill"), "\(warning.body)")
            #expect(warning.hints.category == "x-beautyd.medication")

            // Snooze, clicked: shown again after the configured 2 s, still with the original time.
            let snoozedAt = Date()
            try await stack.click("snooze", on: shown[1].id)
            let again = await eventually(timeout: .seconds(60), interval: .milliseconds(10)) { () -> NotifyCall? in
                stack.notifications().dropFirst(3).first { $0.summary == "Time for Magnesium" }
            }
            let renotified = try #require(again, "Magnesium was not shown again after Snooze\n\(stack.logs)")
            let delay = renotified.time - snoozedAt.timeIntervalSince1970
            report(String(format: "dose snooze 2 s: click -> shown again %.3f s", delay))
            #expect(delay >= 2, "shown again \(delay) s after Snooze (snooze = 2s)")
            #expect(renotified.body.contains(localClock(soon.due)), "\(renotified.body)")
            #expect(renotified.actionKeys == ["taken", "snooze", "skip"] && renotified.hints.urgency == 2)
            // Recorded once the server's answer comes back, which may be after it logged the Notify.
            let refired = await eventually(timeout: .seconds(3)) { () -> Dose? in
                guard let dose = try? stack.dose(magnesium.doseID, of: magnesium.medication.id!), dose.state == .fired
                else { return nil }
                return dose
            }
            #expect(
                refired?.state == .fired,
                "\(String(describing: try? stack.dose(magnesium.doseID, of: magnesium.medication.id!)))")

            // Snooze from the terminal (--for), then Skip clicked on the popup shown again.
            let cliSnooze = try await stack.beautyctl(["dose", "snooze", "\(magnesium.doseID)", "--for", "1s"])
            #expect(cliSnooze.status == .exited(0) && cliSnooze.stdout.contains("Snoozed Magnesium"), "\(cliSnooze)")
            let third = await eventually(timeout: .seconds(4), interval: .milliseconds(10)) { () -> NotifyCall? in
                stack.notifications().filter { $0.summary == "Time for Magnesium" }.dropFirst(2).first
            }
            let thirdCall = try #require(third, "not shown again after `beautyctl dose snooze --for 1s`\n\(stack.logs)")
            try await stack.click("skip", on: thirdCall.id)
            let skipped = try await eventually(timeout: .seconds(3)) { () -> Dose? in
                let dose = try stack.dose(magnesium.doseID, of: magnesium.medication.id!)
                return dose?.state == .skipped ? dose : nil
            }
            #expect(skipped?.confirmedAt != nil, "Skip was not recorded\n\(stack.logs)")

            // From the terminal: skip, and skipping again is refused (exit 1) without changing it (taking
            // it after all would be accepted: a skipped dose can still be taken late).
            let skip = try await stack.beautyctl(["dose", "skip", "\(zinc.doseID)"])
            #expect(skip.status == .exited(0) && skip.stdout.contains("as skipped"), "\(skip)")
            let again2 = try await stack.beautyctl(["dose", "skip", "\(zinc.doseID)"])
            #expect(again2.status == .exited(1) && again2.stderr.contains("already answered"), "\(again2)")
            #expect(try stack.dose(zinc.doseID, of: zinc.medication.id!)?.state == .skipped)
            #expect(try stack.medication(zinc.medication.id!).medication.stock == nil)

            // History (to a future end: doses up to now), CSV, adherence.
            let history: HistoryResult = try await stack.beautyctlJSON([
                "history", "--to", iso(Date().addingTimeInterval(3600)),
            ])
            let doses = history.entries.filter { $0.kind == .dose }
            #expect(doses.map(\.id) == ids, "\(history.entries)")
            #expect(doses.map(\.state) == ["taken", "skipped", "skipped"], "\(doses)")
            #expect(doses.allSatisfy { $0.scheduledAt == soon.due && $0.confirmedAt != nil }, "\(doses)")
            #expect(doses.first?.detail == "2 tablets")
            let adherence = Dictionary(uniqueKeysWithValues: history.adherence.map { ($0.name, $0) })
            #expect(
                adherence["Iron"].map { [$0.taken7, $0.scheduled7, $0.taken30, $0.scheduled30] } == [1, 1, 1, 1],
                "\(history.adherence)")
            #expect(adherence["Zinc"].map { [$0.taken7, $0.scheduled7] } == [0, 1])
            let csv = try await stack.beautyctl(["history", "--csv"])
            #expect(csv.status == .exited(0))
            let rows = csv.stdout.split(separator: "\n")
            #expect(rows.first == "kind,id,title,detail,scheduled,state,confirmed", "\(csv)")
            #expect(
                rows.contains { $0.hasPrefix("dose,\(iron.doseID),Iron,2 tablets,\(iso(soon.due)),taken,") },
                "\(csv.stdout)")

            // Exactly these notifications: three doses, one warning, Magnesium twice more.
            try await Task.sleep(for: .milliseconds(300))
            let all = stack.notifications()
            #expect(all.filter { $0.summary.hasPrefix("Running low") }.count == 1, "\(all)")
            #expect(all.count == 6, "\(all)")

            // What `beautyctl watch` saw, per dose.
            var events: [DaemonEvent] = []
            while events.count < 11, let line = try? watcher.readLine() {
                events.append(try WireJSON.decoder().decode(RPCNotification<DaemonEvent>.self, from: line).params)
            }
            func types(_ dose: Int64) -> [String] {
                events.filter { $0.itemID == dose && $0.type != "low-stock" }.map(\.type)
            }
            #expect(types(iron.doseID) == ["fired", "taken"], "\(events)")
            #expect(
                types(magnesium.doseID) == ["fired", "snoozed", "fired", "snoozed", "fired", "skipped"], "\(events)")
            #expect(types(zinc.doseID) == ["fired", "skipped"], "\(events)")
            #expect(events.filter { $0.type == "low-stock" }.map(\.title) == ["Iron"], "\(events)")
            #expect(events.allSatisfy { $0.key?.hasPrefix("medication/") ?? false }, "\(events)")
        }

        @Test("without the actions capability the body says how to confirm from the terminal")
        func noActionsServer() async throws {
            let stack = try await Stack.start(serverFlags: ["--no-actions"])
            defer { stack.shutdown() }
            let soon = await DueSoon.after(3)
            let added = try stack.addMedication("Vitamin D", dose: "1 capsule", soon)
            let calls = await stack.waitForNotifications(1, timeout: .seconds(soon.due.timeIntervalSinceNow + 5))
            try #require(calls.count == 1, "\(stack.logs)")
            #expect(calls[0].actions.isEmpty, "\(calls[0])")
            #expect(calls[0].hints.urgency == 2)
            #expect(calls[0].body.contains("beautyctl dose taken \(added.doseID)"), "\(calls[0].body)")
            #expect(calls[0].body.contains("1 capsule") && calls[0].body.contains(localClock(soon.due)))

            let taken = try await stack.beautyctl(["dose", "taken", "\(added.doseID)"])
            #expect(taken.status == .exited(0) && taken.stdout.contains("as taken"), "\(taken)")
            #expect(try stack.dose(added.doseID, of: added.medication.id!)?.state == .taken)
        }

        @Test("bad medication input from beautyctl exits 2 naming the option, and stores nothing")
        func badInputExits2() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let cases: [(arguments: [String], mentions: [String])] = [
                (["med", "add", "Iron", "--at", "08:00", "--days", "mon,funday"], ["--days", "funday"]),
                (["med", "add", "Iron", "--every", "0h"], ["--every"]),
                (["med", "add", "Iron", "--at", "08:00", "--cycle", "0/7"], ["--cycle", "0/7"]),
                (
                    ["med", "add", "Iron", "--at", "08:00", "--from", "2026-12-10", "--until", "2026-12-01"],
                    ["--until"]
                ),
                (["med", "add", "Iron", "--stock=-5"], ["--stock"]),
                (["med", "add", "Iron", "--at", "25:00"], ["--at", "25:00"]),
                (["med", "add", "Iron", "--at", "08:00", "--every", "8h"], ["--at", "--every"]),
                (["dose", "snooze", "1", "--for", "soon"], ["--for", "soon"]),
            ]
            for (arguments, mentions) in cases {
                let result = try await stack.beautyctl(arguments)
                #expect(result.status == .exited(2), "beautyctl \(arguments): \(result)")
                for word in mentions {
                    #expect(result.stderr.contains(word), "beautyctl \(arguments) should mention \(word): \(result)")
                }
            }
            let list: [Medication] = try await stack.beautyctlJSON(["med", "list"])
            #expect(list.isEmpty, "a refused command stored something: \(list)")
            let missing = try await stack.beautyctl(["dose", "taken", "99"])
            #expect(missing.status == .exited(4) && missing.stderr.contains("no dose with id 99"), "\(missing)")

            // The switch through beautyctl (what it silences: BeautyDaemonTests).
            let off = try await stack.beautyctl(["notifications", "off"])
            #expect(off.status == .exited(0) && off.stdout.contains("off"), "\(off)")
            let on = try await stack.beautyctl(["notifications", "on"])
            #expect(on.status == .exited(0) && on.stdout.contains("on"), "\(on)")
            let status = try await stack.beautyctl(["notifications"])
            #expect(status.stdout.contains("Notifications are on"), "\(status)")
        }
    }
}
