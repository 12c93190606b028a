import BeautyCore
import BeautyLocalization
import Testing

/// Tips read in the user's language, and found by a search in the words they saw.
@Suite struct TranslatedTipsTests {
    @Test func aTipInPolishAndSlovak() throws {
        let tip = try #require(Tips.tip(id: 16))
        #expect(
            TipText(tip, .forLanguage(.polish))
                == TipText(tip, Localizer(language: .polish, catalog: try CatalogCoverageTests.catalog(.polish))))
        #expect(
            TipText(tip, .forLanguage(.polish)).title == "Nie wycinaj skórek"
                && TipText(tip, .forLanguage(.polish)).category == "Paznokcie")
        #expect(
            TipText(tip, .forLanguage(.slovak)).category == "Nechty"
                && TipText(tip, .english).title == "Leave the cuticles on")
    }

    @Test func searchFindsTipsInEveryLanguage() {
        #expect(Tips.matching(category: nil, search: "filtrem").map(\.id).contains(2))
        #expect(Tips.matching(category: nil, search: "opalovaci").map(\.id).contains(2), "diacritics are ignored")
        #expect(Tips.matching(category: .nails, search: "skórek").map(\.id) == [16, 17])
        #expect(Tips.matching(category: nil, search: "sunscreen").map(\.id).contains(2))
    }
}
