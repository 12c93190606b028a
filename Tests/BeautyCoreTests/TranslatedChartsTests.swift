import BeautyCore
import BeautyLocalization
import Foundation
import Testing

/// The charts, the calendar view and the typed day in Polish and Slovak: decimal commas, local day
/// names, plural forms, translated labels (English stays as MeasurementChartTests, BudgetChartTests
/// and CalendarViewTests pin it).
@Suite("Charts, calendar view, typed days, amounts and tip categories in Polish and Slovak")
struct TranslatedChartsTests {
    let polish = Localizer.forLanguage(.polish)
    let slovak = Localizer.forLanguage(.slovak)
    let month = CalendarMonth(year: 2026, month: 11)

    func points(_ days: [Int]) -> [ChartPoint] {
        days.enumerated().map { index, day in
            ChartPoint(day: LocalDate(year: 2026, month: 11, day: day), value: 62.5 + Double(index) * 0.25)
        }
    }

    @Test func weightChartSummaryWithCommasDaysAndPluralForms() {
        let text = MeasurementChart.text(points([3, 20]), month: month, unit: .kg, localizer: polish)
        #expect(text.hasPrefix("Masa ciała [kg], listopad 2026\n62,8 ┤\n62,7 ┤"), "\(text)")
        #expect(
            text.hasSuffix("2 dni z danymi: min. 62,5 kg (3.11), maks. 62,75 kg (20.11), ostatnio 62,75 kg (20.11)\n"),
            "\(text)")
        let one = MeasurementChart.text(points([3]), month: month, unit: .kg, localizer: slovak)
        #expect(
            one.hasSuffix("1 deň s údajmi: min. 62,5 kg (3. 11.), max. 62,5 kg (3. 11.), naposledy 62,5 kg (3. 11.)\n"),
            "\(one)")
        let five = MeasurementChart.text(points([1, 2, 3, 4, 5]), month: month, unit: .bmi, localizer: slovak)
        #expect(five.contains("\n5 dní s údajmi: min. 62,5 (1. 11.)"), "\(five)")
    }

    @Test func svgChartsSpeakTheLanguage() {
        let weight = MeasurementChart.svg(points([3]), month: month, unit: .kg, localizer: polish)
        #expect(
            weight.contains(">Dzień miesiąca: listopad 2026</text>")
                && weight.contains("<title>wt. 03.11.2026: 62,5 kg</title>"), "\(weight)")
        #expect(!weight.contains("Day of") && !weight.contains(">62.5"), "\(weight)")
        let budget = BudgetChart.svg(
            [BudgetChart.Row(currency: "PLN", incomeCents: 120_000, expenseCents: 60_000)], title: "Bilans",
            localizer: polish)
        #expect(
            budget.contains("<title>Wydatki: 600,00 PLN</title>") && budget.contains(">Bilans: +600,00 PLN</text>"),
            "\(budget)")
        #expect(BudgetChart.svg([], title: "Bilancia", localizer: slovak).contains(">Žiadne položky rozpočtu</text>"))
    }

    @Test func calendarViewNamesTheDayAndTheAllDayRow() {
        let zone = TimeZone(identifier: "Europe/Warsaw")!
        let monday = LocalDate(year: 2030, month: 1, day: 7)
        let spa = CalendarView.Entry(
            title: "Spa", start: monday.start(in: zone), end: monday.adding(days: 1).start(in: zone), allDay: true)
        let now = LocalTime.instant(year: 2030, month: 1, day: 7, hour: 11, in: zone)!
        let text = CalendarView.render([spa], days: [monday], zone: zone, now: now, width: 40, localizer: polish)
        #expect(text.hasPrefix("pon. 07.01.2030 (dziś)\ncałodn.│■ Spa"), "\(text)")
        let week = CalendarView.render(
            [], days: CalendarView.week(containing: monday, zone: zone), zone: zone, now: now, width: 80,
            localizer: slovak)
        #expect(week.hasPrefix("po 07.01.2030 – ne 13.01.2030\n       │*po 7"), "\(week)")
    }

    @Test func daysAreTypedAsPolishAndSlovakWriteThem() throws {
        #expect(try LocalDate(typed: "25.11.2026", field: "--from") == LocalDate(year: 2026, month: 11, day: 25))
        #expect(try LocalDate(typed: "5.1.2027", field: "--from") == LocalDate(year: 2027, month: 1, day: 5))
        #expect(try LocalDate(typed: "2027-01-05", field: "--from") == LocalDate(year: 2027, month: 1, day: 5))
        for bad in ["31.02.2026", "25.11.", "25.11.26", "2026.11.25"] {
            #expect(throws: ValidationError.self, "\(bad)") { try LocalDate(typed: bad, field: "--from") }
        }
        // The wire and the database keep ISO 8601 days only.
        #expect(throws: ValidationError.self) { try LocalDate(parsing: "25.11.2026") }
        #expect(
            [Weekday.mon, .wed, .fri].map { DayWords.abbreviation($0.number, language: .polish) } == [
                "pon", "śr", "pt",
            ])
        #expect([Weekday.thu, .sun].map { DayWords.abbreviation($0.number, language: .slovak) } == ["št", "ne"])
        #expect(DayWords.abbreviation(Weekday.sat.number, language: .english) == "sat")
    }

    @Test func importProblemsInTheReadersLanguage() {
        let zone = TimeZone(identifier: "Europe/Warsaw")!
        let file = "uuid,amount_ml,start\na,abc,2026-11-20T08:00:00Z\nb,250,5,2026-11-20T09:00:00Z\n"
        do {
            _ = try WaterImport.parse(file, zone: zone)
            Issue.record("a bad file was read")
        } catch let error as WaterImportError {
            #expect(
                error.located(in: "w.csv", polish) == [
                    "w.csv:2: amount_ml: „abc” to nie ilość wody (np. 250, 250,5 lub 0,5 l)",
                    "w.csv:3: liczba pól: 4, a powinna być: 3 (liczbę z przecinkiem dziesiętnym ujmij w cudzysłów: \"250,5\")",
                ])
            #expect(error.description.hasPrefix("line 2: amount_ml: 'abc' is not an amount of water"), "\(error)")
        } catch {
            Issue.record("\(error)")
        }
        #expect(throws: WaterImportError.self) { try WaterImport.parse("", zone: zone) }
        do {
            _ = try VCard.read("BEGIN:VCARD\r\nFN:A\r\nBEGIN:VCARD\r\n")
            Issue.record("an unclosed card was read")
        } catch let error as LineError {
            #expect(
                error.line == 3
                    && error.message(slovak) == "BEGIN:VCARD vnútri vizitky začatej na riadku 1 (chýba END:VCARD)",
                "\(error)")
            #expect(error.message == "BEGIN:VCARD inside the card begun at line 1 (missing END:VCARD)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func anAmbiguousAmountWritesItsDecimalMeaningAsTheReaderDoes() {
        for (language, meaning) in [(Language.polish, "10,50"), (.slovak, "10,50"), (.english, "10.50")] {
            do {
                _ = try MoneyParser.parse("10,500 zł", defaultCurrency: "", field: "amount", language: language)
                Issue.record("'10,500 zł' was read")
            } catch let error as ValidationError {
                #expect(error.arguments.prefix(3) == ["10,500 zł", meaning, "10500"], "\(language): \(error)")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func tipCategoriesAreTypedByTheirNameInAnyLanguage() throws {
        #expect(
            try ["hair", "Włosy", "wlosy", "VLASY"].map { try TipCategory(parsing: $0) } == [
                .hair, .hair, .hair, .hair,
            ])
        #expect(
            try ["paznokcie", "nechty", "twarz", "tvár", "ciało", "telo"].map { try TipCategory(parsing: $0) }
                == [.nails, .nails, .face, .face, .body, .body])
        #expect(throws: ValidationError.self) { try TipCategory(parsing: "zlta") }
    }
}
