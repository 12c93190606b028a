import BeautyCore
import BeautyTestSupport
import Foundation
import Testing

/// Wednesday 25 November 2026, 10:00 in Warsaw and Bratislava (both CET).
private let now = instant("2026-11-25 10:00")
private let bratislava = TimeZone(identifier: "Europe/Bratislava")!

private func at(
    _ text: String, _ zone: TimeZone = warsaw, language: InputLanguage = .english,
    dayAlone: TimeExpression.DayAlone = .midnight
) throws -> Date {
    try TimeExpression.parse(text, now: now, zone: zone, field: "--at", language: language, dayAlone: dayAlone)
}

/// The message of the error `body` throws, or nil when it throws none.
private func refusal(_ body: () throws -> Any) -> String? {
    do { _ = try body() } catch let error as ValidationError { return error.message } catch { return "\(error)" }
    return nil
}

@Suite("Polish and Slovak times (injected now: Wednesday 2026-11-25 10:00)")
struct LanguageTimeTests {
    @Test(arguments: [
        ("dziś 14:00", "2026-11-25 14:00"), ("dzis 14:00", "2026-11-25 14:00"), ("DZIŚ 14:00", "2026-11-25 14:00"),
        ("dzisiaj 14:00", "2026-11-25 14:00"), ("jutro 10:00", "2026-11-26 10:00"), ("Jutro 9.30", "2026-11-26 09:30"),
        ("pojutrze 8:00", "2026-11-27 08:00"),
        ("pon 10:00", "2026-11-30 10:00"), ("pn 10:00", "2026-11-30 10:00"), ("wt 10:00", "2026-12-01 10:00"),
        ("śr 15:00", "2026-11-25 15:00"), ("sr 9:00", "2026-12-02 09:00"), ("ŚR 15:00", "2026-11-25 15:00"),
        ("czw 10:00", "2026-11-26 10:00"), ("pt 15:00", "2026-11-27 15:00"), ("PT 15:00", "2026-11-27 15:00"),
        ("sob 10:00", "2026-11-28 10:00"), ("nd 10:00", "2026-11-29 10:00"), ("niedz 10:00", "2026-11-29 10:00"),
        ("poniedziałek 10:00", "2026-11-30 10:00"), ("poniedzialek 10:00", "2026-11-30 10:00"),
        ("wtorek 10:00", "2026-12-01 10:00"),
        ("środa 15:00", "2026-11-25 15:00"), ("sroda 15:00", "2026-11-25 15:00"),
        ("czwartek 10:00", "2026-11-26 10:00"),
        ("piątek 10:00", "2026-11-27 10:00"), ("PIATEK 10:00", "2026-11-27 10:00"),
        ("sobota 10:00", "2026-11-28 10:00"),
        ("niedziela 10:00", "2026-11-29 10:00"),
        ("25.11.2026 14.30", "2026-11-25 14:30"), ("25.11.2026 14:30", "2026-11-25 14:30"),
        ("5.1.2027 9:00", "2027-01-05 09:00"),
        ("26.11. 10:00", "2026-11-26 10:00"), ("24.11. 10:00", "2027-11-24 10:00"), ("1.2 10:00", "2027-02-01 10:00"),
        ("25.11 14.30", "2026-11-25 14:30"), ("1.2 9.30", "2027-02-01 09:30"),
        ("14.30", "2026-11-25 14:30"), ("9.15", "2026-11-26 09:15"), ("10.10", "2026-11-25 10:10"),
        ("jutro 10.10", "2026-11-26 10:10"),
        ("25.11.", "2026-11-25 00:00"), ("pt", "2026-11-27 00:00"),
        // English stays as it was.
        ("tomorrow 9:30", "2026-11-26 09:30"), ("fri 10:00", "2026-11-27 10:00"), ("tues 10:00", "2026-12-01 10:00"),
    ])
    func polishInWarsaw(_ text: String, _ expected: String) throws {
        #expect(try at(text, language: .polish) == instant(expected))
        #expect(
            try at(text, language: .english) == instant(expected), "every language's forms whatever the user's language"
        )
    }

    @Test(arguments: [
        ("dnes 14:00", "2026-11-25 14:00"), ("zajtra 9.15", "2026-11-26 09:15"), ("ZAJTRA 9:15", "2026-11-26 09:15"),
        ("pozajtra 9:00", "2026-11-27 09:00"),
        ("po 10:00", "2026-11-30 10:00"), ("ut 10:00", "2026-12-01 10:00"), ("st 15:00", "2026-11-25 15:00"),
        ("št 10:00", "2026-11-26 10:00"), ("ŠT 10:00", "2026-11-26 10:00"), ("stv 10:00", "2026-11-26 10:00"),
        ("pi 10:00", "2026-11-27 10:00"), ("so 10:00", "2026-11-28 10:00"), ("ne 10:00", "2026-11-29 10:00"),
        ("pondelok 10:00", "2026-11-30 10:00"), ("utorok 10:00", "2026-12-01 10:00"),
        ("streda 15:00", "2026-11-25 15:00"),
        ("štvrtok 10:00", "2026-11-26 10:00"), ("stvrtok 10:00", "2026-11-26 10:00"),
        ("piatok 10:00", "2026-11-27 10:00"),
        ("nedeľa 10:00", "2026-11-29 10:00"), ("nedela 10:00", "2026-11-29 10:00"),
        ("NEDEĽA 10:00", "2026-11-29 10:00"),
        ("25.11.2026 14.30", "2026-11-25 14:30"),
    ])
    func slovakInBratislava(_ text: String, _ expected: String) throws {
        #expect(try at(text, bratislava, language: .slovak) == instant(expected, "Europe/Bratislava"))
        #expect(try at(text, bratislava, language: .english) == instant(expected, "Europe/Bratislava"))
    }

    @Test func aPastTimeLooksBackForADateWithoutAYear() throws {
        let when = try TimeExpression.parse("26.11. 8.00", now: now, zone: warsaw, past: true)
        #expect(when == instant("2025-11-26 08:00"))
    }

    @Test func theUsersLanguageDecidesWhereTwoLanguagesDisagree() throws {
        // "po" is Monday in Slovak and "after" in Polish.
        let message = refusal { try at("po 15:00", language: .polish) }
        #expect(message?.contains("'po' is \"after\" in Polish, not Monday") == true, "\(message ?? "accepted")")
        #expect(message?.contains("'pon'") == true)
        #expect(try at("po 15:00", language: .slovak) == instant("2026-11-30 15:00"))
        #expect(try at("pon 15:00", language: .polish) == instant("2026-11-30 15:00"))
    }

    @Test(arguments: [
        ("1.2", ["'1.2' is ambiguous", "the time 01:02", "the date 1 February", "'01:02' for the time", "'1.2.'"]),
        ("25.11", ["'25.11' could only be the date 25 November", "'25.11.' or '25.11.YYYY'"]),
        ("jutro 9.5", ["'9.5' is not a time of day", "9.05"]),
        ("32.13.2026 10:00", ["'32.13.2026' is not a day of the calendar"]),
        ("29.02. 10:00", ["'29.02.' is not a day of 2027"]),
        ("pt sob 10:00", ["'pt sob 10:00' is not a time", "'pt 15:00'"]),
        ("25.11 9.5", ["'25.11 9.5' is not a time"]),
        ("jutro 1.2 10:00", ["'jutro 1.2 10:00' is not a time"]),
        ("jutro 25:00", ["'25:00' is not a time of day"]),
    ])
    func refusesSayingWhatItUnderstood(_ text: String, _ parts: [String]) {
        let message = refusal { try at(text, language: .polish) }
        for part in parts { #expect(message?.contains(part) == true, "\(message ?? "accepted")") }
    }

    @Test(arguments: [
        ("pt", "'pt' names a day (Friday 27 November 2026) but no time"),
        ("jutro", "'jutro' names a day (Thursday 26 November 2026) but no time"),
        ("zajtra", "'zajtra' names a day (Thursday 26 November 2026) but no time"),
        ("25.11.2026", "'25.11.2026' names a day (Wednesday 25 November 2026) but no time"),
        ("2026-12-01", "'2026-12-01' names a day (Tuesday 1 December 2026) but no time"),
    ])
    func aStartNeedsATime(_ text: String, _ expected: String) {
        let message = refusal { try at(text, language: .polish, dayAlone: .refused) }
        #expect(message?.hasPrefix(expected) == true, "\(message ?? "accepted")")
    }
}

