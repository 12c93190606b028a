import Foundation

/// Calendar categories onto beautyd's category tree.
public enum CategoryAssignment {
    /// The first of `categories` that names a node of the tree (its name such as `nails/manicure`,
    /// or its title such as "Manicure", in any case, with or without diacritics) becomes the
    /// category; the others stay free tags, as given and in order.
    public static func assign(_ categories: [String], tree: [(name: String, title: String)]) -> (
        category: String?, tags: [String]
    ) {
        var category: String?
        var tags: [String] = []
        for value in categories {
            let key = TextFolding.fold(value.trimmingCharacters(in: .whitespaces))
            if category == nil,
                let node = tree.first(where: { TextFolding.fold($0.name) == key || TextFolding.fold($0.title) == key })
            {
                category = node.name
            } else {
                tags.append(value)
            }
        }
        return (category, tags)
    }
}
