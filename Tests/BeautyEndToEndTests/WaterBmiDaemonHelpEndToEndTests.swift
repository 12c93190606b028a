import BeautyTestSupport
import Foundation
import Testing

/// What `--help` says, as the user's `LANG` sets it: an option's help and the examples of
/// `beautyctl water add`, the BMI classes filled into `beautyctl bmi`'s discussion, and the daemon's
/// own `beautyd --help` (which follows the environment it is run in, not `[ui] language`) under
/// swift-argument-parser's headings in the same language, as its usage errors.
struct HelpLanguage: Sendable, CustomTestStringConvertible {
    var locale: String
    /// Texts each command's `--help` prints, by the command: `beautyd`, or beautyctl's words.
    var says: [String: [String]]
    /// What `beautyd --bogus` writes on standard error.
    var unknownOption: String
    /// The first line `beautyd --log-level loud` writes on standard error (beautyd's own check, under ArgumentParser's `Error:`).
    var unknownLogLevel: String

    var testDescription: String { locale }

    static let polish = HelpLanguage(
        locale: "pl_PL.UTF-8",
        says: [
            "water add": [
                "  --at <czas>             Kiedy został wypity (domyślnie: teraz;",
                "\nPrzykłady:\n  beautyctl water add 250\n",
            ],
            "bmi": ["\nKlasy: wygłodzenie BMI < 16; wychudzenie 16 ≤ BMI < 17;"],
            "beautyd": [
                "OPIS: Demon beautyd: przechowuje wizyty", "\n\nUŻYCIE: beautyd [--config <ścieżka>]", "\n\nOPCJE:\n",
                "  --config <ścieżka>      Plik konfiguracyjny.\n", "  -h, --help              Pokaż pomoc.\n",
            ],
        ],
        unknownOption: """
            Błąd: Nieznana opcja „--bogus”
            Użycie: beautyd [--config <ścieżka>] [--database <ścieżka>] [--socket <ścieżka>] [--log-level <poziom>] [--recover]
              Więcej informacji: 'beautyd --help'.

            """,
        unknownLogLevel:
            "Błąd: --log-level: „loud” nie jest żadnym z poziomów: trace, debug, info, notice, warning, error, critical"
    )
    static let slovak = HelpLanguage(
        locale: "sk_SK.UTF-8",
        says: [
            "water add": [
                "  --at <čas>              Kedy bol vypitý (predvolene: teraz;",
                "\nPríklady:\n  beautyctl water add 250\n",
            ],
            "bmi": ["\nTriedy: ťažká podvýživa BMI < 16; stredná podvýživa 16 ≤ BMI < 17;"],
            "beautyd": [
                "PREHĽAD: Démon beautyd: uchováva návštevy", "\n\nPOUŽITIE: beautyd [--config <cesta>]", "\n\nVOĽBY:\n",
                "  --config <cesta>        Konfiguračný súbor.\n", "  -h, --help              Zobraziť pomoc.\n",
            ],
        ],
        unknownOption: """
            Chyba: Neznáma voľba „--bogus“
            Použitie: beautyd [--config <cesta>] [--database <cesta>] [--socket <cesta>] [--log-level <úroveň>] [--recover]
              Viac informácií: 'beautyd --help'.

            """,
        unknownLogLevel:
            "Chyba: --log-level: „loud“ nie je žiadna z úrovní: trace, debug, info, notice, warning, error, critical")
    static let english = HelpLanguage(
        locale: "C",
        says: [
            "water add": [
                "  --at <time>             When it was drunk (default: now;",
                "\nExamples:\n  beautyctl water add 250\n",
            ],
            "bmi": ["\nClasses: starvation BMI < 16; emaciation 16 ≤ BMI < 17;"],
            "beautyd": [
                "OVERVIEW: The beautyd daemon: keeps appointments", "\n\nUSAGE: beautyd [--config <path>]",
                "\n\nOPTIONS:\n",
                "  --config <path>         Configuration file.\n", "  -h, --help              Show help information.\n",
            ],
        ],
        unknownOption: """
            Error: Unknown option '--bogus'
            Usage: beautyd [--config <path>] [--database <path>] [--socket <path>] [--log-level <level>] [--recover]
              See 'beautyd --help' for more information.

            """,
        unknownLogLevel: "Error: --log-level: 'loud' is not one of trace, debug, info, notice, warning, error, critical"
    )
}

extension EndToEndBus {
    @Suite(
        "water add, bmi and beautyd --help, beautyd's usage errors in Polish and Slovak from LANG; LANG=C in English",
        .serialized)
    struct WaterBmiDaemonHelp {
        @Test(arguments: [HelpLanguage.polish, .slovak, .english])
        func helpInTheUsersLanguage(language: HelpLanguage) async throws {
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            stack.locale = language.locale
            for (command, texts) in language.says.sorted(by: { $0.key < $1.key }) {
                let help =
                    command == "beautyd"
                    ? try await stack.run(try Locations.built("beautyd"), ["--help"])
                    : try await stack.beautyctl(command.split(separator: " ").map(String.init) + ["--help"])
                #expect(help.status == .exited(0), "\(command) --help: \(help)")
                for text in texts { #expect(help.stdout.contains(text), "\(command) --help: \(help)") }
            }
        }

        /// Usage errors of the daemon's command line: ArgumentParser's messages, translated, and their exit code 64 (EX_USAGE).
        @Test(arguments: [HelpLanguage.polish, .slovak, .english])
        func daemonUsageErrorInTheUsersLanguage(language: HelpLanguage) async throws {
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            stack.locale = language.locale
            let refused = try await stack.run(try Locations.built("beautyd"), ["--bogus"])
            #expect(refused.status == .exited(64) && refused.stdout.isEmpty, "\(refused)")
            #expect(refused.stderr == language.unknownOption, "\(refused)")
            let badLevel = try await stack.run(try Locations.built("beautyd"), ["--log-level", "loud"])
            #expect(
                badLevel.status == .exited(64) && badLevel.stderr.hasPrefix(language.unknownLogLevel + "\n"),
                "\(badLevel)")
        }
    }
}
