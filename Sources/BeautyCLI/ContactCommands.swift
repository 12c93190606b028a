import ArgumentParser
import BeautyCore
import BeautyLocalization
import BeautyProtocol
import Foundation

/// `--contact` as typed: an id, a phone number or a name.
enum ContactInput {
    /// The id of the one contact `text` means, which must exist (`contact edit Salon`). Several: a usage
    /// error listing them. None: "no such item" listing the contacts there are. (An appointment's
    /// `--contact` is found by beautyd, see `AppointmentReferenceInput`.)
    static func resolve(_ text: String, option: String, client: inout any RPCCalling) throws -> Int64 {
        let contacts = try client.call(ContactRPC.list, ListOrderParams())
        switch ContactLookup.find(text, in: contacts) {
        case let .found(contact):
            return contact.id ?? 0
        case let .ambiguous(matches):
            throw CLIFailure(.usage, ContactLookup.ambiguity(text, option: option, matches: matches).rendered(Output.l))
        case .none:
            throw CLIFailure(
                .notFound, ContactLookup.noMatch(text, option: option, contacts: contacts).rendered(Output.l))
        }
    }

    /// The contact a command's argument names: an id as typed (beautyd says when there is none), else
    /// the one contact a phone number or a name fits.
    static func id(_ text: String, client: inout any RPCCalling) throws -> Int64 {
        let typed = text.trimmingCharacters(in: .whitespaces)
        if typed.count <= 6, typed.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int64(typed) { return id }
        return try resolve(text, option: Output.l.tr("contact"), client: &client)
    }

    /// Asks whether to add the contact the user named, and what it lacks (a phone number, or a name for a number).
    static func offerToAdd(_ text: String, option: String, client: inout any RPCCalling) throws -> Int64 {
        guard try Input.confirm(Output.l.tr("No contact matches '%s'. Add it?", text), yes: false) else {
            throw CLIFailure(.notFound, Output.l.tr("%s: no contact matches '%s' (nothing was added)", option, text))
        }
        let isPhone = ContactLookup.looksLikePhone(text)
        Output.writeError(
            Data((isPhone ? Output.l.tr("Name for %s: ", text) : Output.l.tr("Phone number of %s: ", text)).utf8))
        let answer = readLine()?.trimmingCharacters(in: .whitespaces) ?? ""
        let (name, phone) = isPhone ? (answer, text) : (text, answer)
        let params = ContactAddParams(
            name: try Input.name(name, option: "name"),
            phone: try Input.check("--phone") { try Validation.phone(phone, field: "--phone") })
        let contact = try client.call(ContactRPC.add, params)
        Output.writeError(
            Data(
                (Output.l.tr("Added contact %s: %s, %s.", contact.id ?? 0, contact.displayName, contact.phone) + "\n")
                    .utf8))
        return contact.id ?? 0
    }
}

/// `--language` of `contact add/edit`: a code or a language's name in any language beautyd speaks.
enum ContactLanguageInput {
    static var help: ArgumentHelp {
        ArgumentHelp(
            Output.l.tr("The language of SMS texts to this contact: pl, sk or en (default: beautyctl's)."),
            valueName: "language")
    }

    static func code(_ typed: String) throws -> String {
        try Input.check("--language") { try Language.ofContact(typed, field: "--language").rawValue }
    }
}

struct ContactCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "contact",
            abstract: Output.l.tr("Salons and people you book with."),
            subcommands: [Add.self, List.self, Show.self, Edit.self, Remove.self, Import.self, Export.self])
    }
}

