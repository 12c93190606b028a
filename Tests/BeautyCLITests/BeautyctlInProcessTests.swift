@testable import BeautyCLI
import BeautyCore
import BeautyProtocol
import Foundation
import Testing

/// beautyctl's commands as a user types them, run in process against the daemon's request handler:
/// what each prints and its exit code (README: 1 refused, 2 usage, 4 no such item). The texts are
/// checked in English: beautyctl takes its language from the process's environment once, as it starts.
@Suite("beautyctl in process", .enabled(if: Output.l.language == .english, "the test process runs in English"))
struct BeautyctlInProcessTests {
    @Test("appointment add, list, show, edit and rm print what was done")
    func appointmentLifecycle() async throws {
        let beautyctl = try InProcessBeautyctl()
        let added = await beautyctl(
            "appointment", "add", "Haircut", "--at", "2030-03-04 10:00", "--duration", "45m", "--price", "120",
            "--remind", "1h")
        #expect(added.code == 0 && added.output.contains("Added appointment 1."), "\(added)")

        let list = await beautyctl("appointment", "list")
        #expect(list.code == 0 && list.output.contains("Haircut") && list.output.contains("10:00"), "\(list)")

        let shown = await beautyctl("appointment", "show", "1")
        #expect(shown.code == 0, "\(shown)")
        #expect(shown.output.hasPrefix("Appointment 1: Haircut\n"), "\(shown)")
        #expect(shown.output.contains("10:00–10:45 (45m)"), "\(shown)")
        #expect(shown.output.contains("  reminder:  "), "\(shown)")

        let edited = await beautyctl("appointment", "edit", "1", "--title", "Haircut and colour")
        #expect(edited.code == 0 && edited.output.contains("Updated appointment 1."), "\(edited)")
        let json = await beautyctl("appointment", "show", "1", "--json")
        let detail = try WireJSON.decoder().decode(AppointmentDetail.self, from: Data(json.output.utf8))
        #expect(detail.appointment.title == "Haircut and colour")

        let removed = await beautyctl("appointment", "rm", "1", "--yes")
        #expect(removed.code == 0 && removed.output.contains("1"), "\(removed)")
        let gone = await beautyctl("appointment", "show", "1")
        #expect(gone.code == 4 && gone.output.isEmpty, "\(gone)")
        #expect(gone.error.hasPrefix("beautyctl: ") && gone.error.contains("1"), "\(gone)")
    }

    @Test("med add and list; dose taken --med --due records the dose and counts the stock down")
    func medicationAndDose() async throws {
        let beautyctl = try InProcessBeautyctl()
        let added = await beautyctl(
            "med", "add", "Iron", "--dose", "2 tablets", "--at", "08:00", "--stock", "10", "--json")
        #expect(added.code == 0, "\(added)")
        let detail = try WireJSON.decoder().decode(MedicationDetail.self, from: Data(added.output.utf8))
        let id = try #require(detail.medication.id)
        let next = try #require(detail.upcoming.first)

        let list = await beautyctl("med", "list")
        #expect(list.code == 0 && list.output.contains("Iron") && list.output.contains("08:00"), "\(list)")

        let taken = await beautyctl(
            "dose", "taken", "--med", String(id), "--due", WireJSON.formatInstant(next), "--yes")
        #expect(taken.code == 0 && taken.output.contains("Iron") && taken.output.contains("8 left"), "\(taken)")
        let again = await beautyctl(
            "dose", "taken", "--med", String(id), "--due", WireJSON.formatInstant(next), "--yes")
        #expect(again.code == 1 && again.error.contains("already answered"), "\(again)")
    }