@Suite("Weekdays in three languages")
struct LanguageWeekdayTests {
    @Test(arguments: [
        ("pon,śr,pt", [Weekday.mon, .wed, .fri]), ("PON,SR,PT", [.mon, .wed, .fri]),
        ("po-pi", [.mon, .tue, .wed, .thu, .fri]),
        ("st,št", [.wed, .thu]), ("pondelok,streda", [.mon, .wed]), ("sob-nd", [.sun, .sat]), ("niedziela", [.sun]),
        ("ne,so", [.sun, .sat]), ("mon,wed,fri", [.mon, .wed, .fri]), ("czw,cz", [.thu]),
    ])
    func parses(_ text: String, _ days: [Weekday]) throws {
        #expect(try Validation.parseWeekdays(text, field: "--days", language: .slovak) == days)
    }

    @Test func refusesNamingTheInputAndTheForms() {
        let message = refusal { try Validation.parseWeekdays("pon,xyz", field: "--days") }
        #expect(message == "'xyz' is not a weekday (mon…sun, pon wt śr czw pt sob nd, po ut st št pi so ne)")
        #expect(
            refusal { try Validation.parseWeekdays("po,pt", language: .polish) }?.contains("\"after\" in Polish")
                == true)
        #expect(refusal { try Validation.parseWeekdays("jutro") }?.contains("'jutro' is not a weekday") == true)
    }

    @Test func clockTimesTakeADot() throws {
        #expect(try ClockTime(parsing: "8.00") == ClockTime(hour: 8, minute: 0))
        #expect(try ClockTime(parsing: "20.30") == ClockTime(hour: 20, minute: 30))
        #expect(refusal { try ClockTime(parsing: "8.0") }?.contains("'8.0' is not a time of day") == true)
    }
}

