import BeautyCore
import BeautyLocalization
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// contact.* and message (an appointment's SMS text for its contact).
struct ContactController: RequestController {
    let contacts: ContactStore
    /// The appointment a message is for.
    let database: AppDatabase
    /// The language a message falls back to.
    let settings: SettingsBox
    let logger: Logger
    /// The user's zone: a message's local times.
    let zone: any ZoneSource

    func addRoutes(to router: inout RequestRouter) {
        router.register(ContactRPC.add, add)
        router.register(ContactRPC.list, list)
        router.register(ContactRPC.show, show)
        router.register(ContactRPC.edit, edit)
        router.register(ContactRPC.remove, remove)
        router.register(ContactRPC.message, message)
        router.register(ContactRPC.importCards, importCards)
        router.register(ContactRPC.exportCards) { (_: NoParams) in try exportCards() }
    }

    func add(_ p: ContactAddParams) throws -> Contact {
        let contact = try Validation.contact(
            Contact(
                name: p.name, phone: p.phone, email: p.email, firstName: p.firstName, lastName: p.lastName,
                address: p.address,
                language: try p.language.map { try Language.ofContact($0) }))
        return try contacts.add(contact)
    }

    func list(_ p: ListOrderParams) throws -> [Contact] {
        try ListSort.sorted(try contacts.all(), sort: p.sort, reverse: p.reverse, supported: [.title]) { c, _ in
            .text(c.name)
        }
    }

    func show(_ p: IDParams) throws -> Contact {
        var contact = try contacts.contact(id: p.id)
        contact.appointmentCount = try contacts.appointmentCount(of: p.id)
        return contact
    }

    func edit(_ p: ContactEditParams) throws -> Contact {
        var c = try contacts.contact(id: p.id)
        for field in p.clear ?? [] {
            switch field {
            case .email: c.email = nil
            case .firstName: c.firstName = nil
            case .lastName: c.lastName = nil
            case .address: c.address = nil
            case .language: c.language = nil
            }
        }
        if let v = p.name { c.name = v }
        if let v = p.phone { c.phone = v }
        if let v = p.email { c.email = v }
        if let v = p.firstName { c.firstName = v }
        if let v = p.lastName { c.lastName = v }
        if let v = p.address { c.address = v }
        if let v = p.language { c.language = try Language.ofContact(v) }
        return try contacts.update(try Validation.contact(c))
    }

    func remove(_ p: IDParams) throws -> Contact {
        var gone = try contacts.contact(id: p.id)
        gone.appointmentCount = try contacts.appointmentCount(of: p.id)
        try contacts.delete(id: p.id)
        return gone
    }

    func message(_ p: ContactMessageParams) throws -> ContactMessageResult {
        let a = try database.appointments.get(id: p.id)
        let contact = a.contactID.flatMap { try? contacts.contact(id: $0) }
        // A contact may write in another language than the user: the SMS is for the contact.
        let language =
            contact?.language ?? p.language.flatMap(Language.init(code:)) ?? settings.config.shownLanguage
        let text = p.template.text(for: a, contact: contact, zone: zone.current, localizer: .forLanguage(language))
        return ContactMessageResult(
            template: p.template, text: text, phone: contact?.phone,
            smsURI: contact.map { MessageTemplate.smsURI(phone: $0.phone, body: text) })
    }

    func importCards(_ p: ContactImportParams) throws -> ContactImportResult {
        let incoming = try p.contacts.enumerated().map { index, raw in
            var c = raw
            c.id = nil
            do {
                c = try Validation.contact(c)
                if let uid = c.uid { c.uid = try Validation.name(uid, field: "uid") }
                return c
            } catch let error as ValidationError {
                throw error.within("contacts[\(index)]", naming: Validation.quotable(c.name))
            }
        }
        let counts = try contacts.import(incoming)
        logger.info("contact import: \(counts.inserted) new, \(counts.updated) updated, \(counts.unchanged) unchanged")
        return ContactImportResult(inserted: counts.inserted, updated: counts.updated, unchanged: counts.unchanged)
    }

    func exportCards() throws -> [Contact] {
        try contacts.assignMissingUIDs()
        return try contacts.all()
    }
}
