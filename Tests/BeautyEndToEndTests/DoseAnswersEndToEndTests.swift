import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndTiming {
    @Suite("Medications: late and early answers, every dose answerable, logged doses", .serialized)
    struct DoseAnswers {
        @Test("a dose missed after the nag cycle stays in now and is taken late with --at: history, adherence, stock")
        func aMissedDoseIsTakenLate() async throws {
            let stack = try await Stack.start(config: "[medications]\nnag_interval = \"1s\"\nnag_count = 0\n")
            defer { stack.shutdown() }
            let soon = await DueSoon.after(2.5)
            let (medication, doseID) = try stack.addMedication("Antibiotic", dose: "1 capsule", soon, stock: 10)
            let missed = await eventually(timeout: .seconds(soon.due.timeIntervalSinceNow + 6)) { () -> Dose? in
                guard let dose = try? stack.dose(doseID, of: medication.id!), dose.state == .missed else { return nil }
                return dose
            }
            try #require(missed != nil, "the dose was not given up as missed\n\(stack.logs)")

            // Still in view, under "should have been taken".
            let before: NowResult = try await stack.beautyctlJSON(["now"])
            #expect(
                before.overdue.contains { $0.id == doseID && $0.status == "missed" }, "now.overdue: \(before.overdue)")
            let text = try await stack.beautyctl(["now"])
            #expect(
                text.stdout.contains("Should have been taken:") && text.stdout.contains("dose \(doseID)  Antibiotic"),
                "\(text)")

            // Taken late, at the real time.
            let takenAt = soon.due.addingTimeInterval(1)
            let answer = try await stack.beautyctl(["dose", "taken", String(doseID), "--at", iso(takenAt)])
            #expect(
                answer.status == .exited(0) && answer.stdout.contains("as taken") && answer.stdout.contains("9 left"),
                "\(answer)")
            let detail = try stack.medication(medication.id!)
            #expect(detail.medication.stock == 9)
            #expect(
                detail.adherence?.taken7 == 1 && detail.adherence?.scheduled7 == 1,
                "\(String(describing: detail.adherence))")
            let history: HistoryResult = try await stack.beautyctlJSON(["history"])
            let entry = history.entries.first { $0.kind == .dose && $0.id == doseID }
            #expect(entry?.state == "taken" && entry?.confirmedAt == takenAt, "history: \(history.entries)")
            let after: NowResult = try await stack.beautyctlJSON(["now"])
            #expect(!after.overdue.contains { $0.id == doseID }, "a taken dose is no longer overdue: \(after.overdue)")

            // Taken once: a second answer changes nothing.
            let again = try await stack.beautyctl(["dose", "taken", String(doseID)])
            #expect(again.status == .exited(1) && again.stderr.contains("already answered: taken"), "\(again)")
        }

        @Test("a dose taken early is in history and adherence, and med show no longer names it as next")
        func aDoseTakenEarly() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let calendar = LocalTime.calendar(testTimeZone)
            let later = Date().addingTimeInterval(3 * 3600)
            let clock = String(
                format: "%02d:%02d", calendar.component(.hour, from: later), calendar.component(.minute, from: later))
            let added: MedicationDetail = try await stack.beautyctlJSON([
                "med", "add", "Iron", "--dose", "2 tablets", "--at", clock, "--stock", "10",
            ])
            let id = try #require(added.medication.id)
            let next = try #require(added.upcoming.first)
            let agenda = try await stack.doseAgenda(from: iso(Date()), to: iso(Date().addingTimeInterval(86_400)))
            let dose = try #require(agenda.first { $0.start == next }, "agenda: \(agenda)")
            #expect(dose.id != 0)

            let taken = try await stack.beautyctl(["dose", "taken", String(dose.id)])
            #expect(taken.status == .exited(0) && taken.stdout.contains("8 left"), "\(taken)")
            let history: HistoryResult = try await stack.beautyctlJSON(["history"])
            #expect(
                history.entries.contains { $0.kind == .dose && $0.id == dose.id && $0.state == "taken" },
                "history: \(history.entries)")
            #expect(
                history.adherence.first { $0.medicationID == id }.map { ($0.taken7, $0.scheduled7) } ?? (0, 0) == (
                    1, 1
                ),
                "adherence: \(history.adherence)")
            let shown: MedicationDetail = try await stack.beautyctlJSON(["med", "show", String(id)])
            #expect(shown.upcoming.first != next, "the dose taken early is still listed as next: \(shown.upcoming)")
            let text = try await stack.beautyctl(["med", "show", String(id)])
            #expect(!text.stdout.contains("next:      \(Timestamps(zone: testTimeZone).long(next))"), "\(text)")
        }

        @Test(
            "a dose the agenda plans beyond the stored rows has no id 0 to use: --med/--due answers it, and then it has an id"
        )
        func everyAgendaDoseCanBeAnswered() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let added: MedicationDetail = try await stack.beautyctlJSON([
                "med", "add", "Vitamin D", "--dose", "1 capsule", "--at", "08:00", "--stock", "5",
            ])
            let med = try #require(added.medication.id)
            let calendar = LocalTime.calendar(testTimeZone)
            let day = calendar.date(byAdding: .day, value: 5, to: calendar.startOfDay(for: Date()))!
            let range = (iso(day), iso(calendar.date(byAdding: .day, value: 1, to: day)!))
            let planned = try #require(try await stack.doseAgenda(from: range.0, to: range.1).first)
            #expect(planned.id == 0 && planned.medicationID == med, "\(planned)")
            let text = try await stack.beautyctl(["agenda", "--from", range.0, "--to", range.1, "--doses"])
            let due = Timestamps(zone: testTimeZone).short(planned.start)
            #expect(text.stdout.contains("dose -  Vitamin D (1 capsule) — planned (med \(med))"), "\(text)")
            #expect(
                text.stdout.contains("beautyctl dose taken|skip --med \(med) --due '\(due)'"),
                "the agenda says how to answer it: \(text)")

            let skipped = try await stack.beautyctl(["dose", "skip", "--med", String(med), "--due", due])
            #expect(skipped.status == .exited(0) && skipped.stdout.contains("as skipped"), "\(skipped)")
            let after = try #require(try await stack.doseAgenda(from: range.0, to: range.1).first)
            #expect(after.id != 0 && after.status == "skipped" && after.start == planned.start, "\(after)")
            let again = try await stack.beautyctl(["dose", "taken", String(after.id)])
            #expect(again.status == .exited(0) && again.stdout.contains("4 left"), "its id answers it: \(again)")

            let none = try await stack.beautyctl([
                "dose", "taken", "--med", String(med), "--due",
                Timestamps(zone: testTimeZone).short(planned.start.addingTimeInterval(60)),
            ])
            #expect(none.status == .exited(1) && none.stderr.contains("has no dose at"), "\(none)")
            let usage = try await stack.beautyctl(["dose", "taken", "1", "--med", String(med)])
            #expect(usage.status == .exited(2), "\(usage)")
        }

        @Test("dose log records an as-needed dose taken now or --at: history, adherence and stock count it")
        func anAsNeededDoseIsLogged() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let added: MedicationDetail = try await stack.beautyctlJSON([
                "med", "add", "Ibuprofen", "--dose", "2 tablets", "--as-needed", "--stock", "20",
            ])
            let med = try #require(added.medication.id)
            let byName = try await stack.beautyctl(["dose", "log", "ibuprofen"])
            #expect(
                byName.status == .exited(0) && byName.stdout.contains("Logged dose")
                    && byName.stdout.contains("18 left"), "\(byName)")
            let earlier = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 3600).rounded(.down))
            let logged: DoseResult = try await stack.beautyctlJSON(["dose", "log", String(med), "--at", iso(earlier)])
            #expect(
                logged.dose.state == .taken && logged.dose.confirmedAt == earlier && logged.dose.scheduledAt == earlier,
                "\(logged)")
            #expect(logged.medication.stock == 16)

            let history: HistoryResult = try await stack.beautyctlJSON(["history"])
            let doses = history.entries.filter { $0.kind == .dose && $0.title == "Ibuprofen" }
            #expect(doses.count == 2 && doses.allSatisfy { $0.state == "taken" }, "history: \(history.entries)")
            #expect(history.adherence.first { $0.medicationID == med }?.taken7 == 2, "\(history.adherence)")
            let twice = try await stack.beautyctl(["dose", "log", String(med), "--at", iso(earlier)])
            #expect(twice.status == .exited(1) && twice.stderr.contains("already has dose"), "\(twice)")
            let unknown = try await stack.beautyctl(["dose", "log", "Aspirin"])
            #expect(unknown.status == .exited(4), "\(unknown)")
        }
    }
}
