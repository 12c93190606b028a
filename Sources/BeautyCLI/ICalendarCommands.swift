import ArgumentParser
import BeautyCore
import BeautyProtocol
import Foundation

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import appointments from an iCalendar (.ics) file: Google, Thunderbird, Apple, Outlook, or beautyd's own export.",
        discussion: """
            Events are matched by UID: importing the same file again creates nothing new, and changed events are updated. \
            A malformed file is reported with its line number and nothing is imported. An event with RECURRENCE-ID changes \
            that occurrence of the series with its UID (in the file or already imported); without that series it is a single \
            appointment. RANGE=THISANDFUTURE splits the series there, as 'appointment split' does.
            """)

    @Argument(help: "The .ics file ('-' reads standard input).") var file: String
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let text = try CalendarFile.read(file)
        let events: [CalendarEvent]
        do {
            events = try ICalendar.parse(text, defaultZone: .current)
        } catch let error as ICalendarError {
            throw CLIFailure(.usage, "\(file):\(error.line): \(error.message) (nothing was imported)")
        }
        for event in events where event.recurrenceID != nil && event.rrule != nil {
            // A changed occurrence is one occurrence; some programs copy the series' rule into it.
            Output.warn("\(file): '\(Validation.quotable(event.summary))' (UID \(Validation.quotable(event.uid))) changes one occurrence "
                        + "but has an RRULE: the rule was ignored")
        }
        let (appointments, contactNames) = CalendarEvent.importing(events, zone: .current)
        let staged = StagedImport(appointments: appointments, contactNames: contactNames)
        let progress = ImportProgress(total: appointments.count, quiet: output.json)
        let result: AppointmentImportResult
        do {
            defer { progress.finish() }
            result = try staged.run(global.client, progress: progress.update)
        }
        if output.json { return try Output.json(result) }
        Output.line("Imported \(result.inserted) new, \(result.updated) updated, \(result.unchanged) unchanged appointment(s) from \(file).")
    }
}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export every appointment as iCalendar (VEVENT with RRULE, EXDATE and a VALARM per reminder).",
        discussion: "A changed occurrence of a series is written right after its series as a VEVENT with the series' UID and RECURRENCE-ID.")

    @Option(help: ArgumentHelp("The .ics file to write ('-' writes standard output).", valueName: "file"))
    var ics: String
    @OptionGroup var global: GlobalOptions

    func run() throws {
        var client = global.client
        let result = try client.call(AppointmentRPC.exportCalendar)
        let events = CalendarEvent.exporting(result.appointments, contactNames: result.contactNames)
        // DTSTAMP is when the file is written, in UTC (RFC 5545 §3.8.7.2).
        let text = ICalendar.serialize(events, stamp: Date(), defaultZone: .current)
        if ics == "-" { return FileHandle.standardOutput.write(Data(text.utf8)) }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: ics), options: .atomic)
        } catch {
            throw CLIFailure(.usage, "--ics: cannot write \(ics): \(error.localizedDescription)")
        }
        FileHandle.standardError.write(Data("Exported \(events.count) appointment(s) to \(ics).\n".utf8))
    }
}

enum CalendarFile {
    static func read(_ path: String) throws -> String {
        let data: Data?
        if path == "-" { data = FileHandle.standardInput.readDataToEndOfFile() } else { data = FileManager.default.contents(atPath: path) }
        guard let data else { throw CLIFailure(.usage, "\(path): cannot read the file (does it exist?)") }
        guard let text = String(data: data, encoding: .utf8) else { throw CLIFailure(.usage, "\(path): not UTF-8 text") }
        return text
    }
}
