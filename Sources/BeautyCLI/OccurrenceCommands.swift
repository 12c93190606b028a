import ArgumentParser
import BeautyCore
import BeautyLocalization
import BeautyProtocol
import Foundation

/// `--occurrence WHEN`: one occurrence of a series, named by the start it has in the series.
struct OccurrenceOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            Output.l.tr(
                "Only this occurrence of the series: the start it has in the series, e.g. '2026-12-04 15:00' (a wrong one is refused with the nearest occurrences)."
            ),
            valueName: "time"))
    var occurrence: String?

    func instant(now: Date, zone: TimeZone = .current) throws -> Date? {
        try occurrence.map { try Input.time($0, option: "--occurrence", now: now, zone: zone) }
    }
}

extension AppointmentCommand {
    struct Split: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr(
                    "Change a series from one occurrence on (\"this and following\"): it becomes a new series."),
                discussion: Output.l.tr(
                    """
                    The series ends before --occurrence (its rule gets an UNTIL, or its COUNT is shared out); a new \
                    series with the same rule starts at that occurrence, taking along the exceptions and the changed \
                    occurrences from there on. Options of 'appointment edit' given here apply to the new series: --at \
                    moves its start (and every later occurrence by as much), --repeat gives it another rule. \
                    Absolute reminders (--remind-at) stay with the old series. Prints the new series.
                    Examples:
                      beautyctl appointment split 12 --occurrence '2026-12-04 15:00'
                      beautyctl appointment split 12 --occurrence '2026-12-04 15:00' --at '2026-12-04 16:00'
                      beautyctl appointment split 12 --occurrence '2027-01-08 15:00' --repeat 'FREQ=WEEKLY;INTERVAL=4' --title 'Colour'
                    """))
        }

        @Argument(help: ArgumentHelp(Output.l.tr("The series' id."))) var id: Int64
        @OptionGroup var changes: AppointmentChanges
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            guard changes.occurrence.occurrence != nil else {
                throw CLIFailure(
                    .usage,
                    Output.l.tr(
                        "--occurrence is required: the first occurrence of the new series (e.g. --occurrence '2026-12-04 15:00')"
                    ))
            }
            var client = global.client
            let params = try changes.params(id: id)
            let detail = try changes.fields.call(params.category, client: &client) { client, addedContactID in
                try client.call(AppointmentRPC.split, changes.sent(params, addedContactID: addedContactID))
            }
            if output.json { return try Output.json(detail) }
            Output.line(
                Output.l.tr(
                    "Split series %s: from %s on it is appointment %s.", id, Output.times.short(params.occurrence!),
                    detail.appointment.id ?? 0))
            Output.describe(detail)
            Output.warnings(detail)
        }
    }
}
