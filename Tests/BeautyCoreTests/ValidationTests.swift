import BeautyCore
import Foundation
import Testing

@Suite("Validation")
struct ValidationTests {
    @Test(arguments: ["Haircut", "Strzyżenie", "Manikúra", "ネイル", "Стрижка", "  Trimmed  "])
    func namesInAnyLanguageAreAccepted(_ title: String) throws {
        #expect(try Validation.name(title, field: "title") == title.trimmingCharacters(in: .whitespaces))
    }

    @Test(arguments: ["", "   ", "Bad\u{0007}bell", "Two\nlines", "Tab\there", "Null\u{0000}"])
    func emptyAndControlCharactersAreRefused(_ title: String) {
        #expect(throws: ValidationError.self) { try Validation.name(title, field: "title") }
    }

    @Test func notesMayHaveSeveralLinesButNoOtherControls() throws {
        #expect(try Validation.optionalText("a\nb", field: "notes", multiline: true) == "a\nb")
        #expect(throws: ValidationError.self) { try Validation.optionalText("a\u{1B}[31m", field: "notes", multiline: true) }
        #expect(try Validation.optionalText("   ", field: "notes") == nil)
    }

    @Test(arguments: ["+48 600 100 200", "600-100-200", "(22) 555 01 02", "112"])
    func phones(_ phone: String) throws {
        #expect(try Validation.phone(phone) == phone)
    }

    @Test(arguments: ["", "12", "call me", "+48+600", "600 100 200 300 400 500 600"])
    func badPhones(_ phone: String) {
        #expect(throws: ValidationError.self) { try Validation.phone(phone) }
    }

    @Test func dialableKeepsPlusAndDigits() {
        #expect(Validation.dialable("+48 (600) 100-200") == "+48600100200")
    }

    @Test func emailsColoursCategories() throws {
        #expect(try Validation.email("anna@salon.pl") == "anna@salon.pl")
        #expect(throws: ValidationError.self) { try Validation.email("anna@salon") }
        #expect(throws: ValidationError.self) { try Validation.email("an na@salon.pl") }
        #expect(try Validation.color("Red") == "red")
        #expect(try Validation.color("#A0b1C2") == "#a0b1c2")
        #expect(throws: ValidationError.self) { try Validation.color("blurple") }
        #expect(try Validation.category("Hair/Colour") == "hair/colour")
        #expect(throws: ValidationError.self) { try Validation.category("hair colour") }
    }

    @Test func appointmentValidationNamesTheBadField() throws {
        var a = Appointment(title: "Facial", start: Date(), durationSeconds: -5)
        #expect(throws: ValidationError(field: "duration", "must not be negative")) { try Validation.appointment(a) }
        a.durationSeconds = 60
        a.price = Money(cents: -1, currency: "EUR")
        #expect(throws: ValidationError(field: "price", "must not be negative")) { try Validation.appointment(a) }
        a.price = Money(cents: 100, currency: "eu")
        #expect(throws: ValidationError.self) { try Validation.appointment(a) }
        a.price = Money(cents: 100, currency: "pln")
        #expect(try Validation.appointment(a).price == Money(cents: 100, currency: "PLN"))
    }

    @Test func duplicateRemindersCollapseAndNegativeLeadsAreRefused() throws {
        #expect(try Validation.reminders([.before(60), .before(60)]) == [.before(60)])
        #expect(throws: ValidationError.self) { try Validation.reminders([.before(-1)]) }
    }
}

@Suite("Texts: notifications and SMS templates")
struct TextTests {
    let contact = Contact(id: 1, name: "Salon Anna", phone: "+48 600 100 200", firstName: "Anna", lastName: "Nowak")

    @Test func notificationBodyHasLocalTimeDurationAddressAndContact() {
        let a = Appointment(id: 1, title: "Strzyżenie", start: instant("2026-12-01 14:00"), durationSeconds: 5400,
                            address: "ul. Długa 5, Kraków")
        let text = NotificationText.appointment(a, contact: contact, zone: warsaw)
        #expect(text.summary == "Strzyżenie")
        #expect(text.body == "Tue 1 Dec 2026, 14:00–15:30 (1h30m)\nul. Długa 5, Kraków\nSalon Anna (Anna Nowak), +48 600 100 200")
    }

    @Test func allDayBodySaysSo() {
        let a = Appointment(id: 1, title: "Spa day", start: instant("2026-12-24 00:00"), durationSeconds: 86_400, allDay: true)
        #expect(NotificationText.appointment(a, contact: nil, zone: warsaw).body == "Thu 24 Dec 2026, all day")
    }

    @Test func bodyIsShownInTheReadersZone() {
        let a = Appointment(id: 1, title: "Call", start: utc("2026-12-01T13:00:00Z"))
        let newYork = TimeZone(identifier: "America/New_York")!
        #expect(NotificationText.appointment(a, contact: nil, zone: newYork).body.hasPrefix("Tue 1 Dec 2026, 08:00–09:00"))
    }

    @Test func missedWhileAwayListsEveryItem() {
        let text = NotificationText.missedWhileAway(
            [(title: "Nails", occurrence: instant("2026-12-01 10:00")), (title: "Hair", occurrence: instant("2026-12-01 11:00"))],
            zone: warsaw)
        #expect(text.summary == "2 reminders missed while away")
        #expect(text.body == "• Nails — Tue 1 Dec 2026, 10:00\n• Hair — Tue 1 Dec 2026, 11:00")
    }

    @Test func markupIsEscaped() {
        #expect(NotificationText(summary: "", body: "<b>R&D</b>").escapedBody == "&lt;b&gt;R&amp;D&lt;/b&gt;")
    }

    @Test func smsTemplatesAreFilledAndTheURIIsRFC5724() {
        let a = Appointment(id: 3, title: "Manicure", start: instant("2026-12-01 14:00"))
        #expect(MessageTemplate.confirm.text(for: a, contact: contact, zone: warsaw)
            == "Hello Salon Anna, I want to confirm my visit (Manicure) on Tue 1 Dec 2026 at 14:00.")
        #expect(MessageTemplate.cancel.text(for: a, contact: nil, zone: warsaw)
            == "Hello, I want to cancel my visit (Manicure) on Tue 1 Dec 2026 at 14:00.")
        #expect(MessageTemplate.book.text(for: a, contact: contact, zone: warsaw).hasSuffix("Could you let me know, please?"))
        #expect(MessageTemplate.smsURI(phone: "+48 600 100 200", body: "Hi & bye?")
            == "sms:+48600100200?body=Hi%20%26%20bye%3F")
    }
}
