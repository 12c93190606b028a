import BeautyCore
import BeautyTestSupport
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

    @Test("a zone checked twice stays valid: UTC (a series imported with a UTC start) is kept as UTC")
    func zonesAreCheckedIdempotently() throws {
        for zone in ["UTC", "Europe/Warsaw", "America/Argentina/Buenos_Aires"] {
            let once = try Validation.timeZone(zone)
            #expect(once == zone)
            #expect(try Validation.timeZone(once) == once)
        }
    }

    @Test func notesMayHaveSeveralLinesButNoOtherControls() throws {
        #expect(try Validation.optionalText("a\nb", field: "notes", multiline: true) == "a\nb")
        #expect(throws: ValidationError.self) {
            try Validation.optionalText("a\u{1B}[31m", field: "notes", multiline: true)
        }
        #expect(try Validation.optionalText("   ", field: "notes") == nil)
    }

    /// Every Unicode bidirectional control: the marks (ALM, LRM, RLM), embeddings and overrides
    /// (LRE, RLE, PDF, LRO, RLO) and isolates (LRI, RLI, FSI, PDI).
    static let bidiControls: [UInt32] = [
        0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069,
    ]

    @Test(arguments: bidiControls)
    func bidirectionalControlsAreRefusedInEveryTextField(_ code: UInt32) throws {
        let bidi = String(Unicode.Scalar(code)!)
        let spoof = "Invoice \(bidi)gnp.exe"
        let named = "U+" + String(format: "%04X", code)
        func refused(_ field: String, _ check: () throws -> Any?) {
            let error = #expect(throws: ValidationError.self) { try check() }
            #expect(
                error?.field == field && error?.message.contains("bidirectional control character (\(named))") == true,
                "\(String(describing: error))")
        }
        refused("title") { try Validation.name(spoof, field: "title") }
        refused("address") { try Validation.optionalText(spoof, field: "address") }
        refused("notes") { try Validation.optionalText("line one\n\(spoof)", field: "notes", multiline: true) }
        refused("title") { try Validation.appointment(Appointment(title: spoof, start: Date(), durationSeconds: 60)) }
        refused("address") {
            try Validation.appointment(Appointment(title: "Facial", start: Date(), durationSeconds: 60, address: spoof))
        }
        refused("uid") {
            try Validation.appointment(Appointment(title: "Facial", start: Date(), durationSeconds: 60, uid: spoof))
        }
        refused("name") { try Validation.contact(Contact(name: spoof, phone: "600 100 200")) }
        refused("last name") { try Validation.contact(Contact(name: "Anna", phone: "600 100 200", lastName: spoof)) }
        refused("email") { try Validation.email("anna\(bidi)@salon.pl") }
        let daily = MedicationSchedule(kind: .times, times: [ClockTime(hour: 8, minute: 0)])
        refused("name") { try Validation.medication(Medication(name: spoof, schedule: daily)) }
        refused("dose") { try Validation.medication(Medication(name: "Iron", dose: spoof, schedule: daily)) }
        // Fields with a narrower alphabet refuse it as any other stray character.
        #expect(throws: ValidationError.self) { try Validation.waterUUID("health-\(bidi)1") }
        #expect(throws: ValidationError.self) { try Validation.phone("600\(bidi)100200") }
        #expect(throws: ValidationError.self) { try Validation.category("hair\(bidi)") }
    }

    @Test(arguments: ["שלום", "مرحبا بك", "Salon ליאת", "Anna (أنا)"])
    func rightToLeftLettersAreStillAccepted(_ title: String) throws {
        #expect(try Validation.name(title, field: "title") == title)
    }

    @Test func errorMessagesQuoteTextWithoutControls() throws {
        #expect(Validation.quotable("Invoice \u{202E}gnp.exe\u{1B}[31m\u{2066}") == "Invoice ?gnp.exe?[31m?")
        #expect(Validation.quotable("Strzyżenie ליאת") == "Strzyżenie ליאת")
        let phone = #expect(throws: ValidationError.self) { try Validation.phone("600\u{202E}100") }
        #expect(phone?.message == "'600?100' is not a phone number (unexpected '?')")
        let uuid = #expect(throws: ValidationError.self) { try Validation.waterUUID("health\u{202E}vsc") }
        #expect(uuid?.message == "'health?vsc' is not an identifier (1–100 printable characters, no spaces)")
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
        let a = Appointment(
            id: 1, title: "Strzyżenie", start: instant("2026-12-01 14:00"), durationSeconds: 5400,
            address: "ul. Długa 5, Kraków")
        let text = NotificationText.appointment(a, contact: contact, zone: warsaw)
        #expect(text.summary == "Strzyżenie")
        #expect(
            text.body
                == "Tue 1 Dec 2026, 14:00–15:30 (1h30m)\nul. Długa 5, Kraków\nSalon Anna (Anna Nowak), +48 600 100 200")
    }

    @Test func allDayBodySaysSo() {
        let a = Appointment(
            id: 1, title: "Spa day", start: instant("2026-12-24 00:00"), durationSeconds: 86_400, allDay: true)
        #expect(NotificationText.appointment(a, contact: nil, zone: warsaw).body == "Thu 24 Dec 2026, all day")
    }

    @Test func aSeriesReminderNamesTheOccurrenceItAnnounces() {
        // A DAILY series begun 26 Nov at 18:18: the 27 Nov reminder named 26 Nov.
        let a = Appointment(id: 1, title: "Maseczka", start: instant("2026-11-26 18:18"))
        #expect(
            NotificationText.appointment(a, contact: nil, zone: warsaw, occurrence: instant("2026-11-27 18:18")).body
                == "Fri 27 Nov 2026, 18:18–19:18 (1h)")
        let allDay = Appointment(
            id: 2, title: "Spa", start: instant("2026-12-24 00:00"), durationSeconds: 86_400, allDay: true)
        #expect(
            NotificationText.appointment(allDay, contact: nil, zone: warsaw, occurrence: instant("2026-12-31 00:00"))
                .body
                == "Thu 31 Dec 2026, all day")
    }

    @Test func bodyIsShownInTheReadersZone() {
        let a = Appointment(id: 1, title: "Call", start: utc("2026-12-01T13:00:00Z"))
        let newYork = TimeZone(identifier: "America/New_York")!
        #expect(
            NotificationText.appointment(a, contact: nil, zone: newYork).body.hasPrefix("Tue 1 Dec 2026, 08:00–09:00"))
    }

    @Test func missedWhileAwayListsEveryItem() {
        let text = NotificationText.missedWhileAway(
            [
                (title: "Nails", occurrence: instant("2026-12-01 10:00")),
                (title: "Hair", occurrence: instant("2026-12-01 11:00")),
            ],
            zone: warsaw)
        #expect(text.summary == "2 reminders missed while away")
        #expect(text.body == "• Nails — Tue 1 Dec 2026, 10:00\n• Hair — Tue 1 Dec 2026, 11:00")
    }

    @Test func markupIsEscaped() {
        #expect(NotificationText(summary: "", body: "<b>R&D</b>").escapedBody == "&lt;b&gt;R&amp;D&lt;/b&gt;")
    }

    @Test func smsTemplatesAreFilledAndTheURIIsRFC5724() {
        let a = Appointment(id: 3, title: "Manicure", start: instant("2026-12-01 14:00"))
        #expect(
            MessageTemplate.confirm.text(for: a, contact: contact, zone: warsaw)
                == "Hello Salon Anna, I want to confirm my visit (Manicure) on Tue 1 Dec 2026 at 14:00.")
        #expect(
            MessageTemplate.cancel.text(for: a, contact: nil, zone: warsaw)
                == "Hello, I want to cancel my visit (Manicure) on Tue 1 Dec 2026 at 14:00.")
        #expect(
            MessageTemplate.book.text(for: a, contact: contact, zone: warsaw).hasSuffix(
                "Could you let me know, please?"))
        #expect(
            MessageTemplate.smsURI(phone: "+48 600 100 200", body: "Hi & bye?")
                == "sms:+48600100200?body=Hi%20%26%20bye%3F")
    }
}
