import Foundation

/// A salon or person to book with.
public struct Contact: Codable, Sendable, Equatable {
    public var id: Int64?
    public var name: String
    public var phone: String
    public var email: String?
    public var firstName: String?
    public var lastName: String?
    public var address: String?

    public init(
        id: Int64? = nil, name: String, phone: String, email: String? = nil,
        firstName: String? = nil, lastName: String? = nil, address: String? = nil
    ) {
        self.id = id
        self.name = name
        self.phone = phone
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.address = address
    }

    /// "Salon Anna (Anna Nowak)" when a person is named, else just the name.
    public var displayName: String {
        let person = [firstName, lastName].compactMap { $0 }.joined(separator: " ")
        return person.isEmpty ? name : "\(name) (\(person))"
    }
}
