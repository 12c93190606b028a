import BeautyTestSupport
import Foundation
import Testing

/// The man pages config/setup.sh installs, made by config/man-pages.sh from the built programs and
/// swift-argument-parser's generate-manual (which alone would drop every non-ASCII character), read
/// as the user reads them: rendered by man-db's `man -l`. ArgumentParser's help of --help and
/// --version comes from the catalogs.
struct ManPageLanguage: Sendable, CustomTestStringConvertible {
    var code: String
    /// Texts each rendered page holds, by program.
    var says: [String: [String]]

    var testDescription: String { code }

    static let polish = ManPageLanguage(
        code: "pl",
        says: [
            "beautyctl": [
                "beautyctl — Planuj wizyty kosmetyczne i dostawaj przypomnienia na pulpicie na czas.",
                "Wizyta całodniowa (godzina z --at jest pomijana).",
                "Przypomnij tyle czasu przed początkiem; można powtórzyć (np. --remind 1d --remind 2h).",
                "status Czy demon działa, co dalej, czy ma dostęp do serwera powiadomień.",
            ],
            "beautyd": [
                "beautyd — Demon beautyd: przechowuje wizyty i na czas wyświetla przypomnienia na pulpicie.",
                "--config path Plik konfiguracyjny.", "-h, --help Pokaż pomoc.",
            ],
        ])
    static let slovak = ManPageLanguage(
        code: "sk",
        says: [
            "beautyctl": [
                "beautyctl — Plánujte kozmetické návštevy a dostávajte včas pripomienky na pracovnej ploche.",
                "Celodenná návšteva (čas z --at sa ignoruje).",
                "status Či démon beží, čo je na rade a či je dostupný server upozornení.",
            ],
            "beautyd": [
                "beautyd — Démon beautyd: uchováva návštevy a včas zobrazuje pripomienky na ploche.",
                "--config path Konfiguračný súbor.", "--version Zobraziť verziu.",
            ],
        ])
    static let english = ManPageLanguage(
        code: "en",
        says: [
            "beautyctl": [
                "beautyctl — Plan beauty appointments and get desktop reminders on time.",
                "'jutro 10:00', 'pojutrze', 'dziś', 'zajtra 9.15', 'dnes', weekdays 'pt 15:00', 'środa', 'št', 'piatok'",
                "amounts '10 zł', '1 234,50 zł', 'PLN 10', '10,50 €', '€10'",
            ],
            "beautyd": ["beautyd — The beautyd daemon: keeps appointments and fires desktop reminders on time."],
        ])
}

@Suite("config/man-pages.sh writes beautyctl.1 and beautyd.1 in English, Polish and Slovak, every character kept")
struct TranslatedManPageTests {
    @Test(arguments: [ManPageLanguage.polish, .slovak, .english])
    func pagesKeepEveryCharacter(language: ManPageLanguage) async throws {
        let scratch = try ScratchDirectory()
        let man = try Locations.system("man", package: "man-db")
        for program in ["generate-manual", "beautyctl", "beautyd"] { _ = try Locations.built(program) }
        let environment = ["PATH": "/usr/bin:/bin", "HOME": scratch.path]
        let pages = try scratch.sub("pages")
        let made = try await scratch.run(
            Locations.file("config/man-pages.sh"), [language.code, Locations.binDirectory, pages],
            environment: environment)
        #expect(made.status == .exited(0), "\(made)")

        for (program, texts) in language.says.sorted(by: { $0.key < $1.key }) {
            let source = try String(contentsOfFile: "\(pages)/\(program).1", encoding: .utf8)
            #expect(source.firstRange(of: /UNI[0-9A-F]{6}X/) == nil, "a token left in \(program).1")
            // Wide enough that no sentence is broken (and hyphenated) across lines.
            let rendered = try await scratch.run(
                man, ["-l", "\(pages)/\(program).1"],
                environment: environment.merging(["LANG": "C.UTF-8", "MANWIDTH": "1000"]) { $1 })
            #expect(rendered.status == .exited(0), "\(rendered)")
            let text = rendered.stdout.replacing(/\s+/, with: " ")
            for expected in texts { #expect(text.contains(expected), "\(language.code) \(program).1") }
        }
    }
}
