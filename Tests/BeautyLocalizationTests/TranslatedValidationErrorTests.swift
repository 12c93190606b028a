import BeautyCore
import BeautyLocalization
import Foundation
import Testing

/// Errors of the parsers, which were English strings, reach a Polish or Slovak user in their language:
/// beautyctl renders an error's template and arguments (`data.text`, `data.args`) with its catalog.
@Suite struct TranslatedValidationErrorTests {
    private func refusal(_ body: () throws -> Any) -> ValidationError? {
        do { _ = try body(); return nil } catch { return error as? ValidationError }
    }

    private func rendered(_ error: ValidationError?, _ language: Language) throws -> String? {
        guard let error, let template = error.template else { return nil }
        return Localizer(language: language, catalog: try CatalogCoverageTests.catalog(language)).trArray(
            template, error.arguments)
    }

    /// A file beautyctl writes itself (an export) fails with Foundation's error, whose system error is
    /// shown in the user's language as everywhere else.
    @Test func aWriteThatFailsSaysTheSystemsErrorInTheUsersLanguage() throws {
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/export.ics")
        let polish = Localizer(language: .polish, catalog: try CatalogCoverageTests.catalog(.polish))
        let slovak = Localizer(language: .slovak, catalog: try CatalogCoverageTests.catalog(.slovak))
        do {
            try Data("x".utf8).write(to: missing, options: .atomic)
            Issue.record("\(missing.path) was written")
        } catch {
            #expect(SystemErrorText.text(of: error, polish) == "Nie ma takiego pliku ani katalogu", "\(error)")
            #expect(SystemErrorText.text(of: error, slovak) == "Taký súbor ani priečinok neexistuje", "\(error)")
        }
        #expect(
            SystemErrorText.text(of: CocoaError(.fileReadCorruptFile), polish)
                == CocoaError(.fileReadCorruptFile).localizedDescription)
    }

    @Test func durationWithoutAUnit() throws {
        let error = refusal { try DurationParser.seconds("90") }
        #expect(error?.message == "'90' needs a unit: s, m, h, d or w (e.g. 90m)")
        #expect(try rendered(error, .polish) == "„90” wymaga jednostki: s, m, h, d lub w (np. 90m)")
        #expect(try rendered(error, .slovak) == "„90“ potrebuje jednotku: s, m, h, d alebo w (napr. 90m)")
    }

    @Test func anAmbiguousAmount() throws {
        let error = refusal { try MoneyParser.parse("10,500", defaultCurrency: "PLN") }
        #expect(
            error?.message
                == "'10,500' is ambiguous: 10.50 or 10500? Write 10,50 for the first, 10 500 or 10500 for the second")
        #expect(
            try rendered(error, .polish)
                == "„10,500” jest niejednoznaczne: 10.50 czy 10500? Dla pierwszej kwoty napisz 10,50, dla drugiej 10 500 lub 10500"
        )
        #expect(
            try rendered(error, .slovak)
                == "„10,500“ je nejednoznačné: 10.50 alebo 10500? Pre prvú sumu napíšte 10,50, pre druhú 10 500 alebo 10500"
        )
    }

    @Test func aWeekdayClash() throws {
        // 'po' is Monday in Slovak, "after" in Polish: a Polish user is told so, with the days in Polish.
        let error = refusal { try DayWords.parse("po", language: .polish, field: "--on") as Any }
        #expect(
            error?.message.hasPrefix("'po' is \"after\" in Polish, not Monday (for Monday write ") == true,
            "\(error?.message ?? "accepted")")
        let polish = try rendered(error, .polish)
        #expect(
            polish?.hasPrefix("„po” to po polsku przyimek, a nie poniedziałek (poniedziałek zapisz jako ") == true,
            "\(polish ?? "")")
    }

    @Test func aDayWithoutATime() throws {
        let now = ISO8601DateFormatter().date(from: "2026-11-25T09:00:00Z")!
        let warsaw = TimeZone(identifier: "Europe/Warsaw")!
        let polish = refusal {
            try TimeExpression.parse("pt", now: now, zone: warsaw, field: "--at", language: .polish, dayAlone: .refused)
        }
        #expect(polish?.message == "'pt' names a day (Friday 27 November 2026) but no time: add one, e.g. 'pt 15:00'")
        #expect(
            try rendered(polish, .polish)
                == "„pt” to dzień (piątek, 27 listopada 2026), ale bez godziny: dodaj ją, np. „pt 15:00”")
        let slovak = refusal {
            try TimeExpression.parse("pi", now: now, zone: warsaw, field: "--at", language: .slovak, dayAlone: .refused)
        }
        #expect(
            try rendered(slovak, .slovak)
                == "„pi“ je deň (piatok 27. novembra 2026), ale bez času: pridajte ho, napr. „pi 15:00“")
    }

    @Test func aTimeOrADate() throws {
        let now = ISO8601DateFormatter().date(from: "2026-11-25T09:00:00Z")!
        let error = refusal {
            try TimeExpression.parse(
                "1.2", now: now, zone: TimeZone(identifier: "Europe/Warsaw")!, field: "--at", language: .slovak)
        }
        #expect(
            try rendered(error, .slovak)
                == "„1.2“ je nejednoznačné: čas 01:02 alebo dátum 1. februára? (napíšte „01:02“ pre čas, „1.2.“ alebo „1.2.RRRR“ pre dátum)"
        )
    }
}
