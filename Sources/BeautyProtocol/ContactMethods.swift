import BeautyCore
import Foundation

public struct ContactAddParams: Codable, Sendable {
    public var name: String
    public var phone: String
    public var email: String?
    public var firstName: String?
    public var lastName: String?
    public var address: String?
    public init(name: String, phone: String) {
        self.name = name
        self.phone = phone
    }
}

public struct ContactEditParams: Codable, Sendable {
    public enum Clearable: String, Codable, Sendable, CaseIterable {
        case email, firstName, lastName, address
    }

    public var id: Int64
    public var name: String?
    public var phone: String?
    public var email: String?
    public var firstName: String?
    public var lastName: String?
    public var address: String?
    public var clear: [Clearable]?
    public init(id: Int64) { self.id = id }
}

public struct MessageParams: Codable, Sendable {
    public var id: Int64
    public var template: MessageTemplate
    public init(id: Int64, template: MessageTemplate) {
        self.id = id
        self.template = template
    }
}

public struct MessageResult: Codable, Sendable {
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
