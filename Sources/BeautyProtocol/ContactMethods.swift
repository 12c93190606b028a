import BeautyCore
import Foundation

public struct ContactAddParams: Codable, Sendable {
    public var name: String
    public var phone: String
    public var email: String?
    public var firstName: String?
    public var lastName: String?
    public var address: String?
    /// The language of its SMS texts: "en", "pl" or "sk".
    public var language: String?
    public init(name: String, phone: String) {
        self.name = name
        self.phone = phone
    }
}

public struct ContactEditParams: Codable, Sendable {
    public enum Clearable: String, Codable, Sendable, CaseIterable {
        case email, firstName, lastName, address, language
    }

    public var id: Int64
    public var name: String?
    public var phone: String?
    public var email: String?
    public var firstName: String?
    public var lastName: String?
    public var address: String?
    public var language: String?
    public var clear: [Clearable]?
    public init(id: Int64) { self.id = id }
}

public struct ContactMessageParams: Codable, Sendable {
    public var id: Int64
    public var template: MessageTemplate
    /// The language of the text ("en", "pl", "sk"; beautyctl sends its user's); absent: the daemon's.
    public var language: String?
    public init(id: Int64, template: MessageTemplate, language: String? = nil) {
        self.id = id
        self.template = template
        self.language = language
    }
}

public struct ContactMessageResult: Codable, Sendable {
    public var template: MessageTemplate
    public var text: String
    /// Absent when the appointment has no contact to send it to.
    public var phone: String?
    public var smsURI: String?
    public init(template: MessageTemplate, text: String, phone: String?, smsURI: String?) {
        self.template = template
        self.text = text
        self.phone = phone
        self.smsURI = smsURI
    }
}

/// Contacts read from a vCard file (`beautyctl contact import`), each with its UID if it had one.
public struct ContactImportParams: Codable, Sendable {
    public var contacts: [Contact]
    public init(contacts: [Contact]) { self.contacts = contacts }
}

public struct ContactImportResult: Codable, Sendable, Equatable {
    public var inserted: Int
    public var updated: Int
    public var unchanged: Int
    public init(inserted: Int, updated: Int, unchanged: Int) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
    }
}

public enum ContactRPC {
    public static let add = RPC<ContactAddParams, Contact>("contact.add")
    public static let list = RPC<ListOrderParams, [Contact]>("contact.list")
    public static let show = RPC<IDParams, Contact>("contact.show")
    public static let edit = RPC<ContactEditParams, Contact>("contact.edit")
    /// Answers the contact as it was.
    public static let remove = RPC<IDParams, Contact>("contact.rm")
    /// A text for an appointment's contact.
    public static let message = RPC<ContactMessageParams, ContactMessageResult>("message")
    /// Inserts or updates contacts by UID, else by name; all or nothing.
    public static let importCards = RPC<ContactImportParams, ContactImportResult>("contact.import")
    /// Every contact by name, each with a UID (contacts without one are given a permanent one).
    public static let exportCards = RPC<NoParams, [Contact]>("contact.export")

    static let methods = [
        add.method, list.method, show.method, edit.method, remove.method, message.method,
        importCards.method, exportCards.method,
    ]
}
