import ArgumentParser
import BeautyCore
import BeautyLocalization
import BeautyProtocol
import Foundation

struct CategoriesCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "categories",
            abstract: Output.l.tr("The treatment categories: a two-level tree (hair, hair/cut...)."),
            discussion: Output.l.tr(
                "A parent includes its children: 'beautyctl agenda --category hair' also lists hair/cut and hair/colour."
            ))
    }
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        var client = global.client
        let tree = try client.call(BudgetRPC.categories)
        if output.json { return try Output.json(tree) }
        let l = Output.l
        let title = { (node: CategoryNode) in CategoryTitle.title(name: node.name, stored: node.title, l) }
        let rows = tree.flatMap { parent in
            [[parent.name, title(parent)]] + parent.children.map { ["  " + $0.name, title($0)] }
        }
        Output.table([l.tr("CATEGORY"), l.tr("TITLE")], rows)
    }

    /// Refuses a category that is not in the daemon's tree, showing the tree: a typo would otherwise
    /// file an appointment where `agenda --category` never finds it. (Titles, title words and
    /// synonyms were turned into codes before, by `CategoryTitle.code(typed:)`.)
    static func requireKnown(_ category: String?, typed: String?, client: inout any RPCCalling) throws {
        guard let category = category?.trimmingCharacters(in: .whitespaces).lowercased(), !category.isEmpty,
            let tree = try? client.call(BudgetRPC.categories), !CategoryNode.names(tree).contains(category)
        else { return }
        let l = Output.l
        func line(_ node: CategoryNode, indent: String) -> String {
            "\(indent)\(node.name)  \(CategoryTitle.title(name: node.name, stored: node.title, l))"
        }
        let lines: [String] = tree.flatMap { parent in
            [line(parent, indent: "  ")] + parent.children.map { line($0, indent: "    ") }
        }
        throw CLIFailure(
            .usage,
            l.tr(
                "--category: '%s' is no category, nor a word of one; the categories:\n%s", typed ?? category,
                lines.joined(separator: "\n")))
    }
}
