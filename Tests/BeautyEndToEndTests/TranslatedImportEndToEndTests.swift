import BeautyTestSupport
import Foundation
import Testing

/// A calendar with an event beautyd approximates and a to-do it leaves out.
private let approximatedICS = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    BEGIN:VEVENT\r
    UID:henna@example.org\r
    DTSTART:20301206T130000Z\r
    END:VEVENT\r
    BEGIN:VTODO\r
    UID:todo@example.org\r
    END:VTODO\r
    END:VCALENDAR\r

    """

/// An event the daemon refuses: the phone number of its contact cannot be dialled.
private let refusedICS = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    BEGIN:VEVENT\r
    UID:nails@example.org\r
    SUMMARY:Manicure\r
    DTSTART:20301206T130000Z\r
    X-BEAUTYD-CONTACT;X-BEAUTYD-PHONE=abc:Anna\r
    END:VEVENT\r
    END:VCALENDAR\r

    """

/// A card the daemon refuses: a control character (BEL) in its name.
private let refusedVCF = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Anna\u{07}Nowak\r\nTEL:+48600100200\r\nEND:VCARD\r\n"

/// What a user of each language reads from `beautyctl import` and `contact import`.
struct ImportLanguage: Sendable, CustomTestStringConvertible {
    var locale: String
    var warning: String
    var notImported: String
    var refusedEvent: String
    var refusedCard: String
    var malformed: String

    var testDescription: String { locale }

    static let polish = ImportLanguage(
        locale: "pl_PL.UTF-8", warning: ":3: VEVENT nie ma SUMMARY: zaimportowano z tytułem „(bez tytułu)”\n",
        notImported: "1 × VTODO (pierwszy w wierszu 7)",
        refusedEvent:
            ":3: contactPhone: „abc” to nie numer telefonu (nieoczekiwane „a”) (Manicure) (nic nie zaimportowano)\n",
        refusedCard: ":1: name: zawiera znak sterujący (U+0007) (Anna?Nowak) (nic nie zaimportowano)\n",
        malformed: ":2: „oops” to nie wiersz treści NAZWA:WARTOŚĆ (brak „:”) (nic nie zaimportowano)\n")
    static let slovak = ImportLanguage(
        locale: "sk_SK.UTF-8", warning: ":3: VEVENT nemá SUMMARY: importované s názvom „(bez názvu)“\n",
        notImported: "1 × VTODO (prvý na riadku 7)",
        refusedEvent:
            ":3: contactPhone: „abc“ nie je telefónne číslo (neočakávané „a“) (Manicure) (nič sa neimportovalo)\n",
        refusedCard: ":1: name: obsahuje riadiaci znak (U+0007) (Anna?Nowak) (nič sa neimportovalo)\n",
        malformed: ":2: „oops“ nie je obsahový riadok NÁZOV:HODNOTA (chýba „:“) (nič sa neimportovalo)\n")
    static let english = ImportLanguage(
        locale: "C", warning: ":3: VEVENT has no SUMMARY: imported with the title '(no title)'\n",
        notImported: "1 VTODO (first at line 7)",
        refusedEvent:
            ":3: contactPhone: 'abc' is not a phone number (unexpected 'a') (Manicure) (nothing was imported)\n",
        refusedCard: ":1: name: contains a control character (U+0007) (Anna?Nowak) (nothing was imported)\n",
        malformed: ":2: 'oops' is not a content line NAME:VALUE (no ':') (nothing was imported)\n")
}

extension EndToEndServing {
    @Suite("Import warnings and the daemon's wrapped refusals in Polish and Slovak; LANG=C in English", .serialized)
    struct TranslatedImport {
        @Test(arguments: [ImportLanguage.polish, .slovak, .english])
        func importSpeaksTheUsersLanguage(language: ImportLanguage) async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            stack.locale = language.locale
            let approximated = stack.directory + "/a.ics", refused = stack.directory + "/r.ics",
                card = stack.directory + "/c.vcf"
            try approximatedICS.write(toFile: approximated, atomically: true, encoding: .utf8)
            try refusedICS.write(toFile: refused, atomically: true, encoding: .utf8)
            try refusedVCF.write(toFile: card, atomically: true, encoding: .utf8)

            let imported = try await stack.beautyctlOK(["import", approximated])
            #expect(imported.stdout.contains(approximated + language.warning), "\(imported)")
            #expect(imported.stdout.contains(language.notImported), "\(imported)")
            // --json is the same in every language: the English message with its template.
            let json = try await stack.beautyctlOK(["import", approximated, "--json"])
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json)")
            let warning = try #require((object["warnings"] as? [[String: Any]])?.first, "\(json)")
            #expect(
                warning["message"] as? String == "VEVENT has no SUMMARY: imported with the title '(no title)'",
                "\(json)")
            #expect(warning["text"] as? String == "VEVENT has no SUMMARY: imported with the title '%s'", "\(json)")
            #expect(warning["args"] as? [String] == ["(no title)"], "\(json)")

            let event = try await stack.beautyctl(["import", refused])
            #expect(event.status != .exited(0) && event.stderr.hasSuffix(refused + language.refusedEvent), "\(event)")
            let contact = try await stack.beautyctl(["contact", "import", card])
            #expect(contact.status != .exited(0) && contact.stderr.hasSuffix(card + language.refusedCard), "\(contact)")
            let malformed = stack.directory + "/m.ics"
            try "BEGIN:VCALENDAR\r\noops\r\nEND:VCALENDAR\r\n".write(
                toFile: malformed, atomically: true, encoding: .utf8)
            let unreadable = try await stack.beautyctl(["import", malformed])
            #expect(
                unreadable.status != .exited(0) && unreadable.stderr.hasSuffix(malformed + language.malformed),
                "\(unreadable)")
        }
    }
}
