import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

/// What a Polish or Slovak user reads, with `LANG` set as their session sets it (LANGUAGE,
/// LC_ALL, LC_MESSAGES unset): the reminder popup from the real daemon, the SMS templates, `now`,
/// `agenda`, `bmi`, `water total`, `budget balance` and an error from the daemon, through real
/// beautyctl; and `LANG=C` in English.
struct SpokenLanguage: Sendable, CustomTestStringConvertible {
    var locale: String
    var popupDay: String
    var snooze: String
    var sms: String
    var now: String
    var agendaDay: String
    var agendaCount: String
    var bmi: String
    var water: String
    var balance: String
    var notFound: String
    var badPhone: String
    var helpOverview: String

    var testDescription: String { locale }

    static let polish = SpokenLanguage(
        locale: "pl_PL.UTF-8", popupDay: "piątek, 6 grudnia 2030, 14:00–15:00 (1 godz.)", snooze: "Później",
        sms:
            "Salon Bella, dzień dobry! Chcę umówić wizytę (Manicure) w piątek, 6 grudnia 2030 o godz. 14:00. Czy ten termin jest wolny?",
        now: "Teraz: ", agendaDay: "pt. 06.12.2030", agendaCount: "1 wizyta.",
        bmi: "BMI 22,1: wartość prawidłowa (18,5 ≤ BMI < 25)\n", water: "Dziś: 250 ml, 1 napój.\n",
        balance: "PLN     0,00       1\u{00A0}234,50  -1\u{00A0}234,50",
        notFound: "beautyctl: nie ma wizyty o id 999\n",
        badPhone: "„abc” to nie numer telefonu", helpOverview: "OPIS: Planuj wizyty kosmetyczne")
    static let slovak = SpokenLanguage(
        locale: "sk_SK.UTF-8", popupDay: "piatok 6. decembra 2030, 14:00–15:00 (1 h)", snooze: "Odložiť",
        sms:
            "Dobrý deň, chcem sa objednať na návštevu (Manicure) v piatok 6. decembra 2030 o 14:00. Dáte mi, prosím, vedieť, či je termín voľný?",
        now: "Teraz: ", agendaDay: "pi 06.12.2030", agendaCount: "1 návšteva.",
        bmi: "BMI 22,1: normálna hmotnosť (18,5 ≤ BMI < 25)\n", water: "Dnes: 250 ml, 1 nápoj.\n",
        balance: "EUR   0,00    1\u{00A0}234,50  -1\u{00A0}234,50",
        notFound: "beautyctl: návšteva s id 999 neexistuje\n",
        badPhone: "„abc“ nie je telefónne číslo", helpOverview: "PREHĽAD: Plánujte kozmetické návštevy")
}

extension EndToEndTiming {
    @Suite(
        "Polish and Slovak from LANG: the popup, SMS, now, agenda, bmi, water, budget, errors; LANG=C in English",
        .serialized)
    struct Languages {
        @Test(arguments: [SpokenLanguage.polish, .slovak])
        func whatTheUserReads(language: SpokenLanguage) async throws {
            let stack = try await Stack.start(daemon: false)
            defer { stack.shutdown() }
            stack.locale = language.locale
            try await stack.startDaemon()
            _ = try await stack.beautyctlOK(["contact", "add", "Salon Bella", "--phone", "+48 600 100 200"])
            let due = wholeSecond(after: 6)
            _ = try await stack.beautyctlOK([
                "appointment", "add", "Manicure", "--at", "06.12.2030 14.00", "--contact", "1",
                "--remind-at", iso(due),
            ])

            let popup = try #require(await stack.waitForNotifications(1, timeout: .seconds(20)).first)
            #expect(popup.summary == "Manicure" && popup.body.hasPrefix(language.popupDay), "\(popup)")
            #expect(
                popup.body.contains("Salon Bella, +48 600 100 200") && popup.actions.contains(language.snooze),
                "\(popup)")

