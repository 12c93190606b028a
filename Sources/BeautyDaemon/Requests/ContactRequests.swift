import BeautyCore
import BeautyLocalization
import BeautyProtocol
import BeautyStore
import Foundation

/// contact.* and message (an appointment's SMS text for its contact).
extension UnsplitRequests {
    static func contactRoutes(_ router: inout UnsplitRoutes) {
        router.register(ContactRPC.add) { try $0.addContact($1) }
        router.register(ContactRPC.list) { requests, p in
            try ListSort.sorted(try requests.store.contacts(), sort: p.sort, reverse: p.reverse, supported: [.title]) {
                c, _ in .text(c.name)
            }
        }
        router.register(ContactRPC.show) { requests, p in
            var contact = try requests.store.contact(id: p.id)
            contact.appointmentCount = try requests.store.appointmentCount(contactID: p.id)
            return contact
        }
        router.register(ContactRPC.edit) { try $0.editContact($1) }
        router.register(ContactRPC.remove) { requests, p in
            var gone = try requests.store.contact(id: p.id)
            gone.appointmentCount = try requests.store.appointmentCount(contactID: p.id)
            try requests.store.deleteContact(id: p.id)
            return gone
        }
        router.register(ContactRPC.message) { try $0.message($1) }
        router.register(ContactRPC.importCards) { try $0.importContacts($1) }
        router.register(ContactRPC.exportCards) { requests, _ in
            try requests.store.assignMissingContactUIDs()
            return try requests.store.contacts()
        }
    }

    private func importContacts(_ p: ContactImportParams) throws -> ContactImportResult {
        let contacts = try p.contacts.enumerated().map { index, raw in
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
        let counts = try store.importContacts(contacts)
        logger.info("contact import: \(counts.inserted) new, \(counts.updated) updated, \(counts.unchanged) unchanged")
        return ContactImportResult(inserted: counts.inserted, updated: counts.updated, unchanged: counts.unchanged)
    }

    private func addContact(_ p: ContactAddParams) throws -> Contact {
        let contact = try Validation.contact(
            Contact(
                name: p.name, phone: p.phone, email: p.email, firstName: p.firstName, lastName: p.lastName,
                address: p.address,
                language: try p.language.map { try Language.ofContact($0) }))
        return try store.addContact(contact)
    }

    private func editContact(_ p: ContactEditParams) throws -> Contact {
        var c = try store.contact(id: p.id)
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
        return try store.updateContact(try Validation.contact(c))
    }

    private func message(_ p: MessageParams) throws -> MessageResult {
        let a = try store.appointments.get(id: p.id)
        let contact = a.contactID.flatMap { try? store.contact(id: $0) }
        // A contact may write in another language than the user: the SMS is for the contact.
        let language =
            contact?.language ?? p.language.flatMap(Language.init(code:)) ?? settings.config.language
            ?? SessionLanguage.shared.language
        let text = p.template.text(for: a, contact: contact, zone: zone.current, localizer: .forLanguage(language))
        return MessageResult(
            template: p.template, text: text, phone: contact?.phone,
            smsURI: contact.map { MessageTemplate.smsURI(phone: $0.phone, body: text) })
    }
}
