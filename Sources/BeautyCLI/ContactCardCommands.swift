import ArgumentParser
import BeautyCore
import BeautyLocalization
import BeautyProtocol
import Foundation

// `contact import` / `contact export`: contacts as vCard files.
extension ContactCommand {
    struct Import: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                commandName: "import",
                abstract: Output.l.tr(
                    "Import contacts from a vCard (.vcf) file: a phone's or Google's export, or beautyd's own."),
                discussion: Output.l.tr(
                    """
                    vCard 4.0 and 3.0 (RFC 6350, 2426): FN (or N) is the name, TEL the phone number (the preferred one, \
                    else the mobile one), N the first and last name, EMAIL, ADR and UID. A contact is matched by UID, \
                    else by name, and updated: importing the same file again changes nothing.

                    What beautyd cannot keep is listed as FILE:LINE: warnings: a card without a phone number (beautyd needs \
                    one) is not imported; further numbers, addresses and properties beautyd has no field for are not kept. \
                    A malformed file is reported with its line and nothing is imported. --json prints the counts and warnings.

                    Example:
                      beautyctl contact import ~/contacts.vcf
                    """))
        }

        @Argument(help: ArgumentHelp(Output.l.tr("The .vcf file ('-' reads standard input)."))) var file: String
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let text = try CalendarFile.read(file)
            let read: VCard.Import
            do {
                read = try VCard.read(text)
            } catch let error as LineError {
                throw ImportSummary.nothingImported(file: file, line: error.line, error.message(Output.l))
            }
            try Self.refuseTooLarge(read.cards, file: file)
            var client = global.client
            let result: ContactImportResult
            do {
                result = try client.call(
                    ContactRPC.importCards, ContactImportParams(contacts: read.cards.map(\.contact)))
            } catch let failure as CLIFailure {
                throw ImportSummary.located(failure, prefix: "contacts", file: file, lines: read.cards.map(\.line))
            }
            let summary = ImportSummary(
                inserted: result.inserted, updated: result.updated, unchanged: result.unchanged,
                file: file, warnings: read.warnings)
            if output.json { return try Output.json(summary) }
            summary.print(
                Output.l.tr(
                    "Imported %s new, %s updated, %s unchanged contact(s) from %s.", result.inserted, result.updated,
                    result.unchanged, file))
        }

        /// Contacts go in one request, which the daemon reads only up to its line limit: a larger one
        /// is refused here, rather than discarded unread, naming the first card that does not fit (or one
        /// too large alone) so that the file can be split there.
        static func refuseTooLarge(_ cards: [VCard.Card], file: String) throws {
            let encoder = WireJSON.encoder()
            let empty = try encoder.encode(ContactImportParams(contacts: [])).count
            guard
                try encoder.encode(ContactImportParams(contacts: cards.map(\.contact))).count
                    >= StagedImport.daemonLineLimit
            else { return }
            var total = empty
            for (index, card) in cards.enumerated() {
                let bytes = try encoder.encode(ContactImportParams(contacts: [card.contact])).count
                if bytes >= StagedImport.daemonLineLimit {
                    throw ImportSummary.nothingImported(
                        file: file, line: card.line, ImportSummary.tooLargeToSend(bytes))
                }
                total += bytes - empty + 1  // and a comma
                if total >= StagedImport.daemonLineLimit {
                    throw ImportSummary.nothingImported(
                        file: file, line: card.line,
                        Output.l.tr(
                            "its %s contacts are more than one request to beautyd holds (%s bytes); the %s before this card fit: split the file here and import the parts one after another",
                            cards.count, StagedImport.daemonLineLimit, index))
                }
            }
        }
    }

    struct Export: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                commandName: "export",
                abstract: Output.l.tr("Export every contact as vCard 4.0 (FN, N, TEL, EMAIL, ADR, UID, LANG)."),
                discussion: Output.l.tr(
                    """
                    Each contact is written with a permanent UID (given on its first export), so importing the file \
                    again, here or into another beautyd, updates the same contacts rather than adding copies.

                    Example:
                      beautyctl contact export --vcf contacts.vcf
                    """))
        }

        @Option(
            help: ArgumentHelp(Output.l.tr("The .vcf file to write ('-' writes standard output)."), valueName: "file"))
        var vcf: String
        @OptionGroup var global: GlobalOptions

        func run() throws {
            var client = global.client
            let contacts = try client.call(ContactRPC.exportCards)
            let text = VCard.serialize(contacts)
            if vcf == "-" { return Output.write(Data(text.utf8)) }
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: vcf), options: .atomic)
            } catch {
                throw CLIFailure(
                    .usage, Output.l.tr("--vcf: cannot write %s: %s", vcf, SystemErrorText.text(of: error, Output.l)))
            }
            Output.writeError(
                Data(
                    (Output.l.trn(
                        "Exported %s contact(s) to %s.", "Exported %s contact(s) to %s.", contacts.count,
                        contacts.count, vcf) + "\n").utf8))
        }
    }
}
