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
        #expect(
            ListFilter.text(["Facial"], containsAnyOf: ListFilter.needles(["  "])), "only empty texts filter nothing")
    }
}

@Suite("List rules: sorting")
struct ListSortTests {
    struct Item: Equatable {
        var title: String
        var price: Int64?
    }

    let items = [
        Item(title: "cut", price: nil), Item(title: "Manicure", price: 8000), Item(title: "Ćwiczenia", price: 12000),
        Item(title: "Brows", price: 8000), Item(title: "Al", price: nil),
    ]

    func sorted(_ sort: String?, reverse: Bool? = nil, supported: [ListSortKey] = ListSortKey.allCases) throws
        -> [String]
    {
        try ListSort.sorted(items, sort: sort.map(ListSortChoice.init), reverse: reverse, supported: supported) {
            item, key in
            key == .price ? item.price.map { .money(Money(cents: $0, currency: "EUR")) } ?? .missing : .text(item.title)
        }.map(\.title)
    }

    @Test func titlesIgnoreCaseAndAccentsBothWays() throws {
        #expect(try sorted("title") == ["Al", "Brows", "cut", "Ćwiczenia", "Manicure"])
        #expect(try sorted("TITLE", reverse: true) == ["Manicure", "Ćwiczenia", "cut", "Brows", "Al"])
    }

    @Test func equalValuesKeepTheListsOrderAndMissingOnesComeLastEitherWay() throws {
        #expect(try sorted("price") == ["Manicure", "Brows", "Ćwiczenia", "cut", "Al"])
        #expect(try sorted("price", reverse: true) == ["Ćwiczenia", "Manicure", "Brows", "cut", "Al"])
    }

    @Test func noKeyKeepsTheListsOrderAndReverseTurnsItRound() throws {
        #expect(try sorted(nil) == items.map(\.title))
        #expect(try sorted(nil, reverse: true) == items.map(\.title).reversed())
    }

    @Test func aKeyTheListDoesNotHaveIsRefusedNamingThoseItHas() {
        #expect(throws: ValidationError(field: "sort", "'price' is not one of title (what this list can be sorted by)"))
        {
            try sorted("price", supported: [.title])
        }
        #expect(
            throws: ValidationError(field: "sort", "'size' is not one of title, time (what this list can be sorted by)")
        ) {
            try sorted("size", supported: [.title, .time])
        }
    }

    @Test func moneyByCurrencyThenAmount() {
        func money(_ cents: Int64, _ currency: String) -> SortValue { .money(Money(cents: cents, currency: currency)) }
        #expect(ListSort.order(money(100, "PLN"), money(200, "EUR")) == false, "currencies do not mix")
        #expect(ListSort.order(money(100, "PLN"), money(200, "PLN")) == true)
        #expect(ListSort.order(money(100, "EUR"), money(100, "PLN")) == true)
        #expect(ListSort.order(money(100, "EUR"), money(100, "EUR")) == nil)
        #expect(ListSort.order(.missing, money(1, "EUR")) == nil)
    }
}