extension ContactCommand {
    struct Add: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: Output.l.tr("Add a contact (name and phone are required)."),
                discussion: Output.l.tr(
                    "Example:\n  beautyctl contact add 'Salon Anna' --phone '+48 600 100 200' --first Anna --last Nowak --address 'ul. Długa 5, Kraków'"
                ))
        }

        @Argument(help: ArgumentHelp(Output.l.tr("Name of the salon or person."))) var name: String
        @Option(help: ArgumentHelp(Output.l.tr("Phone number, e.g. +48 600 100 200."), valueName: "number")) var phone:
            String
        @Option(help: ArgumentHelp(Output.l.tr("E-mail address."), valueName: "address")) var email: String?
        @Option(
            name: .customLong("first"), help: ArgumentHelp(Output.l.tr("First name of the person."), valueName: "name"))
        var firstName: String?
        @Option(
            name: .customLong("last"), help: ArgumentHelp(Output.l.tr("Last name of the person."), valueName: "name"))
        var lastName: String?
        @Option(help: ArgumentHelp(Output.l.tr("Postal address."), valueName: "text")) var address: String?
        @Option(help: ContactLanguageInput.help) var language: String?
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            var params = ContactAddParams(
                name: try Input.name(name, option: "name"),
                phone: try Input.check("--phone") { try Validation.phone(phone, field: "--phone") })
            params.email = try Input.check("--email") { try Validation.email(email, field: "--email") }
            params.firstName = firstName
            params.lastName = lastName
            params.address = address
            params.language = try language.map(ContactLanguageInput.code)
            var client = global.client
            let contact = try client.call(ContactRPC.add, params)
            if output.json { return try Output.json(contact) }
            Output.line(Output.l.tr("Added contact %s: %s, %s.", contact.id ?? 0, contact.displayName, contact.phone))
        }
    }

    struct List: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(abstract: Output.l.tr("List contacts by name."))
        }
        @OptionGroup var order: SortOptions
        @OptionGroup var output: ListOutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            var client = global.client
            let contacts = try client.call(ContactRPC.list, order.params)
            if try output.printed(
                contacts, csv: ["id", "name", "phone", "email", "first_name", "last_name", "address"],
                {
                    contacts.map {
                        [
                            String($0.id ?? 0), $0.name, $0.phone, $0.email ?? "", $0.firstName ?? "",
                            $0.lastName ?? "", $0.address ?? "",
                        ]
                    }
                })
            {
                return
            }
            if contacts.isEmpty { return Output.line(Output.l.tr("No contacts.")) }
            Output.table(
                [Output.l.tr("ID"), Output.l.tr("NAME"), Output.l.tr("PHONE"), Output.l.tr("E-MAIL")],
                contacts.map {
                    [String($0.id ?? 0), $0.displayName, $0.phone, $0.email ?? ""]
                })
        }
    }

    struct Show: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(abstract: Output.l.tr("Show one contact."))
        }
        @Argument(help: ArgumentHelp(Output.l.tr("Contact id, phone number or unique name."), valueName: "contact"))
        var contact: String
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            var client = global.client
            let id = try ContactInput.id(contact, client: &client)
            let c = try client.call(ContactRPC.show, IDParams(id: id))
            if output.json { return try Output.json(c) }
            Output.line(Output.l.tr("Contact %s: %s", c.id ?? 0, c.name))
            Output.line(Output.l.tr("  phone:   %s", c.phone))
            if let v = c.email { Output.line(Output.l.tr("  e-mail:  %s", v)) }
            if let v = c.firstName { Output.line(Output.l.tr("  first:   %s", v)) }
            if let v = c.lastName { Output.line(Output.l.tr("  last:    %s", v)) }
            if let v = c.address { Output.line(Output.l.tr("  address: %s", v)) }
            if let v = c.language { Output.line(Output.l.tr("  SMS in:  %s", v.title(Output.l))) }
            if let count = c.appointmentCount { Output.line(Output.l.tr("  visits:  %s", count)) }
        }
    }

    struct Edit: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(abstract: Output.l.tr("Change a contact; options not given stay as they are."))
        }
        @Argument(help: ArgumentHelp(Output.l.tr("Contact id, phone number or unique name."), valueName: "contact"))
        var contact: String
        @Option(help: ArgumentHelp(Output.l.tr("New name."), valueName: "text")) var name: String?
        @Option(help: ArgumentHelp(Output.l.tr("New phone number."), valueName: "number")) var phone: String?
        @Option(help: ArgumentHelp(Output.l.tr("E-mail address."), valueName: "address")) var email: String?
        @Option(name: .customLong("first"), help: ArgumentHelp(Output.l.tr("First name."), valueName: "name"))
        var firstName: String?
        @Option(name: .customLong("last"), help: ArgumentHelp(Output.l.tr("Last name."), valueName: "name"))
        var lastName: String?
        @Option(help: ArgumentHelp(Output.l.tr("Postal address."), valueName: "text")) var address: String?
        @Option(help: ContactLanguageInput.help) var language: String?
        @Option(
            help: ArgumentHelp(
                Output.l.tr("Empty a field: email, first, last, address, language; may repeat."), valueName: "field"))
        var clear: [String] = []
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            var client = global.client
            let id = try ContactInput.id(contact, client: &client)
            var params = ContactEditParams(id: id)
            params.name = try name.map { try Input.name($0, option: "--name") }
            params.phone = try phone.map { p in try Input.check("--phone") { try Validation.phone(p, field: "--phone") }
            }
            params.email = try Input.check("--email") { try Validation.email(email, field: "--email") }
            params.firstName = firstName
            params.lastName = lastName
            params.address = address
            params.language = try language.map(ContactLanguageInput.code)
            params.clear = try clear.map { raw in
                switch TypedWord.code(
                    raw, among: ["email", "first", "last", "address", "language"], word: FieldName.contact)
                    ?? raw.lowercased()
                {
                case "email": return .email
                case "first", "firstname": return .firstName
                case "last", "lastname": return .lastName
                case "address": return .address
                case "language": return .language
                default:
                    throw CLIFailure(
                        .usage, Output.l.tr("--clear: '%s' is not one of email, first, last, address, language", raw))
                }
            }
            let c = try client.call(ContactRPC.edit, params)
            if output.json { return try Output.json(c) }
            Output.line(Output.l.tr("Updated contact %s: %s, %s.", id, c.displayName, c.phone))
        }
    }

    struct Remove: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                commandName: "rm",
                abstract: Output.l.tr("Delete a contact (appointments keep their data, without the link)."))
        }
        @Argument(help: ArgumentHelp(Output.l.tr("Contact id, phone number or unique name."), valueName: "contact"))
        var contact: String
        @Flag(name: [.short, .long], help: ArgumentHelp(Output.l.tr("Do not ask for confirmation."))) var yes = false
        @OptionGroup var output: OutputOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            var client = global.client
            let id = try ContactInput.id(contact, client: &client)
            let removed = try Input.confirmedRemoval(
                of: Output.l.tr("contact"), id: id, yes: yes, client: &client, remove: ContactRPC.remove
            ) { client in
                let c = try client.call(ContactRPC.show, IDParams(id: id))
                let count = c.appointmentCount ?? 0
                return count == 0
                    ? Output.l.tr("Delete contact %s '%s'?", id, c.displayName)
                    : Output.l.trn(
                        "Delete contact %s '%s' and unlink the %s appointment that names it?",
                        "Delete contact %s '%s' and unlink the %s appointments that name it?", count, id, c.displayName,
                        count)
            }
            guard let gone = removed else { return }
            if output.json { return try Output.json(gone) }
            let count = gone.appointmentCount ?? 0
            Output.line(
                count == 0
                    ? Output.l.tr("Deleted contact %s: %s.", id, gone.name)
                    : Output.l.trn(
                        "Deleted contact %s: %s; %s appointment keeps its data without the link.",
                        "Deleted contact %s: %s; %s appointments keep their data without the link.", count, id,
                        gone.name, count))
        }
    }
}

