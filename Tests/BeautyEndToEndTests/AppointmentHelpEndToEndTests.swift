import BeautyTestSupport
import Foundation
import Testing

extension EndToEndBus {
    @Suite("beautyctl appointment add --help in the language of LANG", .serialized)
    struct AppointmentHelp {
        /// Per `LANG`: an option of the appointment's fields, one whose text carries the colour names as
        /// an argument, `--json` of the shared output options, and the command's examples.
        static let expected: [(locale: String, lines: [String])] = [
            (
                "pl_PL.UTF-8",
                [
                    "  --address <tekst>       Gdzie się odbywa.\n",
                    "  --color <nazwa>         Kolor w widokach kalendarza: czerwony, pomarańczowy,",
                    "  --json                  Wypisz JSON do przetwarzania maszynowego",
                    "Przykłady:\n  beautyctl appointment add Strzyżenie --at 'pt 15:00'",
                ]
            ),
            (
                "sk_SK.UTF-8",
                [
                    "  --address <text>        Kde sa koná.\n",
                    "  --color <názov>         Farba v zobrazeniach kalendára: červená, oranžová,",
                    "  --json                  Vypísať strojovo čitateľný JSON namiesto textu.\n",
                    "Príklady:\n  beautyctl appointment add Strihanie --at 'pi 15:00'",
                ]
            ),
            (
                "C",
                [
                    "  --address <text>        Where it is.\n",
                    "  --color <name>          Colour in calendar views: red, orange, yellow, green,",
                    "  --json                  Print machine-readable JSON instead of text.\n",
                    "Examples:\n  beautyctl appointment add Haircut --at 'fri 15:00'",
                ]
            ),
        ]

        @Test(arguments: expected)
        func optionsAndExamplesAreTranslated(locale: String, lines: [String]) async throws {
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            stack.locale = locale
            let help = try await stack.beautyctl(["appointment", "add", "--help"], socket: false)
            #expect(help.status == .exited(0), "\(help)")
            for line in lines {
                #expect(help.stdout.contains(line), "\(line) is not in:\n\(help.stdout)")
            }
        }
    }
}
