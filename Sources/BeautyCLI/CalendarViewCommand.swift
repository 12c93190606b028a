import ArgumentParser
import BeautyCore
import BeautyLocalization
import BeautyProtocol
import Foundation

struct CalendarCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "calendar",
            abstract: Output.l.tr(
                "Draw a day or a week of appointments in the terminal: hours down the side, blocks in their colours."),
            discussion: Output.l.tr(
                """
                Appointments are blocks as tall as they last (half-hour rows), overlapping ones side by side; all-day
                appointments sit in the row above the hours; on today the current time is a line across.
                A week too wide for the terminal is drawn in bands, one under the other (at 80 columns Monday to
                Thursday, then Friday to Sunday) so every day keeps at least 16 characters; a wider terminal gets
                the whole week side by side over its full width.
                Colour is used only when standard output is a terminal (and NO_COLOR is not set).
                Examples:
                  beautyctl calendar
                  beautyctl calendar --day tomorrow
                  beautyctl calendar --week 2026-12-01 --width 120
                """))
    }

    @Option(
        help: ArgumentHelp(
            Output.l.tr(
                "The day to draw (default today): a date such as 2026-12-01 or 1.12.2026, today, tomorrow, jutro, fri, pt."
            ), valueName: "date"))
    var day: String?
    @Option(help: ArgumentHelp(Output.l.tr("Draw the Monday-to-Sunday week containing this date."), valueName: "date"))
    var week: String?
    @Flag(inversion: .prefixedNo, help: ArgumentHelp(Output.l.tr("Colour the blocks (default: only on a terminal).")))
    var color: Bool?
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(Output.l.tr("Width in characters (default: $COLUMNS, else 80)."), valueName: "n"))
    var width: Int?
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if day != nil, week != nil { throw ValidationError(Output.l.tr("--day and --week: choose one")) }
        if let width, width < 20 || width > 1000 {
            throw ValidationError(Output.l.tr("--width: must be between 20 and 1000"))
        }
    }

    func run() throws {
        let now = Date()
        let zone = TimeZone.current
        let option = week != nil ? "--week" : "--day"
        let date = try Input.time(week ?? day ?? "today", option: option, now: now, zone: zone)
        let first = LocalDate(date, in: zone)
        let days = week != nil ? CalendarView.week(containing: first, zone: zone) : [first]
        let end = days[days.count - 1].adding(days: 1).start(in: zone)
        // From a day earlier: an appointment of the evening before may run past midnight.
        var params = AgendaParams(from: days[0].adding(days: -1).start(in: zone), to: end)
        params.kind = .appointment
        params.status = [.appointment(.scheduled), .appointment(.done)]
        var client = global.client
        let result = try client.call(ViewRPC.agenda, params)
        if output.json { return try Output.json(result) }
        let entries = result.entries.map {
            CalendarView.Entry(title: $0.title, start: $0.start, end: $0.end, allDay: $0.allDay, color: $0.color)
        }
        let environment = ProcessInfo.processInfo.environment
        let colour = color ?? (isatty(STDOUT_FILENO) == 1 && environment["NO_COLOR"] == nil)
        let columns = width ?? Output.columns
        let text = CalendarView.render(
            entries, days: days, zone: zone, now: now, width: columns, color: colour, localizer: Output.l)
        Output.write(Data(text.utf8))
    }
}