@Suite("Amounts in złoty and euro")
struct LanguageMoneyTests {
    @Test(arguments: [
        ("10 zł", 1000, "PLN"), ("10,50 zł", 1050, "PLN"), ("1 234,50 zł", 123_450, "PLN"),
        ("1\u{00A0}234,50\u{00A0}zł", 123_450, "PLN"),
        ("1\u{202F}234,50 zł", 123_450, "PLN"), ("PLN 10", 1000, "PLN"), ("10zł", 1000, "PLN"), ("10 ZŁ", 1000, "PLN"),
        ("10 zl", 1000, "PLN"),
        ("10 €", 1000, "EUR"), ("10,50 EUR", 1050, "EUR"), ("€10", 1000, "EUR"), ("10€", 1000, "EUR"),
        ("€ 10,5", 1050, "EUR"),
        ("1,234.50", 123_450, "XXX"), ("1.234,50", 123_450, "XXX"), ("1 234 567", 123_456_700, "XXX"),
        ("1.234.567", 123_456_700, "XXX"),
        ("45", 4500, "XXX"), ("45.5", 4550, "XXX"), ("120 PLN", 12000, "PLN"), ("9.99 usd", 999, "USD"),
    ])
    func parses(_ text: String, _ cents: Int64, _ currency: String) throws {
        #expect(try MoneyParser.parse(text, defaultCurrency: "XXX") == Money(cents: cents, currency: currency))
    }

    @Test func negativeWhereAllowed() throws {
        #expect(
            try MoneyParser.parse("-€10", defaultCurrency: "", allowNegative: true)
                == Money(cents: -1000, currency: "EUR"))
        #expect(
            try MoneyParser.parse("-10,50 zł", defaultCurrency: "", allowNegative: true)
                == Money(cents: -1050, currency: "PLN"))
        #expect(refusal { try MoneyParser.parse("-10 zł", defaultCurrency: "") } == "'-10 zł' must not be negative")
    }

    @Test(arguments: [
        ("10,500 zł", ["'10,500 zł' is ambiguous", "10.50 or 10500?", "10,50", "10 500"]),
        ("1.234", ["'1.234' is ambiguous", "1,23 or 1234?"]),
        ("1 234,567 zł", ["'1 234,567 zł' is not an amount", "two digits"]),
        ("1 23,50", ["'1 23,50' is not an amount", "grouped by three"]),
        ("€", ["'€' is not an amount"]),
        ("10 złotych", ["'10 złotych' is not an amount"]),
        ("1,234.5.6", ["'1,234.5.6' is not an amount"]),
    ])
    func refusesNamingTheInput(_ text: String, _ parts: [String]) {
        let message = refusal { try MoneyParser.parse(text, defaultCurrency: "") }
        for part in parts { #expect(message?.contains(part) == true, "\(message ?? "accepted")") }
    }
}

