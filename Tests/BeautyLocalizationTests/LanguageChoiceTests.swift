import BeautyLocalization
import Testing

/// The language from the environment, as GNU gettext chooses the messages' language.
@Suite struct LanguageChoiceTests {
    @Test(arguments: [
        ([:], Language.english),
        (["LANG": "pl_PL.UTF-8"], .polish),
        (["LANG": "sk_SK.UTF-8"], .slovak),
        (["LANG": "de_DE.UTF-8"], .english),
        (["LANG": "C"], .english),
        (["LANG": "POSIX"], .english),
        (["LANG": "C.UTF-8", "LANGUAGE": "pl"], .english),
        (["LANG": "en_GB.UTF-8", "LANGUAGE": "sk:pl"], .slovak),
        (["LANG": "en_GB.UTF-8", "LANGUAGE": "de:pl"], .polish),
        (["LANG": "pl_PL.UTF-8", "LANGUAGE": "de"], .polish),
        (["LANG": "pl_PL.UTF-8", "LC_MESSAGES": "sk_SK.UTF-8"], .slovak),
        (["LANG": "pl_PL.UTF-8", "LC_MESSAGES": "sk_SK.UTF-8", "LC_ALL": "C"], .english),
        (["LANG": "pl_PL.UTF-8", "LC_ALL": ""], .polish),
        (["LC_ALL": "sk_SK@euro"], .slovak),
    ])
    func chosen(environment: [String: String], expected: Language) {
        #expect(Language.fromEnvironment(environment) == expected, "\(environment)")
    }

    @Test func moneyAndNumbers() {
        let pl = LocaleFormat(.polish), sk = LocaleFormat(.slovak), en = LocaleFormat(.english)
        #expect(pl.money(cents: 123_450, currency: "PLN") == "1\u{A0}234,50\u{A0}zł")
        #expect(sk.money(cents: 123_450, currency: "EUR") == "1\u{A0}234,50\u{A0}€")
        #expect(pl.money(cents: -5, currency: "CZK") == "-0,05\u{A0}CZK")
        #expect(en.money(cents: 123_450, currency: "EUR") == "1234.50 EUR")
        #expect(
            pl.integer(1_234_567) == "1\u{A0}234\u{A0}567" && pl.integer(999) == "999" && en.integer(1234) == "1234")
        #expect(sk.decimal(1234.56, digits: 1) == "1\u{A0}234,6" && en.decimal(2.5, digits: 1) == "2.5")
    }

    @Test func yesInEachLanguage() {
        let pl = Localizer.forLanguage(.polish), sk = Localizer.forLanguage(.slovak)
        #expect(YesNo.prompt(.english) == "[y/N]" && YesNo.prompt(pl) == "[t/N]" && YesNo.prompt(sk) == "[a/N]")
        #expect(
            ["t", "T", " tak ", "y"].allSatisfy { YesNo.isYes($0, pl) } && !YesNo.isYes("n", pl) && !YesNo.isYes("", pl)
        )
        #expect(["a", "áno", "ano", "yes"].allSatisfy { YesNo.isYes($0, sk) } && !YesNo.isYes("t", sk))
        #expect(YesNo.isYes("y", .english) && !YesNo.isYes("t", .english) && !YesNo.isYes("a", .english))
    }

    @Test func defaultCurrencyFollowsTheLanguage() {
        #expect(
            Language.polish.defaultCurrency == "PLN" && Language.slovak.defaultCurrency == "EUR"
                && Language.english.defaultCurrency == "EUR")
    }
}