    @Test("appointment done and cancel, dose skip: what they print, and --json")
    func markingAndSkipping() async throws {
        let beautyctl = try InProcessBeautyctl()
        _ = await beautyctl("appointment", "add", "Haircut", "--at", "2030-03-04 10:00")
        _ = await beautyctl("appointment", "add", "Manicure", "--at", "2030-03-05 10:00")
        let done = await beautyctl("appointment", "done", "1")
        #expect(done.code == 0 && done.output == "Appointment 1 'Haircut' is done.\n", "\(done)")
        let cancelled = await beautyctl("appointment", "cancel", "2", "--json")
        let detail = try WireJSON.decoder().decode(AppointmentDetail.self, from: Data(cancelled.output.utf8))
        #expect(cancelled.code == 0 && detail.appointment.status == .cancelled, "\(cancelled)")
        let missing = await beautyctl("appointment", "done", "9")
        #expect(missing.code == 4, "\(missing)")

        let added = await beautyctl("med", "add", "Zinc", "--at", "08:00", "--stock", "5", "--json")
        let med = try WireJSON.decoder().decode(MedicationDetail.self, from: Data(added.output.utf8))
        let due = WireJSON.formatInstant(try #require(med.upcoming.first))
        let skipped = await beautyctl(
            "dose", "skip", "--med", String(try #require(med.medication.id)), "--due", due, "-y")
        #expect(
            skipped.code == 0 && skipped.output.hasPrefix("Recorded Zinc") && skipped.output.contains("skipped"),
            "\(skipped)")
    }

    @Test("budget add, list and balance")
    func budget() async throws {
        let beautyctl = try InProcessBeautyctl()
        let spent = await beautyctl("budget", "add", "Shampoo", "12.99", "--at", "2030-03-04 10:00")
        #expect(spent.code == 0 && spent.output.hasPrefix("Added ") && spent.output.contains("Shampoo"), "\(spent)")
        let earned = await beautyctl("budget", "add", "Salary", "3200", "--income", "--at", "2030-03-01 10:00")
        #expect(earned.code == 0, "\(earned)")

        let list = await beautyctl("budget", "list", "--csv")
        #expect(list.code == 0, "\(list)")
        let lines = list.output.split(separator: "\n")
        #expect(
            lines.count == 3 && lines.contains { $0.contains("Shampoo") } && lines.contains { $0.contains("Salary") })

        let balance = await beautyctl("budget", "balance", "--json")
        #expect(balance.code == 0 && balance.output.contains("318701"), "\(balance)")
    }

    @Test("contact add and list; water add")
    func contactAndWater() async throws {
        let beautyctl = try InProcessBeautyctl()
        let contact = await beautyctl("contact", "add", "Salon Anna", "--phone", "+48 600 100 200")
        #expect(contact.code == 0 && contact.output == "Added contact 1: Salon Anna, +48 600 100 200.\n", "\(contact)")
        let contacts = await beautyctl("contact", "list")
        #expect(contacts.code == 0 && contacts.output.contains("Salon Anna"), "\(contacts)")

        let water = await beautyctl("water", "add", "250")
        #expect(water.code == 0 && water.output.contains("250"), "\(water)")
    }

    @Test("agenda lists an appointment of the days asked for, and nothing outside them")
    func agenda() async throws {
        let beautyctl = try InProcessBeautyctl()
        _ = await beautyctl("appointment", "add", "Manicure", "--at", "2030-03-04 14:00")
        let inside = await beautyctl("agenda", "--from", "2030-03-04", "--to", "2030-03-05")
        #expect(inside.code == 0 && inside.output.contains("Manicure"), "\(inside)")
        let outside = await beautyctl("agenda", "--from", "2030-04-01", "--to", "2030-04-02")
        #expect(outside.code == 0 && !outside.output.contains("Manicure"), "\(outside)")
    }

    @Test("exit codes: 4 no such item, 1 refused by beautyd, 2 usage error; the message on standard error")
    func exitCodes() async throws {
        let beautyctl = try InProcessBeautyctl()
        let missing = await beautyctl("med", "show", "99")
        #expect(missing.code == 4 && missing.output.isEmpty && missing.error.contains("99"), "\(missing)")

        // beautyd checks the length before it looks for the dose.
        let refused = await beautyctl("dose", "snooze", "1", "--for", "2d")
        #expect(refused.code == 1 && refused.output.isEmpty, "\(refused)")
        #expect(refused.error == "beautyctl: forSeconds: must be between 1 second and 1 day\n", "\(refused)")

        let unknownOption = await beautyctl("appointment", "add", "Haircut", "--bogus")
        #expect(
            unknownOption.code == 2 && unknownOption.error.hasPrefix("Error: Unknown option '--bogus'"),
            "\(unknownOption)")

        let twice = await beautyctl("appointment", "list", "--from", "2030-01-01", "--from", "2030-02-01")
        #expect(twice.code == 2 && twice.error.contains("given twice"), "\(twice)")

        let help = await beautyctl("budget", "--help")
        #expect(help.code == 0 && help.output.contains("USAGE: beautyctl budget") && help.error.isEmpty, "\(help)")
    }
}
