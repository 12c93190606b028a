import BeautyCore
import BeautyLocalization
import Foundation
import Testing

/// What an import reports and what the daemon re-wraps reach a Polish or Slovak user in their
/// language: a warning keeps its template and arguments, a wrapped error keeps the inner one as a
/// message of its own, and a word inside a message is a message too, never English text.
@Suite struct TranslatedImportMessageTests {
    private func localizer(_ language: Language) throws -> Localizer {
        Localizer(language: language, catalog: try CatalogCoverageTests.catalog(language))
    }

    private func refusal(_ body: () throws -> Void) -> ValidationError? {
        do { try body(); return nil } catch { return error as? ValidationError }
    }

    @Test func importWarningsKeepTheirTemplate() throws {
        let ics = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            BEGIN:VEVENT\r
            UID:a@example.org\r
            DTSTART:20301206T130000Z\r
            LOCATION:Salon\\nul. Długa 5\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let read = try ICalendar.read(ics, defaultZone: TimeZone(identifier: "Europe/Warsaw")!)
        #expect(read.warnings.map(\.line) == [3, 6], "\(read.warnings)")
        #expect(
            read.warnings.map(\.message) == [
                "VEVENT has no SUMMARY: imported with the title '(no title)'",
                "LOCATION has line breaks: kept on one line as 'Salon, ul. Długa 5'",
            ])
        #expect(
            try read.warnings.map { $0.message(try localizer(.polish)) } == [
                "VEVENT nie ma SUMMARY: zaimportowano z tytułem „(bez tytułu)”",
                "LOCATION zawiera podziały wierszy: zapisano w jednym wierszu jako „Salon, ul. Długa 5”",
            ])
        #expect(
            try read.warnings[0].message(try localizer(.slovak))
                == "VEVENT nemá SUMMARY: importované s názvom „(bez názvu)“")
        #expect(
            try read.warnings[1].message(try localizer(.slovak))
                == "LOCATION obsahuje zalomenia riadkov: uložené na jednom riadku ako „Salon, ul. Długa 5“")
    }

    @Test func aMalformedLineIsReportedInTheUsersLanguage() throws {
        var problem: LineError?
        do {
            _ = try ICalendar.read("BEGIN:VCALENDAR\r\nthis is no property\r\nEND:VCALENDAR\r\n", defaultZone: .gmt)
        } catch let error as LineError {
            problem = error
        }
        #expect(
            problem?.line == 2 && problem?.message == "'this is no property' is not a content line NAME:VALUE (no ':')",
            "\(String(describing: problem))")
        #expect(
            try problem?.message(try localizer(.polish))
                == "„this is no property” to nie wiersz treści NAZWA:WARTOŚĆ (brak „:”)")
        let water = try #require(refusalOfWater("uuid,amount_ml,start\nx,250\n"))
        #expect(water.message == "expected 3 fields, found 2")
        #expect(water.message(try localizer(.slovak)) == "počet polí: 2, očakávaný: 3")
        // A field's error inside a line keeps the field's own template.
        let amount = try #require(refusalOfWater("uuid,amount_ml,start\nx,abc,2030-01-15T08:30:00Z\n"))
        #expect(
            amount.message(try localizer(.polish)) == "amount_ml: „abc” to nie ilość wody (np. 250, 250,5 lub 0,5 l)",
            "\(amount)")
    }

    private func refusalOfWater(_ csv: String) -> LineError? {
        do { _ = try WaterImport.parse(csv, zone: .gmt); return nil } catch {
            return (error as? WaterImportError)?.problems.first
        }
    }

    @Test func aFilesEscapeSequenceNeverReachesTheTerminal() throws {
        let esc = "\u{1B}]0;owned\u{07}"
        var problems: [LineError] = []
        do { _ = try VCard.read("BEGIN:VCARD\r\nFN:A\r\nEND:VCA\(esc)RD\r\n") } catch let error as LineError {
            problems.append(error)
        }
        do {
            _ = try WaterImport.parse(
                "uuid,amount_ml,start\na,2\(esc)50,2030-01-15T08:30:00Z\n", zone: TimeZone(identifier: "Europe/Warsaw")!
            )
        } catch let error as WaterImportError { problems += error.problems }
        #expect(problems.count == 2, "\(problems)")
        for problem in problems {
            for language in [Language.english, .polish, .slovak] {
                let shown = problem.message(language == .english ? .english : try localizer(language))
                #expect(!shown.unicodeScalars.contains { $0.value < 0x20 }, "\(language): \(shown.debugDescription)")
                #expect(shown.lowercased().contains("]0;owned?"), "\(language): \(shown.debugDescription)")
            }
        }
    }

    @Test func aWrappedErrorKeepsTheInnerTemplate() throws {
        let inner = try #require(refusal { _ = try Validation.name("", field: "title") })
        let wrapped = inner.within("appointments[3]", naming: "Manicure")
        #expect(
            wrapped.field == "appointments[3].title" && wrapped.message == "must not be empty (Manicure)", "\(wrapped)")
        #expect(wrapped.text(try localizer(.polish)) == "nie może być puste (Manicure)")
        #expect(wrapped.text(try localizer(.slovak)) == "nesmie byť prázdne (Manicure)")
        // On the wire as the daemon codes it, and back as a client reads it.
        let wire = try JSONEncoder().encode(try #require(wrapped.translatable))
        let read = try JSONDecoder().decode(TranslatableText.self, from: wire)
        #expect(
            String(decoding: wire, as: UTF8.self).contains(#""argTexts":[{"#),
            "\(String(decoding: wire, as: UTF8.self))")
        #expect(read.rendered(try localizer(.polish)) == "nie może być puste (Manicure)")
        #expect(read.args == ["must not be empty", "Manicure"], "a client that does not translate fills in English")
        // A list item's error without a name keeps its own template as it is.
        #expect(inner.within("records[2]").text(try localizer(.polish)) == "nie może być puste")
        // An error made as plain English text is wrapped as text.
        #expect(
            ValidationError(field: "x", "odd").within("contacts[0]", naming: "Anna").text(try localizer(.polish))
                == "odd (Anna)")
    }

    @Test func wordsInsideAMessageAreTranslated() throws {
        let range = refusal {
            try Validation.range(
                from: "2026-12-10", to: "2026-12-01", .closed, toField: "until",
                fromName: .message(TranslatableText("the start date", [])))
        }
        #expect(range?.message == "must not be before the start date 2026-12-10")
        #expect(range?.text(try localizer(.polish)) == "nie może być przed datą rozpoczęcia 2026-12-10")
        #expect(range?.text(try localizer(.slovak)) == "nesmie byť pred dátumom začiatku 2026-12-10")
        let instant = refusal { _ = try WaterImport.instant("2030-02-30T08:00:00+01:00", zone: .gmt, field: "start") }
        #expect(
            instant?.message
                == "'2030-02-30T08:00:00+01:00' is not a valid date and time (ISO 8601 such as 2030-01-15T08:30:00+01:00)"
        )
        #expect(
            instant?.text(try localizer(.polish))
                == "„2030-02-30T08:00:00+01:00” to nie poprawna data i godzina (ISO 8601, np. 2030-01-15T08:30:00+01:00)"
        )
        let amount = refusal { _ = try WaterAmount.parse("abc") }
        #expect(amount?.message == "'abc' is not an amount of water (e.g. 250, 250,5 or 0.5 l)")
        #expect(amount?.text(try localizer(.slovak)) == "„abc“ nie je množstvo vody (napr. 250, 250,5 alebo 0,5 l)")
    }
}
