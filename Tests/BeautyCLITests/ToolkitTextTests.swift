import ArgumentParser
@testable import BeautyCLI
@testable import BeautyHelpText
import BeautyLocalization
import Testing

/// swift-argument-parser's own texts rewritten into Polish and Slovak, from the English it writes:
/// the layout of every help screen as ArgumentParser's, each usage error's lines translated.
@Suite struct ToolkitTextTests {
    /// Every command's path from beautyctl (`[]`, `["appointment"]`, `["appointment", "add"]`...).
    static func commandPaths(_ command: any ParsableCommand.Type = BeautyctlCommand.self, _ path: [String] = [])
        -> [[String]]
    {
        [path] + command.configuration.subcommands.flatMap { commandPaths($0, path + [$0._commandName]) }
    }

    /// What ArgumentParser throws for `arguments`: `--help` parses as its help command, which throws when run.
    static func outcome(_ arguments: [String]) -> Error {
        do {
            var command = try BeautyctlCommand.parseAsRoot(arguments)
            if String(describing: type(of: command)) == "HelpCommand" { try command.run() }
            Issue.record("\(arguments) parsed without an error")
            return CleanExit.message("")
        } catch { return error }
    }

    static var polish: ToolkitText { ToolkitText(.forLanguage(.polish)) }
    static var slovak: ToolkitText { ToolkitText(.forLanguage(.slovak)) }

    @Test(arguments: [80, 50, 132])
    func everyHelpScreenIsLaidOutAsArgumentParserLaysItOut(width: Int) {
        let english = ToolkitText(.english)
        let paths = Self.commandPaths()
        #expect(paths.count > 40)
        for path in paths {
            let help = Self.outcome(path + ["--help"])
            let expected = BeautyctlCommand.fullMessage(for: help, columns: width)
            let laidOut = english.helpScreen(
                BeautyctlCommand.fullMessage(for: help, columns: HelpLayout.unwrapped), width: width)
            #expect(laidOut == expected, "beautyctl \(path.joined(separator: " ")) --help at \(width) columns")
        }
    }

