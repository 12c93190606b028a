import BeautyCore
import BeautyProtocol
import Foundation

/// tips / tip.random: the built-in tips, filtered; nothing stored.
struct TipController: RequestController {
    func addRoutes(to router: inout RequestRouter) {
        router.register(TipRPC.list, list)
        router.register(TipRPC.random, random)
    }

    private func filter(_ p: TipFilterParams) throws -> (categories: [TipCategory], searches: [String]) {
        (
            try ListFilter.values(p.category, p.categories).map { try TipCategory(parsing: $0) },
            try ListFilter.values(p.search, p.searches).compactMap { try Tips.searchText($0) }
        )
    }

    func list(_ p: TipFilterParams) throws -> [Tip] {
        let filter = try self.filter(p)
        return Tips.matching(categories: filter.categories, searches: filter.searches)
    }

    func random(_ p: TipFilterParams) throws -> Tip {
        let filter = try self.filter(p)
        var generator = SystemRandomNumberGenerator()
        guard let tip = Tips.random(categories: filter.categories, searches: filter.searches, using: &generator) else {
            let searches = filter.searches.joined(separator: "', '")
            guard filter.categories.isEmpty else {
                throw ValidationError(
                    field: "search", template: "no tip in %s mentions '%s'",
                    filter.categories.map(\.rawValue).joined(separator: ", "), searches)
            }
            throw ValidationError(field: "search", template: "no tip mentions '%s'", searches)
        }
        return tip
    }
}
