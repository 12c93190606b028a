import BeautyProtocol
import BeautyStore

/// categories: the two-level tree appointments and budget entries are filed under.
struct CategoryController: RequestController {
    let categories: CategoryStore

    func addRoutes(to router: inout RequestRouter) {
        router.register(BudgetRPC.categories) { (_: NoParams) in try tree() }
    }

    /// Parents and their children, by name.
    func tree() throws -> [CategoryNode] {
        let rows = try categories.all()
        let children = Dictionary(grouping: rows.filter { $0.parent != nil }, by: { $0.parent! })
        return rows.filter { $0.parent == nil }.map { parent in
            CategoryNode(
                name: parent.name, title: parent.title,
                children: (children[parent.name] ?? []).map { CategoryNode(name: $0.name, title: $0.title) })
        }
    }
}
