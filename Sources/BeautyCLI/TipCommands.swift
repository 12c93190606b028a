import ArgumentParser
import BeautyCore
import BeautyLocalization
import BeautyProtocol
import Foundation

/// `--category` and `--search`, shared by `tips` and `tip random`.
struct TipFilterOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            Output.l.tr("Only this category: face, hair, nails or body; may repeat (any of them)."),
            valueName: "category"))
    var category: [String] = []

    @Option(
        help: ArgumentHelp(
            Output.l.tr("Only tips whose title or text contains this (any case); may repeat (any of them)."),
            valueName: "text"))
    var search: [String] = []

    /// Checked here too, so a typo is a usage error (exit 2) without a round trip.
    func params() throws -> TipFilterParams {
        let names = try category.map { text in
            guard let parsed = try? TipCategory(parsing: text) else {
                // The names listed are the ones the user types: "twarz, włosy, paznokcie, ciało" ("face, hair..." in English).
                let names = TipCategory.allCases.map { $0.title(Output.l).lowercased() }.joined(separator: ", ")
                throw CLIFailure(
                    .usage, "--category: " + Output.l.tr("'%s' is not a tip category (one of %s)", text, names))
            }
            return parsed.rawValue
        }
        let texts = try search.compactMap { text in
            try Input.check("--search") { try Tips.searchText(text, field: "--search") }
        }
        var params = TipFilterParams()
        (params.category, params.categories) = WireList.oneOrList(names)
        (params.search, params.searches) = WireList.oneOrList(texts)
        return params
    }
}

enum TipOutput {
    static func show(_ tip: Tip) {
        let shown = TipText(tip, Output.l)
        Output.line(
            "#\(tip.id) \(shown.title) (\(Output.l.language == .english ? tip.category.rawValue : shown.category.lowercased()))"
        )
        Output.line("   \(shown.text)")
    }
}

struct TipsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "tips",
            abstract: Output.l.tr("Beauty tips for face, hair, nails and body."),
            discussion: Output.l.tr(
                """
                Examples:
                  beautyctl tips --category nails
                  beautyctl tips --search sunscreen
                A daily tip as a notification: [tips] daily_at = "09:00" in the config.
                """))
    }

    @OptionGroup var filter: TipFilterOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let params = try filter.params()
        var client = global.client
        let tips = try client.call(TipRPC.list, params)
        if output.json { return try Output.json(tips) }
        guard !tips.isEmpty else {
            let l = Output.l
            let categories = filter.category.compactMap {
                TipCategory(rawValue: $0.lowercased())?.title(l).lowercased()
            }
            .joined(separator: l.tr(" or "))
            let what = [
                categories.isEmpty ? nil : l.tr("in %s", categories),
                filter.search.isEmpty
                    ? nil : l.tr("mentioning '%s'", filter.search.joined(separator: "'" + l.tr(" or ") + "'")),
            ]
            .compactMap { $0 }
            return Output.line(l.tr("No tips %s.", what.joined(separator: " ")))
        }
        for (index, tip) in tips.enumerated() {
            if index > 0 { Output.line() }
            TipOutput.show(tip)
        }
    }
}

struct TipCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "tip", abstract: Output.l.tr("One beauty tip."), subcommands: [Random.self],
            defaultSubcommand: Random.self)
    }

    struct Random: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr("A tip picked at random (from one category or matching a text, if given)."),
                discussion: Output.l.tr("Example: beautyctl tip random --category hair"))
        }

        @OptionGroup var filter: TipFilterOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            var client = global.client
            let tip = try client.call(TipRPC.random, try filter.params())
            if output.json { return try Output.json(tip) }
            TipOutput.show(tip)
        }
    }
}
