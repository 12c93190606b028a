import BeautyLocalization
import Foundation
import Testing

/// The wording a native-level reader of Polish and Slovak corrected (issue 24), kept corrected.
@Suite struct ReviewedWordingTests {
    static let corrected: [(Language, String?, String, String)] = [
        (.polish, nil, "Beauty tip: %s", "Porada kosmetyczna: %s"),
        (.polish, nil, "Later today:", "Jeszcze dziś:"),
        (.polish, nil, "Recorded %s as %s.", "Dawka: %s — zapisano stan: %s."),
        (.polish, nil, "dose %s of %s was already answered: %s", "dawka %s (%s) ma już stan: %s"),
        (.polish, nil, "  reminders:     %s pending", "  przypomnienia: oczekujące: %s"),
        (.polish, nil, "Added %s.", "Dodano %s."),
        (.polish, "duration unit", "d", "dn."),
        (.polish, nil, "Only this month (YYYY-MM).", "Tylko ten miesiąc (RRRR-MM)."),
        (.slovak, nil, "%s — scheduled %s", "%s — plánovaný čas: %s"),
        (.slovak, nil, "not scheduled (time already passed)", "nenaplánovaná (čas už uplynul)"),
        (.slovak, nil, "Reminder %s of %s: not confirmed yet", "Pripomienka %s z %s: dávka zatiaľ nie je potvrdená"),
        (.slovak, nil, "Recorded %s as %s.", "Dávka: %s — zaznamenaný stav: %s."),
        (.slovak, nil, "%s: %s in stock.", "%s: v zásobe %s."),
        (.slovak, nil, "Today so far: %s of %s ml (%s%%).", "Dnes zatiaľ: %s z %s ml (%s\u{00A0}%%)."),
        (.slovak, nil, "%s of %s ml (%s%%)", "%s z %s ml (%s\u{00A0}%%)"),
        (.slovak, nil, "Later today:", "Ešte dnes:"),
        (.slovak, nil, "%s I want to confirm my visit (%s) %s.", "%s potvrdzujem svoj termín (%s) %s."),
        // A count of a file's events or contacts stands in parentheses, never before a noun whose form it decides.
        (
            .polish, nil,
            "%s: its %s events are more than one import holds (%s); split the file into parts of at most %s events and import them one after another (nothing was imported)",
            "%s: plik zawiera więcej wydarzeń (%s), niż mieści jeden import (%s); podziel go na części po najwyżej %s wydarzeń i zaimportuj je kolejno (nic nie zaimportowano)"
        ),
        (
            .slovak, nil,
            "%s: its %s events are more than one import holds (%s); split the file into parts of at most %s events and import them one after another (nothing was imported)",
            "%s: súbor obsahuje viac udalostí (%s), než pojme jeden import (%s); rozdeľte ho na časti s najviac %s udalosťami a importujte ich jednu po druhej (nič sa neimportovalo)"
        ),
        (
            .polish, nil,
            "its %s contacts are more than one request to beautyd holds (%s bytes); the %s before this card fit: split the file here and import the parts one after another",
            "plik zawiera więcej kontaktów (%s), niż mieści jedno żądanie do beautyd (%s bajtów); wizytówki przed tą (%s) się mieszczą: podziel plik w tym miejscu i zaimportuj części jedną po drugiej"
        ),
        (.polish, nil, "  repeats:   %s", "  terminy:   %s"),
        (.slovak, nil, "  repeats:   %s", "  termíny:   %s"),
        (.polish, nil, "One beauty tip.", "Jedna porada kosmetyczna."),
        (.slovak, nil, "  next:          nothing scheduled", "  ďalšia:        nič nie je naplánované"),
        (.slovak, nil, "--as-needed takes no --days or --cycle", "--as-needed sa nedá kombinovať s --days ani --cycle"),
    ]

    /// No count of the file's items right before the noun it would have to inflect ("jego 300 000 wydarzeń").
    @Test func noCountBeforeAnInflectedNounInARefusal() throws {
        for language in Language.translated {
            let wrong = try CatalogCoverageTests.catalog(language).entries.filter { entry in
                entry.forms.contains { $0.range(of: #"\b(jego|jeho) %s \p{L}"#, options: .regularExpression) != nil }
            }
            #expect(wrong.isEmpty, "\(language): \(wrong.map(\.forms))")
        }
    }

    @Test func theCorrectedWordingStays() throws {
        for (language, context, id, expected) in Self.corrected {
            let forms = try CatalogCoverageTests.catalog(language).forms(context: context, id: id)
            #expect(forms == [expected], "\(language) \(id)")
        }
    }

    @Test(arguments: Language.translated)
    func noInformalOrForeignWordsInSlovak(language: Language) throws {
        guard language == .slovak else { return }
        let catalog = try CatalogCoverageTests.catalog(language)
        let wrong = catalog.entries.filter { entry in
            entry.forms.contains { form in
                form.range(of: #"\bpozri\b|CZK| zł|\bna sklade\b|každých 2 h\b|[0-9]%"#, options: .regularExpression)
                    != nil
            }
        }
        #expect(wrong.isEmpty, "\(wrong.map(\.forms))")
    }

    /// A `show` block's labels line up: every msgid label padded to one width gets a translation padded
    /// to one width too (wider than the English where a word needs it).
    @Test(arguments: Language.translated)
    func showLabelsLineUp(language: Language) throws {
        let catalog = try CatalogCoverageTests.catalog(language)
        let label = try NSRegularExpression(pattern: #"^  [^ :][^:]*: +(?=\S)"#)
        func width(_ text: String) -> Int? {
            label.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)).map { $0.range.length }
        }
        var widths: [Int: Set<Int>] = [:]
        var examples: [Int: [String]] = [:]
        for entry in catalog.entries where entry.id.hasPrefix("  ") && !entry.id.hasPrefix("   ") {
            guard let english = width(entry.id), let form = entry.forms.first, let translated = width(form) else {
                continue
            }
            widths[english, default: []].insert(translated)
            examples[english, default: []].append(form)
        }
        let misaligned = widths.filter { $0.value.count > 1 }
        #expect(
            misaligned.isEmpty,
            "\(language): labels padded to one width in English, to several here: \(misaligned.keys.map { examples[$0]! })"
        )
    }
}
