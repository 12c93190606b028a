@testable import BeautyCore
import Testing

@Suite("Tip search by word stem: a documented Polish and Slovak suffix rule")
struct WordStemTests {
    @Test(
        "olejek → olejk (found in olejku), olejku → olej; skórek → skork (not skórę); krém/krémom 'krem'; short words stay whole"
    )
    func stems() {
        #expect(WordStem.stem("olejek") == "olejk" && WordStem.stem("olejku") == "olej")
        #expect(WordStem.stem("skorek") == "skork")
        #expect(WordStem.stem("kremom") == "krem" && WordStem.stem("krem") == "krem")
        #expect(WordStem.stem("migdalowego") == "migdalow" && WordStem.stem("migdalowy") == "migdalow")
        #expect(WordStem.stem("silk") == "silk" && WordStem.stem("oil") == "oil")
    }

    @Test(
        "--search olejek finds the tip that says 'olejku migdałowego'; 'olejek migdałowy' too; a word no tip has finds nothing"
    )
    func inflectedFormsAreFound() {
        let almond = Tips.matching(category: nil, search: "almond")
        #expect(!almond.isEmpty)
        for search in ["olejek", "Olejek migdałowy", "olejkiem"] {
            let found = Tips.matching(category: nil, search: search)
            #expect(almond.allSatisfy(found.contains), "\(search): \(found.map(\.title))")
        }
        #expect(Tips.matching(category: nil, search: "hulajnoga").isEmpty)
    }
}