@Suite("Searching ignores case and diacritics")
struct TextFoldingTests {
    @Test(arguments: [
        ("Kraków", "krakow"), ("Łódź", "lodz"), ("ŁÓDŹ", "lodz"), ("žltá", "zlta"), ("Straße", "strasse"),
        ("Øresund", "oresund"),
        ("Đurđevac", "durdevac"), ("nedeľa", "nedela"), ("Krako\u{301}w", "krakow"), ("Æble", "aeble"),
        ("plain", "plain"),
    ])
    func folds(_ text: String, _ folded: String) {
        #expect(TextFolding.fold(text) == folded)
    }

    @Test func agendaTextsMatch() {
        #expect(
            ListFilter.text(
                ["Strzyżenie", "", "ul. Floriańska 3, Kraków"], containsAnyOf: ListFilter.needles(["krakow"])))
        #expect(ListFilter.text(["Wizyta", "Łódź"], containsAnyOf: ListFilter.needles(["LODZ"])))
        #expect(ListFilter.text(["Maska žltá"], containsAnyOf: ListFilter.needles(["zlta"])))
        #expect(
            ListFilter.text(["Krakow"], containsAnyOf: ListFilter.needles(["Kraków"])), "the search text is folded too")
        #expect(!ListFilter.text(["Kraków"], containsAnyOf: ListFilter.needles(["warszawa"])))
    }

    @Test func contactsAreFoundByNameWithoutDiacritics() {
        let contacts = [
            Contact(id: 1, name: "Salon Łucja", phone: "+48 600 100 200"),
            Contact(id: 2, name: "Zofia Wójcik", phone: "+48 600 100 300"),
        ]
        #expect(ContactLookup.find("zofia wojcik", in: contacts) == .found(contacts[1]))
        #expect(ContactLookup.find("LUCJA", in: contacts) == .found(contacts[0]))
    }

    @Test func categoriesMatchWithoutDiacritics() {
        #expect(ListFilter.category("włosy/strzyżenie", matchesAnyOf: ["wlosy"]))
        #expect(ListFilter.category("twarz", matchesAnyOf: ["TWARZ"]))
        #expect(!ListFilter.category("włosy", matchesAnyOf: ["twarz"]))
    }

    @Test func calendarCategoriesNameTreeNodesWithoutDiacritics() {
        let tree = [(name: "hair", title: "Włosy"), (name: "face/facial", title: "Zabieg na twarz")]
        #expect(CategoryAssignment.assign(["WLOSY", "Salon"], tree: tree) == ("hair", ["Salon"]))
        #expect(CategoryAssignment.assign(["zabieg na TWARZ"], tree: tree).category == "face/facial")
    }

    @Test func tipsAreFoundWithoutCaseOrDiacritics() {
        let plain = Tips.matching(categories: [], searches: ["sunscreen"]).map(\.id)
        #expect(!plain.isEmpty)
        #expect(Tips.matching(categories: [], searches: ["SÚNSCREEN"]).map(\.id) == plain)
    }
}

@Suite("The user's language from the environment")
struct InputLanguageTests {
    @Test(arguments: [
        (["LANG": "pl_PL.UTF-8"], InputLanguage.polish), (["LANG": "sk_SK.UTF-8"], .slovak),
        (["LANG": "de_DE.UTF-8"], .english),
        ([:], .english), (["LANG": "C"], .english), (["LC_ALL": "C", "LANGUAGE": "pl"], .english),
        (["LANG": "en_US.UTF-8", "LANGUAGE": "sk:pl"], .slovak),
        (["LANG": "pl_PL.UTF-8", "LC_MESSAGES": "sk_SK.UTF-8"], .slovak),
        (["LANG": "en_GB.UTF-8", "LC_ALL": "pl_PL.UTF-8"], .polish), (["LANG": "POSIX"], .english),
    ])
    func picks(_ environment: [String: String], _ language: InputLanguage) {
        #expect(InputLanguage.of(environment: environment) == language)
    }
}
