import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

/// A file from another program with what beautyd keeps without interpreting, an event without
/// SUMMARY (line 12), a LOCATION with line breaks, a VTODO, and an alarm after the start.
private let otherProgramICS = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//Other//EN\r
    BEGIN:VEVENT\r
    UID:kept@example.org\r
    DTSTART:20270310T090000Z\r
    SUMMARY:Brwi\r
    X-GOOGLE-CONFERENCE:https://meet.google.com/abc\r
    ATTENDEE;CN="Nowak, Anna":mailto:anna@example.com\r
    CATEGORIES:Face Care,Manicure\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:untitled@example.org\r
    DTSTART:20270311T090000Z\r
    LOCATION:Salon\\nul. Długa 5\r
    BEGIN:VALARM\r
    ACTION:DISPLAY\r
    TRIGGER:PT10M\r
    END:VALARM\r
    END:VEVENT\r
    BEGIN:VTODO\r
    UID:todo@example.org\r
    END:VTODO\r
    END:VCALENDAR\r

    """

extension EndToEndServing {
    @Suite("iCalendar and vCard fidelity through beautyctl", .serialized)
    struct CalendarFidelity {
        @Test("import lists what it approximated and left out; --json includes it")
        func importSummary() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let path = stack.directory + "/other.ics"
            try otherProgramICS.write(toFile: path, atomically: true, encoding: .utf8)
            let result = try await stack.beautyctl(["import", path])
            #expect(result.status == .exited(0), "\(result)")
            for part in [
                "Imported 2 new", "Not imported: 1 VTODO (first at line 21)", "\(path):12: VEVENT has no SUMMARY",
                "\(path):15: LOCATION has line breaks", "\(path):16: VALARM fires after the start",
            ] {
                #expect(result.stdout.contains(part), "\(part) missing:\n\(result.stdout)")
            }
            let json = try await stack.beautyctl(["import", path, "--json"])
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json)")
            #expect(object["unchanged"] as? Int == 2 && (object["warnings"] as? [Any])?.count == 3, "\(json.stdout)")
            #expect((object["notImported"] as? [[String: Any]])?.first?["name"] as? String == "VTODO")
            let list: [Appointment] = try await stack.beautyctlJSON([
                "appointment", "list", "--from", "2027-01-01", "--to", "2028-01-01",
            ])
            #expect(list.map(\.title) == ["Brwi", "(no title)"] && list[1].address == "Salon, ul. Długa 5")
            #expect(list[0].category == "nails/manicure" && list[0].tags == ["Face Care"], "\(list[0])")
            #expect(
                list[0].extraProperties == [
                    "X-GOOGLE-CONFERENCE:https://meet.google.com/abc",
                    "ATTENDEE;CN=\"Nowak, Anna\":mailto:anna@example.com",
                ])
        }

        @Test(
            "export -> import into a fresh daemon -> export: the same file but DTSTAMP, with every field beautyd knows")
        func losslessRoundTrip() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let other = stack.directory + "/other.ics"
            try otherProgramICS.write(toFile: other, atomically: true, encoding: .utf8)
            _ = try await stack.beautyctlOK(["import", other])
            _ = try await stack.beautyctlOK(["contact", "add", "Salon Anna", "--phone", "+48 600 100 200"])
            let done = try await stack.beautyctlJSON(
                [
                    "appointment", "add", "Henna", "--at", "2027-03-01T10:00:00+01:00", "--contact", "Salon Anna",
                    "--price", "45.50", "--color", "pink", "--category", "face/brows",
                    "--every", "6w", "--after-done", "--remind", "1d", "--remind", "2h",
                    "--notes", "Zadzwoń dzień wcześniej.\nKod: 1234",
                ], as: AppointmentDetail.self)
            _ = try await stack.beautyctlOK(["appointment", "done", "\(done.appointment.id!)"])
            let cancelled = try await stack.beautyctlJSON(
                ["appointment", "add", "Pedicure", "--at", "2027-03-02T10:00:00+01:00"],
                as: AppointmentDetail.self)
            _ = try await stack.beautyctlOK(["appointment", "cancel", "\(cancelled.appointment.id!)"])
            _ = try await stack.beautyctlOK([
                "appointment", "add", "Dzień SPA", "--at", "2027-03-05", "--all-day", "--color", "#ff8800",
            ])
            // A series with RDATE, two RRULEs and an EXDATE comes from a file.
            let series = stack.directory + "/series.ics"
            try [
                "BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:series@example.org", "SUMMARY:Gym",
                "DTSTART;TZID=Europe/Warsaw:20270302T180000", "DTEND;TZID=Europe/Warsaw:20270302T190000",
                "RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=4", "RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TH",
                "RDATE;TZID=Europe/Warsaw:20270306T100000", "EXDATE;TZID=Europe/Warsaw:20270309T180000",
                "END:VEVENT", "END:VCALENDAR", "",
            ].joined(separator: "\r\n").write(toFile: series, atomically: true, encoding: .utf8)
            _ = try await stack.beautyctlOK(["import", series])

            let a = stack.directory + "/a.ics"
            _ = try await stack.beautyctlOK(["export", "--ics", a])
            let fresh = try await Stack.start(server: false)
            defer { fresh.shutdown() }
            let imported = try await fresh.beautyctl(["import", a])
            #expect(imported.status == .exited(0) && imported.stdout.contains("Created 1 contact(s)"), "\(imported)")
            let b = fresh.directory + "/b.ics"
            _ = try await fresh.beautyctlOK(["export", "--ics", b])
            func withoutStamp(_ path: String) throws -> String {
                try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\r\n").filter {
                    !$0.hasPrefix("DTSTAMP:")
                }
                .joined(separator: "\r\n")
            }
            let textA = try withoutStamp(a), textB = try withoutStamp(b)
            #expect(textA == textB, "export -> import -> export changed the file:\n\(textA)\n---\n\(textB)")
            for part in [
                "X-BEAUTYD-STATUS:DONE", "STATUS:CANCELLED", "X-BEAUTYD-CYCLE:P6W",
                "X-BEAUTYD-CONTACT;X-BEAUTYD-PHONE=+48 600 100 200:Salon Anna",
                "X-BEAUTYD-PRICE:45.50", "COLOR:pink", "CATEGORIES:nails/manicure,Face Care", "TRIGGER:-P1D",
                "TRIGGER:-PT2H",
                "DESCRIPTION:Zadzwoń dzień wcześniej.\\nKod: 1234", "DTSTART;VALUE=DATE:20270305",
                "RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TH",
                "RDATE;TZID=Europe/Warsaw:20270306T100000", "EXDATE;TZID=Europe/Warsaw:20270309T180000",
                "X-GOOGLE-CONFERENCE:https://meet.google.com/abc",
            ] {
                #expect(textA.contains(part), "\(part) missing from the export:\n\(textA)")
            }
            let contacts: [Contact] = try await fresh.beautyctlJSON(["contact", "list"])
            #expect(contacts.map(\.name) == ["Salon Anna"] && contacts.first?.phone == "+48 600 100 200")
            let list: [Appointment] = try await fresh.beautyctlJSON([
                "appointment", "list", "--from", "2027-01-01", "--to", "2028-01-01",
            ])
            let henna = try #require(list.first { $0.title == "Henna" && $0.status == .done })
            #expect(
                henna.status == .done && henna.contactID == contacts.first?.id
                    && henna.repeatAfterDoneSeconds == 42 * 86_400)
        }

        @Test("contact export --vcf and contact import: vCard both ways, idempotent, what is left out listed")
        func contactsAsVCard() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            _ = try await stack.beautyctlOK([
                "contact", "add", "Salon Anna", "--phone", "+48 600 100 200", "--first", "Anna", "--last", "Nowak",
                "--email", "anna@example.com", "--address", "ul. Długa 5, Kraków",
            ])
            let vcf = stack.directory + "/contacts.vcf"
            let exported = try await stack.beautyctl(["contact", "export", "--vcf", vcf])
            #expect(exported.status == .exited(0) && exported.stderr.contains("Exported 1 contact"), "\(exported)")
            let text = try String(contentsOfFile: vcf, encoding: .utf8)
            #expect(
                text.hasPrefix("BEGIN:VCARD\r\nVERSION:4.0\r\nUID:urn:uuid:")
                    && text.contains("TEL;VALUE=text:+48 600 100 200\r\n"), "\(text)")
            let again = try await stack.beautyctl(["contact", "import", vcf])
            #expect(again.stdout.contains("Imported 0 new, 0 updated, 1 unchanged contact(s)"), "\(again)")

            let fresh = try await Stack.start(server: false)
            defer { fresh.shutdown() }
            let phoneExport = fresh.directory + "/phone.vcf"
            try
                (text
                + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Spa Ewa\r\nTEL;TYPE=CELL:22 123 45 67\r\nNICKNAME:Ewka\r\nEND:VCARD\r\n"
                + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:No Phone\r\nEND:VCARD\r\n").write(
                    toFile: phoneExport, atomically: true, encoding: .utf8)
            let imported = try await fresh.beautyctl(["contact", "import", phoneExport])
            #expect(imported.status == .exited(0) && imported.stdout.contains("Imported 2 new"), "\(imported)")
            #expect(
                imported.stdout.contains("\(phoneExport):14: NICKNAME")
                    && imported.stdout.contains("\(phoneExport):16: card 'No Phone' has no TEL"),
                "\(imported)")
            let contacts: [Contact] = try await fresh.beautyctlJSON(["contact", "list"])
            #expect(
                contacts.map(\.name) == ["Salon Anna", "Spa Ewa"] && contacts[0].address == "ul. Długa 5, Kraków"
                    && contacts[0].lastName == "Nowak")
            let fromStdin = try await fresh.beautyctl(["contact", "export", "--vcf", "-"])
            #expect(fromStdin.stdout.components(separatedBy: "BEGIN:VCARD").count == 3)
        }
    }
}
