@testable import BeautyCLI
import Testing

@Suite("A category typed as a word of its title or a synonym")
struct CategoryWordTests {
    @Test(
        "brwi, lashes, farbowanie, włosy/farbowanie, Vlasy/farbenie, depilacja name one category; a word of two or of none stays as typed"
    )
    func wordsAndSynonyms() {
        #expect(CategoryTitle.code(typed: "brwi") == "face/brows")
        #expect(CategoryTitle.code(typed: "lashes") == "face/brows")
        #expect(CategoryTitle.code(typed: "Farbowanie") == "hair/colour")
        #expect(CategoryTitle.code(typed: "włosy/farbowanie") == "hair/colour")
        #expect(CategoryTitle.code(typed: "Vlasy/farbenie") == "hair/colour")
        #expect(CategoryTitle.code(typed: "depilacja") == "body/waxing")
        #expect(CategoryTitle.code(typed: "włosy") == "hair")
        #expect(CategoryTitle.code(typed: "xyz") == "xyz")
        #expect(
            CategoryTitle.code(typed: "nails/farbowanie") == "nails/farbowanie",
            "a synonym of another parent's child is no child of this one")
    }
}
