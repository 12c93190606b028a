import BeautyCore
import Foundation
import Testing

@Suite("ContactLookup: --contact by id, phone or name")
struct ContactLookupTests {
    let contacts = [
        Contact(id: 1, name: "Salon Anna", phone: "+48 600 100 200", firstName: "Anna", lastName: "Nowak"),
        Contact(id: 2, name: "Studio Paznokci", phone: "600-100-300"),
        Contact(id: 3, name: "Salon Ewa", phone: "+48 601 000 000"),
        Contact(id: 600, name: "Barber 600", phone: "22 123 45 67"),
    ]

    func id(_ query: String) -> Int64? {
        if case let .found(contact) = ContactLookup.find(query, in: contacts) { return contact.id }
        return nil
    }

    @Test func byIdPhoneOrName() {
        #expect(id("2") == 2 && id("600") == 600)
        #expect(
            id("+48 600 100 200") == 1 && id("600100200") == 1 && id("(600) 100-300") == 2,
            "digits compared, country code optional")
        #expect(id("salon anna") == 1 && id("Anna Nowak") == 1 && id("Salon Anna (Anna Nowak)") == 1)
        #expect(id("studio") == 2 && id("ewa") == 3, "a unique part")
    }

    @Test func severalOrNone() {
        #expect(ContactLookup.find("Salon", in: contacts) == .ambiguous([contacts[0], contacts[2]]))
        #expect(ContactLookup.find("Kasia", in: contacts) == .none)
        #expect(ContactLookup.find("999", in: contacts) == .none)
        #expect(ContactLookup.find("  ", in: contacts) == .none)
        #expect(ContactLookup.looksLikePhone("+48 600 100 200") && !ContactLookup.looksLikePhone("Salon 1"))
    }
}
