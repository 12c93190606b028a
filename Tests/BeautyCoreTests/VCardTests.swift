@testable import BeautyCore
import Foundation
import Testing

@Suite("vCard")
struct VCardTests {
    static let contacts = [
        Contact(
            name: "Salon Anna; Kraków", phone: "+48 600 100 200", email: "anna@example.com", firstName: "Anna",
            lastName: "Nowak, Kowalska", address: "ul. Długa 5, Kraków", uid: "urn:uuid:0f8e1c2a"),
        Contact(name: "Spa Ewa", phone: "22 123 45 67", uid: "urn:uuid:b1", language: .slovak),
    ]

    @Test func writesVCard4AndReadsItBackTheSame() throws {
        let text = VCard.serialize(Self.contacts)
        #expect(text.hasPrefix("BEGIN:VCARD\r\nVERSION:4.0\r\nUID:urn:uuid:0f8e1c2a\r\nFN:Salon Anna\\; Kraków\r\n"))
        #expect(text.contains("N:Nowak\\, Kowalska;Anna;;;\r\n") && text.contains("TEL;VALUE=text:+48 600 100 200\r\n"))
        #expect(
            text.contains("LANG:sk\r\n") && text.components(separatedBy: "LANG:").count == 2,
            "only the Slovak contact has a language")
        let read = try VCard.read(text)
        #expect(read.cards.map(\.contact) == Self.contacts && read.warnings.isEmpty, "\(read.warnings)")
        #expect(read.cards.map(\.line) == [1, 10])
        #expect(VCard.serialize(read.cards.map(\.contact)) == text)
    }

    @Test func readsVCard21StyleTypesGroupsAndFoldedLines() throws {
        let text =
            "BEGIN:VCARD\nVERSION:3.0\nFN:Ewa\nitem1.TEL;CELL;PREF:600 1\n 00 200\nitem1.X-ABLabel:mobile\nTEL;HOME:22 111 22 33\nEND:VCARD\n"
        let read = try VCard.read(text)
        #expect(read.cards.first?.contact.phone == "600 100 200")
        #expect(read.warnings.map(\.line) == [6, 7], "\(read.warnings)")
    }

    @Test func aContactsLanguageIsItsFirstLANGThatBeautydWritesIn() throws {
        let text =
            "BEGIN:VCARD\nVERSION:4.0\nFN:Salón Jana\nTEL:+421 905 100 200\nLANG;PREF=2:fr\nLANG;PREF=1:sk-SK\nEND:VCARD\n"
        let read = try VCard.read(text)
        #expect(read.cards.first?.contact.language == .slovak && read.warnings.isEmpty, "\(read)")
    }

    @Test func malformedFilesAreRefusedWithTheirLine() {
        for (text, line) in [("BEGIN:VCARD\nFN:x\n", 2), ("FN:x\n", 1), ("BEGIN:VCARD\nFN x\nEND:VCARD\n", 2), ("", 1)]
        {
            #expect(throws: LineError.self) { try VCard.read(text) }
            do { _ = try VCard.read(text) } catch let error as LineError {
                #expect(error.line == line, "\(text): \(error)")
            } catch {}
        }
    }
}
