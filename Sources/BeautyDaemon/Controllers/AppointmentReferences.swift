import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation

/// The params of appointment.add, .edit and .split that name other things as the user typed them.
protocol TypedAppointmentReferences {
    var contactID: Int64? { get set }
    var contact: String? { get set }
    var category: String? { get }
    var requireKnownCategory: Bool? { get }
}

extension AppointmentAddParams: TypedAppointmentReferences {}
extension AppointmentEditParams: TypedAppointmentReferences {}

/// What an appointment names by what the user typed, found where the data is, so that beautyctl
/// sends one request: the contact (`contact`: an id, a phone number or a name, as `ContactLookup`
/// finds it) and, when asked, a category of the tree. A refusal says it as beautyctl did.
struct AppointmentReferences: Sendable {
    /// The contacts, which the contacts' area keeps.
    let database: AppDatabase
    let categories: CategoryStore

    /// `p` with the contact it names as `contactID`; refused when it names none or several, or a
    /// category the tree does not have when `requireKnownCategory`.
    func resolved<P: TypedAppointmentReferences>(_ p: P) throws -> P {
        var p = p
        if let typed = p.contact { p.contactID = try contactID(typed) }
        if p.requireKnownCategory == true { try checkKnown(category: p.category) }
        return p
    }

    private func contactID(_ text: String) throws -> Int64 {
        let contacts = try database.contacts.all()
        switch ContactLookup.find(text, in: contacts) {
        case let .found(contact):
            return contact.id ?? 0
        case let .ambiguous(matches):
            throw ValidationError(
                field: "contact", ContactLookup.ambiguity(text, option: "--contact", matches: matches))
        case .none:
            throw NotFoundRefusal(
                refusal: ValidationError(
                    field: "contact", ContactLookup.noMatch(text, option: "--contact", contacts: contacts)))
        }
    }

    /// Refuses a category that is not in the tree, listing the tree (beautyctl lists it with the titles
    /// in the user's language).
    private func checkKnown(category: String?) throws {
        guard let typed = category, case let code = typed.trimmingCharacters(in: .whitespaces).lowercased(),
            !code.isEmpty
        else { return }
        let rows = try categories.all()
        guard !rows.contains(where: { $0.name == code }) else { return }
        let lines = rows.filter { $0.parent == nil }.flatMap { parent in
            ["  \(parent.name)  \(parent.title)"]
                + rows.filter { $0.parent == parent.name }.map { "    \($0.name)  \($0.title)" }
        }
        throw ValidationError(
            field: "category", template: "--category: '%s' is no category, nor a word of one; the categories:\n%s",
            typed, lines.joined(separator: "\n"))
    }
}
