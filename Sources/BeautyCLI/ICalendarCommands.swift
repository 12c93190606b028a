import ArgumentParser
import BeautyCore
import BeautyLocalization
import BeautyProtocol
import Foundation

struct ImportCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "import",
            abstract: Output.l.tr(
                "Import appointments from an iCalendar (.ics) file: Google, Thunderbird, Apple, Outlook, or beautyd's own export."
            ),
            discussion: Output.l.tr(
                """
                Events are matched by UID: importing the same file again creates nothing new, and changed events are updated.

                Every valid file is imported. What beautyd cannot keep exactly is approximated and listed after the counts as \
                FILE:LINE: warnings (an event without SUMMARY gets the title '(no title)', a LOCATION with line breaks is kept on \
                one line, an alarm after the start is not a reminder, a VTIMEZONE beautyd does not know is read as the IANA zone \
                that follows its rules...); to-dos, journal entries and other components that are not events are counted as not \
                imported. Properties beautyd does not interpret are kept and written back by export. CATEGORIES naming \
                beautyd's categories (hair/cut, "Manicure"...) set the category; the others are kept as tags. A contact named by \
                the file (X-BEAUTYD-CONTACT) is linked, or created with its phone number.

                An event with RECURRENCE-ID changes that occurrence of the series with its UID (in the file or already \
                imported); without that series it is a single appointment. RANGE=THISANDFUTURE splits the series there, as \
                'appointment split' does.

                A malformed file, or an event the daemon refuses, is reported as FILE:LINE and nothing is imported. Large \
                files are sent in parts and written at the end, all or nothing, with progress on a terminal. \
                --json prints the counts with `warnings` and `notImported`.
                """))
    }

    @Argument(help: ArgumentHelp(Output.l.tr("The .ics file ('-' reads standard input)."))) var file: String
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        var warnings: [ImportWarning] = []
        var skipped = SkippedComponents()
        var skippedEvents: [SkippedEvent] = []
        // For messages about appointments the daemon names by their index in the whole import.
        var lines: [Int?] = []
        var contactNames: [Int: (line: Int, name: String)] = [:]
        var staged: StagedImport?
        let result: AppointmentImportResult
        do {
            let source = try CalendarFile.readEvents(file)
            let progress = ImportProgress(total: source.eventsAtLeast, quiet: output.json)
            defer { progress.finish() }
            func send(_ read: ICalendar.Import) throws {
                let events = read.events
                warnings += read.warnings
                skipped.add(read.skipped)
                skippedEvents += read.skippedEvents
                for event in events where event.recurrenceID != nil && event.rrule != nil {
                    // A changed occurrence is one occurrence; some programs copy the series' rule into it.
                    warnings.append(
                        ImportWarning(
                            line: event.line ?? 1,
                            template:
                                "'%s' changes one occurrence of a series but has an RRULE: the rule was not imported",
                            Validation.quotable(event.summary)))
                }
                let (appointments, names, sources) = CalendarEvent.importing(events, zone: .current)
                for (offset, source) in sources.enumerated() {
                    if let name = events[source].contactName {
                        contactNames[lines.count + offset] = (events[source].line ?? 1, name)
                    }
                }
                lines += sources.map { events[$0].line }
                let stage = try staged ?? StagedImport(global.client)
                staged = stage
                try stage.send(
                    appointments, contactNames: names, contactPhones: sources.map { events[$0].contactPhone },
                    progress: progress.update)
            }
            switch source.source {
            case .whole(let text): try send(try ICalendar.read(text, defaultZone: .current))
            case .pieces(let pieces): try pieces.forEach(defaultZone: .current, send)
            }
            result = try (staged ?? StagedImport(global.client)).commit(progress: progress.update)
        } catch let error as ICalendarError {
            throw ImportSummary.nothingImported(file: file, line: error.line, error.message(Output.l))
        } catch let failure as CLIFailure {
            throw ImportSummary.located(failure, prefix: "appointments", file: file, lines: lines)
        } catch let tooLarge as StagedImport.ItemTooLarge {
            throw ImportSummary.nothingImported(
                file: file, line: lines[tooLarge.index] ?? 1, ImportSummary.tooLargeToSend(tooLarge.bytes))
        }
        for index in result.unlinkedContacts ?? [] {
            guard let contact = contactNames[index] else { continue }
            warnings.append(
                ImportWarning(
                    line: contact.line,
                    template:
                        "contact '%s' does not exist and the file gives no phone number to create it: imported without a contact",
                    contact.name))
        }
        warnings.sort { $0.line < $1.line }
        let summary = ImportSummary(
            inserted: result.inserted, updated: result.updated, unchanged: result.unchanged,
            contactsCreated: result.contactsCreated, file: file, warnings: Self.once(warnings), skipped: skipped,
            skippedEvents: skippedEvents)
        if output.json { return try Output.json(summary) }
        summary.print(
            Output.l.tr(
                "Imported %s new, %s updated, %s unchanged appointment(s) from %s.", result.inserted, result.updated,
                result.unchanged, file))
    }

    /// A file read in pieces repeats what is said about a VTIMEZONE in each piece that uses it.
    private static func once(_ warnings: [ImportWarning]) -> [ImportWarning] {
        var seen = Set<String>()
        return warnings.filter { seen.insert("\($0.line)\u{0}\($0.message)").inserted }
    }
}

