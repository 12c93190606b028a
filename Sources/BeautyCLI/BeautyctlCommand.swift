import ArgumentParser
import BeautyHelpText
import BeautyProtocol
import Foundation

/// `beautyctl`: the command-line client of beautyd.
public struct BeautyctlCommand: ParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "beautyctl",
            abstract: Output.l.tr("Plan beauty appointments and get desktop reminders on time."),
            discussion: Output.l.tr(
                """
                beautyctl talks to the beautyd daemon over its Unix socket (start it with 'systemctl --user start beautyd').

                Times are local unless they carry an offset: '2026-12-01 14:00', '14:00' (today or the next such time), 'tomorrow 9:30', 'fri 10:00', 'in 2h', '2026-12-01T14:00:00+01:00'. Durations: 90s 10m 2h 1d 6w 1h30m.

                Polish and Slovak forms work too: 'jutro 10:00', 'pojutrze', 'dziś', 'zajtra 9.15', 'dnes', weekdays 'pt 15:00', 'środa', 'št', 'piatok' (any case, with or without diacritics), dates '25.11.2026 14.30' and '25.11.' (the next 25 November), times '14.30', amounts '10 zł', '1 234,50 zł', 'PLN 10', '10,50 €', '€10'. Ambiguous input ('1.2', '10,500 zł') is refused with what it could mean.

                Exit codes: 0 success (an empty list too), 1 the daemon refused (the message says why), 2 usage error, 3 daemon not reachable, 4 no such item.
                """),
            version: BeautyVersion.current,
            subcommands: [
                StatusCommand.self, AppointmentCommand.self, MedCommand.self, DoseCommand.self, NowCommand.self,
                AgendaCommand.self, HistoryCommand.self, ContactCommand.self, MessageCommand.self,
                CalendarCommand.self, CategoriesCommand.self, BMICommand.self, MeasureCommand.self, TipsCommand.self,
                TipCommand.self, WaterCommand.self, BudgetCommand.self,
                NotificationsCommand.self, ImportCommand.self, ExportCommand.self, WatchCommand.self,
                BackupCommand.self, RestoreCommand.self, SyncCommand.self,
            ])
    }

    /// Lets `--socket` come before the subcommand too; subcommands read the same option group.
    @OptionGroup var global: GlobalOptions

    public init() {}

    /// Runs the command line with the exit codes README lists (ArgumentParser alone would use 64 for usage errors).
    public static func runAsMain() -> Never {
        Foundation.exit(run(arguments: Array(CommandLine.arguments.dropFirst())))
    }

    /// Runs `arguments` (the words after `beautyctl`), writing through `Output`, and gives the exit code.
    static func run(arguments: [String]) -> Int32 {
        do {
            var command = try parseAsRoot(arguments)
            try SingleValueOptions.check(type(of: command), arguments[...])
            try command.run()
            return 0
        } catch let failure as CLIFailure {
            Output.writeError(Data("beautyctl: \(failure.message)\n".utf8))
            return failure.code.rawValue
        } catch {
            let (message, code) = ToolkitText(Output.l).outcome(self, withError: error)
            if !message.isEmpty {
                let bytes = Data((message + "\n").utf8)
                code == .success ? Output.write(bytes) : Output.writeError(bytes)
            }
            return code == .validationFailure ? CLIFailure.Code.usage.rawValue : code.rawValue
        }
    }
}