    @Test func aHelpScreenInPolish() {
        let help = Self.polish.helpScreen(
            BeautyctlCommand.fullMessage(for: Self.outcome(["tip", "--help"]), columns: HelpLayout.unwrapped),
            width: 80)
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            lines.first?.hasPrefix("OPIS: ") == true && lines.contains("UŻYCIE: beautyctl tip <podpolecenie>"),
            "\(help)")
        #expect(lines.contains("OPCJE:") && lines.contains("PODPOLECENIA:"), "\(help)")
        #expect(
            lines.contains("  --version               Pokaż wersję.")
                && lines.contains("  -h, --help              Pokaż pomoc."), "\(help)")
        #expect(lines.contains { $0.hasPrefix("  random (domyślne)       ") }, "the label keeps its column: \(help)")
        #expect(help.hasSuffix("\n  Pomoc do podpolecenia: 'beautyctl help tip <podpolecenie>'."), "\(help)")
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(help)")
    }

    @Test func aNoteIsTranslatedAndWrappedInItsColumn() {
        let unwrapped = """
            USAGE: beautyctl thing

            OPTIONS:
              --limit <limit>         How many of the appointments to list, the first ones by start time (default: 50)
              -h, --help              Show help information.
            """
        #expect(
            Self.slovak.helpScreen(unwrapped, width: 60) == """
                POUŽITIE: beautyctl thing

                VOĽBY:
                  --limit <limit>         How many of the appointments to
                                          list, the first ones by start
                                          time (predvolené: 50)
                  -h, --help              Zobraziť pomoc.
                """)
    }

    @Test func whatTheUserTypedIsKeptAsTyped() {
        // Words that read like ArgumentParser's own stay as typed inside its message.
        #expect(
            Self.polish.usageError("Error: Unexpected argument 'Error: Unknown option 'x''")
                == "Błąd: Nieoczekiwany argument „Error: Unknown option 'x'”")
        // A capture beginning on a combining mark (no String.Index reaches it) is taken whole.
        #expect(
            Self.polish.usageError("Error: Unexpected argument '\u{301}a'") == "Błąd: Nieoczekiwany argument „\u{301}a”"
        )
    }

    @Test func usageErrorsInPolishAndSlovak() {
        let missing = """
            Error: Missing expected argument '<title>'
            Help:  <title>  What it is, e.g. Haircut.
            Usage: beautyctl appointment add [<options>] <title>
              See 'beautyctl appointment add --help' for more information.
            """
        #expect(
            Self.polish.usageError(missing) == """
                Błąd: Brak wymaganego argumentu „<tytuł>”
                Pomoc:  <tytuł>  What it is, e.g. Haircut.
                Użycie: beautyctl appointment add [<opcje>] <tytuł>
                  Więcej informacji: 'beautyctl appointment add --help'.
                """)
        #expect(
            Self.slovak.usageError(missing) == """
                Chyba: Chýba povinný argument „<názov>“
                Pomoc:    <názov>  What it is, e.g. Haircut.
                Použitie: beautyctl appointment add [<možnosti>] <názov>
                  Viac informácií: 'beautyctl appointment add --help'.
                """)
        #expect(
            Self.polish.usageError("Error: Unknown option '--bogus'. Did you mean '--notes'?")
                == "Błąd: Nieznana opcja „--bogus”. Czy chodziło o „--notes”?")
        #expect(
            Self.polish.usageError("Error: 5 unexpected arguments: 'a', 'b', 'c', 'd', 'e'")
                == "Błąd: 5 nieoczekiwanych argumentów: 'a', 'b', 'c', 'd', 'e'")
        #expect(
            Self.slovak.usageError(
                "Error: The value 'x' is invalid for '<state>'. Please provide one of 'on', 'off' or 'status'.")
                == "Chyba: Hodnota „x“ nie je platná pre „<stav>“. Zadajte jednu z hodnôt: 'on', 'off' alebo 'status'.")
        #expect(
            Self.polish.usageError("Error: Unknown option '-xy'\n   or: Missing value for '-x <n>' in '-xy'")
                == "Błąd: Nieznana opcja „-xy”\n   lub: Brak wartości dla „-x <n>” w „-xy”")
        // A message of beautyctl's own (already in the user's language) and an unknown phrase are left as they are.
        #expect(
            Self.polish.usageError("Error: godzina „25:00” nie istnieje\nSomething new from ArgumentParser")
                == "Błąd: godzina „25:00” nie istnieje\nSomething new from ArgumentParser")
    }

    @Test func theRealErrorsOfArgumentParserAreRecognised() {
        for arguments in [
            ["appointment", "add"], ["appointment", "add", "X", "--bogus"], ["appointment", "add", "X", "--remind"],
            ["notifications", "bogus"], ["agenda", "a", "b"], ["bogus"],
        ] {
            let english = BeautyctlCommand.fullMessage(for: Self.outcome(arguments))
            let polish = Self.polish.usageError(english)
            #expect(
                !polish.contains("Error: ") && !polish.contains("Usage: ") && !polish.contains("for more information"),
                "\(arguments): \(polish)")
        }
    }

    @Test func englishAndNonHelpOutputAreArgumentParsersOwn() {
        let help = Self.outcome(["appointment", "--help"])
        #expect(
            ToolkitText(.english).fullMessage(for: help, code: .success, of: BeautyctlCommand.self)
                == BeautyctlCommand.fullMessage(for: help))
        let error = Self.outcome(["appointment", "add"])
        #expect(
            ToolkitText(.english).fullMessage(for: error, code: .validationFailure, of: BeautyctlCommand.self)
                == BeautyctlCommand.fullMessage(for: error))
        for arguments in [["--generate-completion-script", "bash"], ["--version"], ["--experimental-dump-help"]] {
            let outcome = Self.outcome(arguments)
            #expect(
                Self.polish.fullMessage(for: outcome, code: .success, of: BeautyctlCommand.self)
                    == BeautyctlCommand.fullMessage(for: outcome), "\(arguments)")
        }
    }
}
