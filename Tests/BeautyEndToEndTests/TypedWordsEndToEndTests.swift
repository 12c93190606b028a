import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndBus {
    @Suite("Values typed in Polish, Slovak or English, whatever the language: real beautyctl and beautyd", .serialized)
    struct TypedWords {
        @Test(
            "--color różowy/ružová, --status odwołana/naplánovaná, --kind wizyta, --clear kolor, message potwierdź/objednať; shown translated"
        )
        func valuesInEveryLanguage() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let polish = "pl_PL.UTF-8", slovak = "sk_SK.UTF-8"
            let added = try await stack.beautyctlJSON(
                ["appointment", "add", "Koloryzacja", "--at", "2030-03-04 10:00", "--color", "różowy"],
                lang: polish, as: AppointmentDetail.self)
            #expect(added.appointment.color == "pink")
            // Slovak words under Polish, and the other way round.
            let slovakColour = try await stack.beautyctlJSON(
                ["appointment", "add", "Manikúra", "--at", "2030-03-05 10:00", "--color", "ružová"],
                lang: polish, as: AppointmentDetail.self)
            #expect(slovakColour.appointment.color == "pink")
            let shownPl = try await stack.beautyctl(["appointment", "show", "1"], lang: polish)
            #expect(
                shownPl.status == .exited(0) && shownPl.stdout.contains("różowy") && !shownPl.stdout.contains("pink"),
                "\(shownPl)")
            let shownSk = try await stack.beautyctl(["appointment", "show", "1"], lang: slovak)
            #expect(shownSk.stdout.contains("ružová") && !shownSk.stdout.contains("pink"), "\(shownSk)")

            let cancel = try await stack.beautyctl(["appointment", "cancel", "2"], lang: polish)
            #expect(cancel.status == .exited(0), "\(cancel)")
            let cancelled = try await stack.beautyctlJSON(
                ["appointment", "list", "--status", "odwołana"], lang: slovak, as: [Appointment].self)
            #expect(cancelled.map(\.id) == [2], "\(cancelled)")
            let planned = try await stack.beautyctlJSON(
                ["appointment", "list", "--status", "naplánovaná"], lang: polish, as: [Appointment].self)
            #expect(planned.map(\.id) == [1], "\(planned)")
            let agenda = try await stack.beautyctlJSON(
                [
                    "agenda", "--from", "2030-03-01", "--to", "2030-04-01", "--kind", "wizyta",
                    "--status", "zaplanowana",
                ], lang: slovak, as: AgendaResult.self)
            #expect(agenda.entries.map(\.id) == [1], "\(agenda.entries)")

            let cleared = try await stack.beautyctlJSON(
                ["appointment", "edit", "1", "--clear", "kolor"], lang: slovak, as: AppointmentDetail.self)
            #expect(cleared.appointment.color == nil)

            for (word, lang, template) in [
                ("potwierdź", polish, MessageTemplate.confirm), ("objednať", "C.UTF-8", .book),
                ("zrušiť", polish, .cancel),
            ] {
                let message = try await stack.beautyctlJSON(
                    ["message", word, "1"], lang: lang, as: ContactMessageResult.self)
                #expect(message.template == template, "\(word)")
            }
            let refused = try await stack.beautyctl(["appointment", "edit", "1", "--color", "kolorowy"], lang: polish)
            #expect(refused.status != .exited(0) && refused.stderr.contains("kolorowy"), "\(refused)")
        }

        @Test("contact edit --clear nazwisko/e-mail/address and med edit --clear dávka/zapas/low, in any of en, pl, sk")
        func clearTakesEveryLanguage() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let polish = "pl_PL.UTF-8", slovak = "sk_SK.UTF-8"
            _ = try await stack.beautyctlOK([
                "contact", "add", "Salon Anna", "--phone", "+48 600 100 200", "--email", "anna@example.com",
                "--first", "Anna", "--last", "Nowak", "--address", "Długa 1",
            ])
            let contact = try await stack.beautyctlJSON(
                ["contact", "edit", "1", "--clear", "nazwisko", "--clear", "e-mail", "--clear", "adresa"],
                lang: slovak, as: Contact.self)
            #expect(
                contact.lastName == nil && contact.email == nil && contact.address == nil
                    && contact.firstName == "Anna", "\(contact)")
            let firstName = try await stack.beautyctlJSON(
                ["contact", "edit", "1", "--clear", "meno"], lang: polish, as: Contact.self)
            #expect(firstName.firstName == nil, "\(firstName)")

            _ = try await stack.beautyctlOK([
                "med", "add", "Magnez", "--dose", "1 tabletka", "--at", "08:00", "--stock", "30", "--low", "5",
            ])
            let med = try await stack.beautyctlJSON(
                ["med", "edit", "1", "--clear", "dávka", "--clear", "zapas", "--clear", "low stock"],
                lang: polish, as: MedicationDetail.self)
            #expect(
                med.medication.dose == nil && med.medication.stock == nil && med.medication.lowStock == nil, "\(med)")

            let refused = try await stack.beautyctl(["med", "edit", "1", "--clear", "kolor"], lang: polish)
            #expect(refused.status == .exited(2) && refused.stderr.contains("kolor"), "\(refused)")
        }
    }
}