struct ExportCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "export",
            abstract: Output.l.tr(
                "Export every appointment as iCalendar (VEVENT with RRULE, RDATE, EXDATE and a VALARM per reminder)."),
            discussion: Output.l.tr(
                """
                Everything beautyd knows is written, so importing the file into another beautyd and exporting again gives the \
                same file (but DTSTAMP, the time of the export): STATUS (CONFIRMED, CANCELLED) and X-BEAUTYD-STATUS:DONE, \
                X-BEAUTYD-CYCLE (the cycle after done), X-BEAUTYD-CONTACT with its X-BEAUTYD-PHONE, X-BEAUTYD-PRICE, COLOR and \
                X-BEAUTYD-COLOR, CATEGORIES (the category, then the tags), a VALARM per reminder, DESCRIPTION (notes), and the \
                lines of imported events that beautyd does not interpret, as they came. A changed occurrence of a series is \
                written right after its series as a VEVENT with the series' UID and RECURRENCE-ID. Every time zone used has \
                its VTIMEZONE.
                """))
    }

    @Option(help: ArgumentHelp(Output.l.tr("The .ics file to write ('-' writes standard output)."), valueName: "file"))
    var ics: String
    @OptionGroup var global: GlobalOptions

    func run() throws {
        var client = global.client
        // The daemon writes the text; floating times are written in this terminal's zone, as import reads them.
        // Its member is read out of the answer as it came (22 MB for 100,000 appointments), not through JSONDecoder.
        let result = try client.resultJSON(
            AppointmentRPC.exportICS, AppointmentExportICSParams(zone: TimeZone.current.identifier))
        guard let textRange = WireJSON.member("ics", in: result), let bytes = WireJSON.stringValue(result[textRange]),
            let countRange = WireJSON.member("count", in: result),
            let count = Int(String(decoding: result[countRange], as: UTF8.self))
        else {
            throw CLIFailure(
                .refused,
                Output.l.tr(
                    "unexpected answer from beautyd (is it the same version?): %s",
                    Output.l.tr("no iCalendar text in it")))
        }
        let text = Data(bytes)
        if ics == "-" { return Output.write(text) }
        do {
            try text.write(to: URL(fileURLWithPath: ics), options: .atomic)
        } catch {
            throw CLIFailure(
                .usage, Output.l.tr("--ics: cannot write %s: %s", ics, SystemErrorText.text(of: error, Output.l)))
        }
        Output.writeError(
            Data(
                (Output.l.trn(
                    "Exported %s appointment(s) to %s.", "Exported %s appointment(s) to %s.", count, count, ics) + "\n")
                    .utf8))
    }
}

enum CalendarFile {
    static func read(_ path: String) throws -> String {
        let data: Data?
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            data = FileManager.default.contents(atPath: path)
        }
        guard let data else { throw cannotRead(path) }
        return try text(data, path)
    }

    /// An .ics file to import, whole or in pieces.
    enum EventSource {
        case whole(String)
        case pieces(CalendarFilePieces)
    }

    /// An .ics file to import. Its events are counted first, reading 1 MiB at a time: a file with more
    /// than one staged import holds is refused before it is parsed and before anything is sent. A file
    /// larger than one piece is not read whole (`CalendarFilePieces`); `eventsAtLeast` is for progress.
    static func readEvents(_ path: String) throws -> (source: EventSource, eventsAtLeast: Int) {
        var census = ICalendarEventCensus()
        var standardInput: Data?
        if path == "-" {
            standardInput = FileHandle.standardInput.readDataToEndOfFile()
            census.add(standardInput ?? Data())
        } else {
            if let pieces = try CalendarFilePieces.plan(
                path, census: &census, refuse: { try refuseTooManyEvents($0, path) })
            {
                return (.pieces(pieces), census.appointmentsAtLeast)
            }
            guard let handle = FileHandle(forReadingAtPath: path) else { throw cannotRead(path) }
            defer { try? handle.close() }
            do {
                while let block = try handle.read(upToCount: 1 << 20), !block.isEmpty { census.add(block) }
            } catch { throw cannotRead(path) }
        }
        census.finish()
        try refuseTooManyEvents(census, path)
        guard let data = standardInput ?? FileManager.default.contents(atPath: path) else { throw cannotRead(path) }
        guard let text = String(data: data, encoding: .utf8) else { throw notICalendarText(path) }
        return (.whole(text), census.appointmentsAtLeast)
    }

    /// Parts a stage holds with room to spare: a 100,000-event calendar takes about half of its memory
    /// bound, 250,000 simple events more than all of it.
    static let eventsPerPart = 100_000

    private static func refuseTooManyEvents(_ census: ICalendarEventCensus, _ path: String) throws {
        let bound = AppointmentImportStage.standardMaxAppointments
        guard census.appointmentsAtLeast > bound else { return }
        throw CLIFailure(
            .usage,
            Output.l.tr(
                "%s: its %s events are more than one import holds (%s); split the file into parts of at most %s events and import them one after another (nothing was imported)",
                path, census.appointmentsAtLeast, bound, eventsPerPart))
    }

    static func cannotRead(_ path: String) -> CLIFailure {
        CLIFailure(.usage, Output.l.tr("%s: cannot read the file (does it exist?)", path))
    }

    private static func text(_ data: Data, _ path: String) throws -> String {
        guard let text = String(data: data, encoding: .utf8) else { throw notUTF8(path) }
        return text
    }

    static func notUTF8(_ path: String) -> CLIFailure { CLIFailure(.usage, Output.l.tr("%s: not UTF-8 text", path)) }

    /// An .ics to import that is not text at all.
    static func notICalendarText(_ path: String) -> CLIFailure {
        CLIFailure(.usage, Output.l.tr("%s: not an iCalendar file: it is not UTF-8 text (nothing was imported)", path))
    }
}
