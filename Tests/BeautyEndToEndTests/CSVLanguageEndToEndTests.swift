import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndBus {
    @Suite("CSV for scripts: the same in every language, formulas inert: real beautyctl and beautyd", .serialized)
    struct CSVLanguage {
        @Test(
            "budget, appointment and med lists print the same CSV under pl, sk and C: 4500.00, English schedule, codes")
        func csvIsLanguageIndependent() async throws {
            let stack = try await Stack.start(server: false, config: "[money]\ncurrency = \"PLN\"\n")
            defer { stack.shutdown() }
            _ = try await stack.beautyctlOK(["budget", "add", "Laser", "4500", "--at", "2030-01-05 09:00"])
            _ = try await stack.beautyctlOK([
                "appointment", "add", "Koloryzacja", "--at", "2030-03-04 10:00", "--price", "1234,50",
            ])
            _ = try await stack.beautyctlOK(["med", "add", "Witamina D", "--at", "08:00", "--days", "mon,fri"])
            for arguments in [["budget", "list"], ["appointment", "list"], ["med", "list"]] {
                let english = try await stack.beautyctlOK(arguments + ["--csv"]).stdout
                for lang in ["pl_PL.UTF-8", "sk_SK.UTF-8"] {
                    let translated = try await stack.beautyctl(arguments + ["--csv"], lang: lang)
                    #expect(
                        translated.status == .exited(0) && translated.stdout == english,
                        "\(lang) \(arguments): \(translated) vs \(english)")
                }
            }
            let budget = try await stack.beautyctl(["budget", "list", "--csv"], lang: "pl_PL.UTF-8").stdout
            #expect(budget.contains(",expense,-4500.00,PLN,Laser,"), "\(budget)")
            let appointments = try await stack.beautyctl(["appointment", "list", "--csv"], lang: "pl_PL.UTF-8").stdout
            #expect(appointments.contains(",1234.50,PLN,"), "\(appointments)")
            let meds = try await stack.beautyctl(["med", "list", "--csv"], lang: "sk_SK.UTF-8").stdout
            #expect(meds.contains("at 08:00 on mon,fri"), "\(meds)")
        }

        @Test(
            "issue 21: titles such as =HYPERLINK(...) and @SUM(...) come out of --csv with a leading ' (OWASP CSV injection)"
        )
        func formulaTitlesAreInert() async throws {
            let stack = try await Stack.start(server: false, config: "[money]\ncurrency = \"PLN\"\n")
            defer { stack.shutdown() }
            _ = try await stack.beautyctlOK([
                "budget", "add", "=HYPERLINK(\"http://evil.example\",\"click\")", "12", "--at", "2030-01-05 09:00",
            ])
            _ = try await stack.beautyctlOK([
                "appointment", "add", "@SUM(1+1)", "--at", "2030-03-04 10:00", "--notes", "+cmd|' /C calc'!A0",
            ])
            _ = try await stack.beautyctlOK(["contact", "add", "@Salon", "--phone", "+48 600 100 200"])
            let budget = try await stack.beautyctlOK(["budget", "list", "--csv"]).stdout
            #expect(budget.contains(#",-12.00,PLN,"'=HYPERLINK(""http://evil.example"",""click"")","#), "\(budget)")
            let appointments = try await stack.beautyctlOK(["appointment", "list", "--csv"]).stdout
            #expect(
                appointments.contains(",'@SUM(1+1),") && appointments.contains(",'+cmd|' /C calc'!A0"),
                "\(appointments)")
            let contacts = try await stack.beautyctlOK(["contact", "list", "--csv"]).stdout
            #expect(contacts.contains("1,'@Salon,'+48 600 100 200,"), "\(contacts)")
            let agenda = try await stack.beautyctlOK([
                "agenda", "--from", "2030-03-01", "--to", "2030-04-01", "--kind", "appointment", "--csv",
            ]).stdout
            #expect(agenda.contains(",'@SUM(1+1),"), "\(agenda)")
        }
    }
}
