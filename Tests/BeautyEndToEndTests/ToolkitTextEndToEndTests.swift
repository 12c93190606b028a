import BeautyTestSupport
import Foundation
import Testing

/// What swift-argument-parser writes itself, as a Polish or Slovak user reads it from real beautyctl
/// with `LANG` set: the help screen's headings and built-in flags, and the lines of a usage error.
struct ToolkitLanguage: Sendable, CustomTestStringConvertible {
    var locale: String
    var helpLines: [String]
    var missingTitle: String
    var unknownOption: String
    var usageLines: String

    var testDescription: String { locale }

    static let polish = ToolkitLanguage(
        locale: "pl_PL.UTF-8",
        helpLines: [
            "ARGUMENTY:", "OPCJE:", "  --version               Pokaż wersję.", "  -h, --help              Pokaż pomoc.",
        ],
        missingTitle: "Błąd: Brak wymaganego argumentu „<tytuł>”\nPomoc:  <tytuł>  ",
        unknownOption: "Błąd: Nieznana opcja „--bogus”",
        usageLines:
            "\nUżycie: beautyctl appointment add [<opcje>] <tytuł>\n  Więcej informacji: 'beautyctl appointment add --help'.\n"
    )
    static let slovak = ToolkitLanguage(
        locale: "sk_SK.UTF-8",
        helpLines: [
            "ARGUMENTY:", "VOĽBY:", "  --version               Zobraziť verziu.",
            "  -h, --help              Zobraziť pomoc.",
        ],
        missingTitle: "Chyba: Chýba povinný argument „<názov>“\nPomoc:    <názov>  ",
        unknownOption: "Chyba: Neznáma voľba „--bogus“",
        usageLines:
            "\nPoužitie: beautyctl appointment add [<možnosti>] <názov>\n  Viac informácií: 'beautyctl appointment add --help'.\n"
    )
    static let english = ToolkitLanguage(
        locale: "C",
        helpLines: [
            "ARGUMENTS:", "OPTIONS:", "  --version               Show the version.",
            "  -h, --help              Show help information.",
        ],
        missingTitle: "Error: Missing expected argument '<title>'\nHelp:  <title>  ",
        unknownOption: "Error: Unknown option '--bogus'",
        usageLines:
            "\nUsage: beautyctl appointment add [<options>] <title>\n  See 'beautyctl appointment add --help' for more information.\n"
    )
}

extension EndToEndBus {
    @Suite(
        "beautyctl's help and usage errors from swift-argument-parser in Polish and Slovak; LANG=C as it writes them",
        .serialized)
    struct ToolkitTexts {
        @Test(arguments: [ToolkitLanguage.polish, .slovak, .english])
        func helpAndUsageErrors(language: ToolkitLanguage) async throws {
            let stack = try await Stack.start(daemon: false)
            defer { stack.shutdown() }
            stack.locale = language.locale

            for arguments in [["appointment", "add", "--help"], ["help", "appointment", "add"]] {
                let help = try await stack.beautyctl(arguments, socket: false)
                let lines = help.stdout.split(separator: "\n").map(String.init)
                #expect(help.status == .exited(0) && help.stderr.isEmpty, "\(arguments): \(help)")
                #expect(language.helpLines.allSatisfy(lines.contains), "\(arguments): \(help)")
                let usage = language.usageLines.split(separator: "\n")[0].drop { $0 != ":" }
                #expect(lines.contains { $0.hasSuffix(usage) }, "\(help)")
            }

            let missing = try await stack.beautyctl(["appointment", "add", "--bogus"], socket: false)
            #expect(missing.status == .exited(2) && missing.stdout.isEmpty, "\(missing)")
            #expect(
                missing.stderr.hasPrefix(language.missingTitle) && missing.stderr.hasSuffix(language.usageLines),
                "\(missing)")

            let unknown = try await stack.beautyctl(
                ["appointment", "add", "Manicure", "--at", "2030-12-06 14:00", "--bogus", "--json"],
                socket: false)
            #expect(unknown.status == .exited(2) && unknown.stdout.isEmpty, "\(unknown)")
            #expect(
                unknown.stderr.hasPrefix(language.unknownOption)
                    && unknown.stderr.hasSuffix(language.usageLines)
                    && unknown.stderr.split(separator: "\n").count == 3, "\(unknown)")
        }

        /// The scripts are code for the shell: nothing in them is rewritten (zsh's and fish's carry each
        /// command's translated abstract as the program declares it, and ArgumentParser's own in English).
        @Test func completionScriptsAndVersionAreLeftAsTheyAre() async throws {
            let stack = try await Stack.start(daemon: false)
            defer { stack.shutdown() }
            var outputs: [String: [String]] = [:]
            for locale in ["C", "pl_PL.UTF-8", "sk_SK.UTF-8"] {
                stack.locale = locale
                for arguments in [
                    ["--generate-completion-script", "bash"], ["--version"], ["--generate-completion-script", "zsh"],
                ] {
                    let result = try await stack.beautyctl(arguments, socket: false)
                    #expect(result.status == .exited(0), "\(locale) \(arguments): \(result)")
                    outputs[locale, default: []].append(result.stdout)
                }
            }
            #expect(outputs["C"]?.first?.contains("beautyctl") == true)
            #expect(
                outputs["pl_PL.UTF-8"]?.prefix(2) == outputs["C"]?.prefix(2)
                    && outputs["sk_SK.UTF-8"]?.prefix(2) == outputs["C"]?.prefix(2))
            #expect(
                outputs["pl_PL.UTF-8"]?.last?.contains("'(-h --help)'{-h,--help}'[Show help information.]'") == true)
        }
    }
}
