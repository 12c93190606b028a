import ArgumentParser
@testable import BeautyCLI
@testable import BeautyHelpText
import BeautyLocalization
import Foundation
import Testing

/// What breaks without a word on an upgrade of swift-argument-parser: ToolkitText rewrites its English
/// by the exact phrases it writes today, and SingleValueOptions reads `_dumpHelp()` (no public API
/// describes a command's options). Each test fails on the first screen or option they stop matching.
@Suite("swift-argument-parser's internals beautyctl relies on")
struct ToolkitUpgradeTests {
    /// The English of every phrase ToolkitText rewrites, cut at its arguments: the pieces ArgumentParser
    /// writes itself ("OVERVIEW:", "Show help information.", "' for more information.", "Missing value for '").
    static let englishPieces: [String] = {
        let argument = "\u{E000}"
        let pieces = ToolkitText.allPhrases.flatMap { phrase in
            phrase.say(.english, Array(repeating: argument, count: 4)).components(separatedBy: argument)
        }
        // Quotes, spaces and punctuation between two arguments ("', '") say nothing on their own.
        return Set(pieces.map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.filter(\.isLetter).count >= 2 })
            .sorted()
    }()

    /// Usage errors a user meets: a missing argument, an unknown option (with and without a suggestion),
    /// a missing value, a value not in the list, extra arguments, an unknown subcommand, a value for a flag.
    static let usageErrors: [[String]] = [
        ["appointment", "add"], ["appointment", "add", "X", "--bogus"], ["appointment", "add", "X", "--note"],
        ["appointment", "add", "X", "--remind"], ["notifications", "bogus"], ["agenda", "a", "b"], ["agenda", "a"],
        ["bogus"], ["agenda", "--json=yes"], ["--generate-completion-script", "bogus"],
    ]

    @Test(
        "the phrases are read from ToolkitText's lists", arguments: ["OVERVIEW:", "Show help information.", "Error:"])
    func phrasesAreListed(piece: String) {
        #expect(Self.englishPieces.contains(piece), "\(Self.englishPieces)")
    }

    /// Every text of beautyctl's own a command's help screen shows (its abstract and discussion, its
    /// arguments', its subcommands', their names), as `_dumpHelp()` lists them; of ArgumentParser's
    /// `--help` and `--version` only their names, and the root's name (subcommands show `--version` too). In this process they are English, and may hold words like ArgumentParser's.
    static func ownTexts(_ command: any ParsableCommand.Type) -> [String] {
        func strings(_ value: Any) -> [String] {
            switch value {
            case let text as String: return [text]
            case let list as [Any]: return list.flatMap(strings)
            case let object as [String: Any]:
                // ArgumentParser's `help` subcommand, which a command dumped on its own is given.
                if object["commandName"] as? String == "help" { return [] }
                let names = (object["names"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
                if names.contains(where: { ["help", "version", "h"].contains($0) }) { return names }
                return object.values.flatMap(strings)
            default: return []
            }
        }
        let dump = try? JSONSerialization.jsonObject(with: Data(command._dumpHelp().utf8))
        return ["beautyctl", "version"] + (dump.map(strings) ?? [])
    }

    /// The pieces of ArgumentParser's English in `text` beyond those its own texts bring.
    static func leftovers(_ text: String, own: [String]) -> [String] {
        func count(_ piece: String, _ text: String) -> Int { text.components(separatedBy: piece).count - 1 }
        return englishPieces.filter { piece in count(piece, text) > own.map { count(piece, $0) }.reduce(0, +) }
    }

    static func words(_ text: String) -> Set<String> { Set(text.matches(of: /\p{L}+/).map { String($0.output) }) }

    /// The words of ArgumentParser's own English message (`english`) that `translated` still has: words
    /// none of beautyctl's texts has. This finds a wording ArgumentParser changed, which no phrase matches.
    static func untranslatedWords(_ translated: String, english: String, own: [String]) -> Set<String> {
        words(english).subtracting(own.flatMap(words)).subtracting(sameInTranslation).intersection(words(translated))
    }

    /// Words of ArgumentParser's that Polish and Slovak write the same: "argument", and the shells'
    /// names it lists (the Slovak `<shell>` too).
    static let sameInTranslation: Set<String> = ["argument", "bash", "zsh", "fish", "shell"]

    @Test(
        "every help screen in Polish and Slovak has none of ArgumentParser's English left",
        arguments: [Language.polish, .slovak])
    func helpScreens(language: Language) {
        let text = ToolkitText(.forLanguage(language))
        let commands = Self.commands()
        #expect(commands.count > 40)
        for (command, path) in commands {
            let help = ToolkitTextTests.outcome(path + ["--help"])
            let screen = text.fullMessage(for: help, code: .success, of: BeautyctlCommand.self)
            let own = Self.ownTexts(command) + path
            let left = Self.leftovers(screen, own: own)
            let words = Self.untranslatedWords(screen, english: BeautyctlCommand.fullMessage(for: help), own: own)
            #expect(
                left.isEmpty && words.isEmpty,
                "beautyctl \(path.joined(separator: " ")) --help in \(language): \(left) \(words)\n\(screen)")
        }
    }

    @Test(
        "the usual usage errors in Polish and Slovak have none of ArgumentParser's English left",
        arguments: [Language.polish, .slovak])
    func usageErrors(language: Language) {
        let text = ToolkitText(.forLanguage(language))
        for arguments in Self.usageErrors {
            let error = ToolkitTextTests.outcome(arguments)
            let code = BeautyctlCommand.exitCode(for: error)
            #expect(code != .success, "\(arguments)")
            let message = text.fullMessage(for: error, code: code, of: BeautyctlCommand.self)
            let left = Self.leftovers(message, own: [])
            let words = Self.untranslatedWords(
                message, english: BeautyctlCommand.fullMessage(for: error),
                own: Self.ownTexts(BeautyctlCommand.self) + arguments)
            #expect(
                left.isEmpty && words.isEmpty,
                "\(words) beautyctl \(arguments.joined(separator: " ")) in \(language): \(left)\n\(message)")
        }
    }

    /// The part of `_dumpHelp()`'s JSON that SingleValueOptions reads, decoded strictly: a member
    /// renamed or retyped by an upgrade fails here instead of turning the check off.
    struct Dump: Decodable {
        struct Command: Decodable {
            var commandName: String
            var arguments: [Argument]?
        }
        struct Argument: Decodable {
            enum Kind: String, Decodable { case positional, option, flag }
            var kind: Kind
            var isRepeating: Bool
            var names: [Name]?
        }
        struct Name: Decodable {
            enum Kind: String, Decodable { case long, short, longWithSingleDash }
            var kind: Kind
            var name: String
        }
        var command: Command
    }

    /// Every command with its path from beautyctl (`[]`, `["appointment"]`, `["appointment", "add"]`...).
    static func commands(_ command: any ParsableCommand.Type = BeautyctlCommand.self, _ path: [String] = [])
        -> [(type: any ParsableCommand.Type, path: [String])]
    {
        [(command, path)] + command.configuration.subcommands.flatMap { commands($0, path + [$0._commandName]) }
    }

    @Test("_dumpHelp() of every command still decodes into what SingleValueOptions reads")
    func dumpHelpDecodes() throws {
        let types = Self.commands().map(\.type)
        #expect(types.count > 40)
        for type in types {
            let dump = try JSONDecoder().decode(Dump.self, from: Data(type._dumpHelp().utf8))
            #expect(dump.command.commandName == type._commandName)
        }
        // What SingleValueOptions makes of it: options that take one value, by every spelling; not the
        // repeating ones, the flags or the arguments.
        let add = SingleValueOptions.singleValued(AppointmentCommand.Add.self)
        #expect(add["--at"] == "--at" && add["--duration"] == "--duration" && add["--socket"] == "--socket", "\(add)")
        #expect(add["--remind"] == nil && add["--json"] == nil && add["title"] == nil, "\(add)")
    }

    @Test("an option given twice is a usage error, found through _dumpHelp()")
    func optionGivenTwice() {
        #expect(throws: CLIFailure.self) {
            try SingleValueOptions.check(
                AppointmentCommand.Add.self, ["X", "--at", "10:00", "--at=11:00"])
        }
        #expect(throws: Never.self) {
            try SingleValueOptions.check(AppointmentCommand.Add.self, ["X", "--remind", "1h", "--remind", "2h"])
        }
    }
}
