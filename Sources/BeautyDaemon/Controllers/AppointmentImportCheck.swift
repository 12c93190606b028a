import BeautyCore
import BeautyProtocol
import Foundation

/// Every appointment an import brings, checked as it will be stored: by appointment.import, the staged
/// import's chunks, sync's pulls and a restore from sync's trash alike.
enum AppointmentImportCheck {
    /// The appointments as they will be stored (contacts still unlinked) with the contacts they name, or
    /// the first one refused, named by its index in the whole import (`appointments[7012].title`).
    /// `tree`: the categories, to tell the category from tags; `currency`: a price's when it has none.
    static func checked(
        _ appointments: [Appointment], contactNames: [String?], contactPhones: [String?]?, firstIndex: Int,
        tree: [(name: String, title: String)], currency: String
    ) throws -> (appointments: [Appointment], contacts: [Contact?]) {
        guard contactNames.isEmpty || contactNames.count == appointments.count else {
            throw ValidationError(field: "contactNames", template: "must have one entry per appointment")
        }
        let phones = contactPhones ?? []
        guard phones.isEmpty || phones.count == contactNames.count else {
            throw ValidationError(field: "contactPhones", template: "must have one entry per contact name")
        }
        var contacts: [Contact?] = []
        contacts.reserveCapacity(appointments.count)
        let checked = try appointments.enumerated().map { offset, raw in
            let index = firstIndex + offset
            var a = raw
            a.id = nil
            a.seriesID = nil  // the store links a changed occurrence to its series by UID
            // A named contact is linked at the write; what the client put in contactID then does not count.
            if offset < contactNames.count, contactNames[offset] != nil { a.contactID = nil }
            guard a.uid != nil else {
                throw ValidationError(field: "appointments[\(index)].uid", template: "is required to import")
            }
            if let price = a.price, price.currency.isEmpty { a.price = Money(cents: price.cents, currency: currency) }
            // Calendar categories: the one naming a node of the tree is the category, the rest stay tags.
            (a.category, a.tags) = CategoryAssignment.assign((a.category.map { [$0] } ?? []) + a.tags, tree: tree)
            do {
                let name = offset < contactNames.count ? contactNames[offset] : nil
                let phone = offset < phones.count ? phones[offset] : nil
                contacts.append(
                    try name.map { name in
                        Contact(
                            name: try Validation.name(name, field: "contact"),
                            phone: try phone.map { try Validation.phone($0, field: "contactPhone") } ?? "")
                    })
                return try Validation.appointment(a)
            } catch let error as ValidationError {
                // The title names the event; a control character in it (the likely error) must not reach a terminal.
                throw error.within("appointments[\(index)]", naming: Validation.quotable(a.title))
            }
        }
        return (checked, contacts)
    }
}
