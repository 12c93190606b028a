import BeautyCore
import Foundation
import Testing

@Suite("List rules: filters with several values")
struct ListFilterTests {
    @Test func theSingleFieldAndTheListMakeOneListWithoutRepeats() {
        #expect(ListFilter.values("hair", ["nails", "hair"]) == ["hair", "nails"])
        #expect(ListFilter.values(nil, ["nails"]) == ["nails"])
        #expect(ListFilter.values("hair", nil) == ["hair"])
        #expect(ListFilter.values(String?.none, nil) == [])
    }

    @Test func aCategoryMatchesAnyWantedOneOrItsParent() {
        #expect(ListFilter.category("hair/cut", matchesAnyOf: ["nails", "hair"]))
        #expect(ListFilter.category("nails", matchesAnyOf: ["nails", "hair"]))
        #expect(!ListFilter.category("face", matchesAnyOf: ["nails", "hair"]))
        #expect(!ListFilter.category("hairy", matchesAnyOf: ["hair"]), "a prefix is not a parent")
        #expect(!ListFilter.category(nil, matchesAnyOf: ["hair"]))
        #expect(ListFilter.category(nil, matchesAnyOf: []), "no filter keeps everything")
    }

    @Test func aTextMatchesAnyNeedleIgnoringCase() {
        let needles = ListFilter.needles([" Bob ", "", "ANNA"])
        #expect(needles == ["bob", "anna"])
        #expect(ListFilter.text(["Haircut", "with Anna"], containsAnyOf: needles))
        #expect(ListFilter.text(["Bob cut"], containsAnyOf: needles))
        #expect(!ListFilter.text(["Facial", ""], containsAnyOf: needles))
        #expect(ListFilter.text(["Facial"], containsAnyOf: ListFilter.needles(["  "])), "only empty texts filter nothing")
    }
}