            let sms = try await stack.beautyctlOK(["message", "book", "1"])
            #expect(sms.stdout.hasPrefix(language.sms + "\n"), "\(sms)")
            let now = try await stack.beautyctlOK(["now"])
            #expect(now.stdout.hasPrefix(language.now), "\(now)")
            let agenda = try await stack.beautyctlOK(["agenda", "--from", "2030-12-01", "--to", "2030-12-10"])
            #expect(
                agenda.stdout.hasPrefix(language.agendaDay + "\n")
                    && agenda.stdout.hasSuffix("\n" + language.agendaCount + "\n"),
                "\(agenda)")
            let bmi = try await stack.beautyctlOK(["bmi", "--weight", "62,5", "--height", "168"])
            #expect(bmi.stdout == language.bmi, "\(bmi)")
            _ = try await stack.beautyctlOK(["water", "add", "250"])
            let water = try await stack.beautyctlOK(["water", "total"])
            #expect(water.stdout == language.water, "\(water)")
            _ = try await stack.beautyctlOK(["budget", "add", "Krem", "1234,50"])
            let balance = try await stack.beautyctlOK(["budget", "balance"])
            #expect(balance.stdout.contains(language.balance), "\(balance)")
            let json = try await stack.beautyctlOK(["budget", "balance", "--json"])
            #expect(json.stdout.contains("\"expenseCents\" : 123450"), "--json stays locale-independent: \(json)")

            let missing = try await stack.beautyctl(["appointment", "show", "999"])
            #expect(missing.status == .exited(4) && missing.stderr == language.notFound, "\(missing)")
            let phone = try await stack.beautyctl(["contact", "edit", "1", "--phone", "abc"])
            #expect(phone.status != .exited(0) && phone.stderr.contains(language.badPhone), "\(phone)")
            // What each command does is translated, under ArgumentParser's headings translated too (ToolkitTextEndToEndTests).
            let help = try await stack.beautyctlOK(["--help"])
            #expect(help.stdout.hasPrefix(language.helpOverview), "\(help)")
        }

        @Test(
            "[ui] language of the config, applied by a reload (SIGHUP), sets the daemon's language and default currency"
        )
        func configLanguageAppliedOnReload() async throws {
            let stack = try await Stack.start(daemon: false)
            defer { stack.shutdown() }
            stack.locale = "C"
            let daemon = try await stack.startDaemon()
            try stack.writeConfig("[ui]\nlanguage = \"pl\"\n")
            // The socket listens a moment before SIGHUP is trapped; "ready" is said after (systemd
            // sends no reload before it), and a SIGHUP before that would end the daemon.
            let ready = await eventually(timeout: .seconds(10)) { daemon.stderr.contains(" ready: ") ? true : nil }
            try #require(ready == true, "\(daemon.outputTail)")
            daemon.signal(SIGHUP)
            let reloaded = await eventually(timeout: .seconds(10)) {
                daemon.stderr.contains("configuration reloaded") ? true : nil
            }
            #expect(reloaded == true, "\(daemon.outputTail)")
            let due = wholeSecond(after: 4)
            _ = try stack.addAppointment(
                "Henna", start: LocalTime.instant(year: 2030, month: 12, day: 4, hour: 9, in: testTimeZone)!,
                remindAt: [due])
            let popup = try #require(await stack.waitForNotifications(1, timeout: .seconds(20)).first)
            #expect(
                popup.body.hasPrefix("środa, 4 grudnia 2030, 09:00–10:00") && popup.actions.contains("Zamknij"),
                "\(popup)")
            let entry: BudgetEntry = try await stack.beautyctlJSON(["budget", "add", "Henna", "30"])
            #expect(entry.amount.currency == "PLN", "\(entry)")
        }

        @Test func lang_C_staysEnglish() async throws {
            let stack = try await Stack.start(daemon: false)
            defer { stack.shutdown() }
            stack.locale = "C"
            try await stack.startDaemon()
            _ = try await stack.beautyctlOK(["appointment", "add", "Manicure", "--at", "2030-12-06 14:00"])
            let agenda = try await stack.beautyctlOK(["agenda", "--from", "2030-12-01", "--to", "2030-12-10"])
            #expect(agenda.stdout.hasPrefix("Fri 6 Dec 2030\n") && agenda.stdout.hasSuffix("\n1 visit.\n"), "\(agenda)")
            let bmi = try await stack.beautyctlOK(["bmi", "--weight", "62,5", "--height", "168"])
            #expect(bmi.stdout == "BMI 22.1: normal weight (18.5 ≤ BMI < 25)\n", "\(bmi)")
            let missing = try await stack.beautyctl(["appointment", "show", "999"])
            #expect(missing.stderr == "beautyctl: no appointment with id 999\n", "\(missing)")
            let help = try await stack.beautyctlOK(["--help"])
            #expect(
                help.stdout.hasPrefix("OVERVIEW: Plan beauty appointments and get desktop reminders on time."),
                "\(help)")
            let sms = try await stack.beautyctlOK(["message", "confirm", "1"])
            #expect(
                sms.stdout.hasPrefix("Hello, I want to confirm my visit (Manicure) on Fri 6 Dec 2030 at 14:00.\n"),
                "\(sms)")
        }
    }
}
