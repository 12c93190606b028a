import BeautyProtocol
import Foundation

/// `--contact` and `--category` go with the request as typed: beautyd finds the contact and checks the
/// category where they are kept, so a command makes one request. A refusal is shown as beautyctl
/// shows a usage error (`--contact: 'Anna' matches 2 contacts: ...`, the category tree in the user's
/// language); on a terminal, a contact that does not exist is offered to be added, and the request
/// is sent again with it.
enum AppointmentReferenceInput {
    /// `send` makes the request, with the id of a contact just added when there is one.
    static func call<R>(
        contact: String?, category: String?, typedCategory: String?, client: inout any RPCCalling,
        _ send: (inout any RPCCalling, _ addedContactID: Int64?) throws -> R
    ) throws -> R {
        var added: Int64?
        while true {
            do {
                return try send(&client, added)
            } catch let failure as CLIFailure where failure.data?.field == "contact" {
                guard let text = failure.data?.translatable?.rendered(Output.l) else { throw failure }
                guard failure.code == .notFound else { throw CLIFailure(.usage, text) }
                guard added == nil, let contact, isatty(STDIN_FILENO) == 1 else { throw CLIFailure(.notFound, text) }
                added = try ContactInput.offerToAdd(contact, option: "--contact", client: &client)
            } catch let failure as CLIFailure where failure.data?.field == "category" && failure.code == .refused {
                try CategoriesCommand.requireKnown(category, typed: typedCategory, client: &client)
                throw failure
            }
        }
    }
}