struct MessageCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "message",
            abstract: Output.l.tr(
                "Print a ready SMS to book, confirm or cancel a visit, with an sms: link for the salon's phone."),
            discussion: Output.l.tr(
                "Example:\n  beautyctl message confirm 3\n  xdg-open \"$(beautyctl message confirm 3 --json | jq -r .smsURI)\""
            ))
    }

    @Argument(help: ArgumentHelp(Output.l.tr("Which template: book, confirm or cancel."))) var template: MessageTemplate
    @Argument(help: ArgumentHelp(Output.l.tr("Appointment id."))) var id: Int64
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        var client = global.client
        let result = try client.call(
            ContactRPC.message, ContactMessageParams(id: id, template: template, language: Output.l.language.rawValue))
        if output.json { return try Output.json(result) }
        Output.line(result.text)
        if let uri = result.smsURI, let phone = result.phone {
            Output.line()
            Output.line(Output.l.tr("to: %s", phone))
            Output.line(uri)
        } else {
            Output.warn(
                Output.l.tr(
                    "appointment %s has no contact, so there is no number to send it to (%s)", id,
                    "beautyctl appointment edit \(id) --contact ID"))
        }
    }
}

extension MessageTemplate: ExpressibleByArgument {
    /// book, confirm, cancel, or their word in any language: "umów", "potwierdź", "zrušiť".
    public init?(argument: String) { self.init(typed: argument) }

    /// The names `--help` and a usage error list: the user's own words ("umów, potwierdź, odwołaj").
    public static var allValueStrings: [String] { allCases.map { $0.word(Output.l) } }

    /// A completion script is generated once and installed for every language: it offers the English
    /// names, which every language accepts.
    public static var defaultCompletionKind: CompletionKind { .list(allCases.map(\.rawValue)) }
}
