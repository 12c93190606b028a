import BeautyCore
import BeautyTestSupport
import Foundation
import Testing

/// Lines a Polish or Slovak user met in English until they were translated, each read back through
/// real beautyctl against the real daemon: the daemon not running, empty water lists and the goal,
/// notifications on, a medication's weekdays and dates (typed DD.MM.YYYY), a dose's state, a saved
/// measurement (typed with a day word and DD.MM.YYYY), the calendar view, a category typed by its title.
struct LeftoverExpectations: Sendable, CustomTestStringConvertible {
    var locale: String
    var notRunning: String
    var noWater: String
    var goal: String
    var notificationsOn: String
    var days: String
    var schedule: String
    var dates: String
    var taken: String
    var yesterday: String
    var saved: String
    var calendarHeader: String
    var allDay: String
    /// A built-in category typed by its title, without diacritics, and how `appointment show` names it.
    var category: String
    var categoryShown: String

    var testDescription: String { locale }

    static let polish = LeftoverExpectations(
        locale: "pl_PL.UTF-8",
        notRunning: "beautyctl: beautyd nie działa (nie można połączyć się z ",
        noWater: "Dziś nie zapisano jeszcze wody.\n",
        goal: "Dzienny cel picia wody: 2\u{00A0}000 ml.\n", notificationsOn: "Powiadomienia są włączone.\n",
        days: "pon,śr,pt", schedule: "  plan:      o 08:00 w dni: pon,śr,pt\n",
        dates: "  daty:      od 02.12.2030 do 31.01.2031\n",
        taken: " — zapisano stan: przyjęta, czas: ", yesterday: "wczoraj",
        saved: "Zapisano 24.11.2025: 62,5 kg, BMI 22,1 (wartość prawidłowa), wzrost 168 cm",
        calendarHeader: "pt. 06.12.2030\n", allDay: "całodn.│■ Spa",
        category: "wlosy/KOLORYZACJA", categoryShown: "  kategoria: Koloryzacja (hair/colour)\n")
    static let slovak = LeftoverExpectations(
        locale: "sk_SK.UTF-8",
        notRunning: "beautyctl: beautyd nebeží (nedá sa pripojiť k ",
        noWater: "Dnes zatiaľ nie je zapísaná žiadna voda.\n",
        goal: "Denný cieľ pitia vody: 2\u{00A0}000 ml.\n", notificationsOn: "Upozornenia sú zapnuté.\n",
        days: "po,st,pi", schedule: "  rozpis:    o 08:00 v dni: po,st,pi\n",
        dates: "  dátumy:    od 02.12.2030 do 31.01.2031\n",
        taken: " — zaznamenaný stav: užitá, čas: ", yesterday: "včera",
        saved: "Uložené 24.11.2025: 62,5 kg, BMI 22,1 (normálna hmotnosť), výška 168 cm",
        calendarHeader: "pi 06.12.2030\n", allDay: "celod. │■ Spa",
        category: "Vlasy/farbenie", categoryShown: "  kategória: Farbenie (hair/colour)\n")
}

extension EndToEndTiming {
    @Suite("Polish and Slovak: lines that were left in English", .serialized)
    struct LanguageLeftovers {
        @Test(arguments: [LeftoverExpectations.polish, .slovak])
        func whatWasEnglish(language: LeftoverExpectations) async throws {
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            stack.locale = language.locale
            let down = try await stack.beautyctl(["status"])
            #expect(down.status == .exited(3) && down.stderr.hasPrefix(language.notRunning), "\(down)")
            try await stack.startDaemon()

            #expect(try await stack.beautyctlOK(["water", "list"]).stdout == language.noWater)
            #expect(try await stack.beautyctlOK(["water", "goal", "2000"]).stdout == language.goal)
            #expect(try await stack.beautyctlOK(["notifications", "on"]).stdout == language.notificationsOn)

            let soon = Date().addingTimeInterval(3 * 3600)
            let clock = Timestamps(zone: testTimeZone).clock(soon)
            _ = try await stack.beautyctlOK(["med", "add", "Magnez", "--at", clock])
            let taken = try await stack.beautyctlOK(["dose", "taken", "1"])
            #expect(taken.stdout.contains(language.taken), "\(taken)")

            let med = try await stack.beautyctlOK([
                "med", "add", "Witamina D", "--at", "08:00", "--days", language.days,
                "--from", "2.12.2030", "--until", "31.01.2031",
            ])
            #expect(med.stdout.contains(language.schedule) && med.stdout.contains(language.dates), "\(med)")

            _ = try await stack.beautyctlOK([
                "measure", "add", "--weight", "63", "--height", "168", "--date", language.yesterday,
            ])
            let saved = try await stack.beautyctlOK(["measure", "add", "--weight", "62,5", "--date", "24.11.2025"])
            #expect(saved.stdout.hasPrefix(language.saved), "\(saved)")

            let coloured = try await stack.beautyctlOK([
                "appointment", "add", "Henna", "--at", "2030-12-05 10:00", "--category", language.category,
            ])
            #expect(coloured.stdout.contains(language.categoryShown) && coloured.stderr.isEmpty, "\(coloured)")
            _ = try await stack.beautyctlOK(["appointment", "add", "Spa", "--at", "2030-12-06", "--all-day"])
            let calendar = try await stack.beautyctlOK(["calendar", "--day", "2030-12-06", "--no-color"])
            #expect(
                calendar.stdout.hasPrefix(language.calendarHeader) && calendar.stdout.contains(language.allDay),
                "\(calendar)")
        }
    }
}
