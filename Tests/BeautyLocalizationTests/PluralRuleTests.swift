import BeautyLocalization
import Testing

/// CLDR's plural categories for whole numbers, and the words they choose.
@Suite struct PluralRuleTests {
    static let counts = [0, 1, 2, 4, 5, 12, 21, 22, 25, 101, 102]

    @Test func polishOneFewMany() {
        #expect(
            Self.counts.map { Language.polish.pluralCategory($0) }
                == [.many, .one, .few, .few, .many, .many, .many, .few, .many, .many, .few])
    }

    @Test func slovakOneFewOther() {
        #expect(
            Self.counts.map { Language.slovak.pluralCategory($0) }
                == [.other, .one, .few, .few, .other, .other, .other, .other, .other, .other, .other])
    }

    @Test func englishOneOther() {
        #expect(
            Self.counts.map { Language.english.pluralCategory($0) }
                == [.other, .one, .other, .other, .other, .other, .other, .other, .other, .other, .other])
    }

    @Test func visitsInPolishAndSlovak() {
        let polish = Localizer.forLanguage(.polish), slovak = Localizer.forLanguage(.slovak)
        func words(_ l: Localizer) -> [String] { Self.counts.map { l.trn("%s visit", "%s visits", $0) } }
        #expect(
            words(polish) == [
                "0 wizyt", "1 wizyta", "2 wizyty", "4 wizyty", "5 wizyt", "12 wizyt", "21 wizyt",
                "22 wizyty", "25 wizyt", "101 wizyt", "102 wizyty",
            ])
        #expect(
            words(slovak) == [
                "0 návštev", "1 návšteva", "2 návštevy", "4 návštevy", "5 návštev", "12 návštev",
                "21 návštev", "22 návštev", "25 návštev", "101 návštev", "102 návštev",
            ])
        #expect(words(.english).prefix(3) == ["0 visits", "1 visit", "2 visits"])
    }
}
