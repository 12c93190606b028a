import BeautyLocalization
import Testing

/// Reading `.po` text as GNU gettext writes it.
@Suite struct MessageCatalogTests {
    static let text = #"""
        # a comment
        msgid ""
        msgstr ""
        "Language: pl\n"

        #: somewhere.swift:1
        #, c-format
        msgid "Time for %s"
        msgstr "Pora: %s"

        msgctxt "button"
        msgid "Taken"
        msgstr "Przyjęte"

        msgid ""
        "two "
        "lines \"quoted\"\n"
        msgstr "dwie "
        "linie „cytat”\n"

        #, fuzzy
        msgid "Unsure"
        msgstr "Niepewne"

        msgid "Empty"
        msgstr ""

        msgid "%s visit"
        msgid_plural "%s visits"
        msgstr[0] "%s wizyta"
        msgstr[1] "%s wizyty"
        msgstr[2] "%s wizyt"
        """#

    @Test func entriesContextsContinuationsAndPlurals() throws {
        let catalog = try MessageCatalog(po: Self.text)
        #expect(catalog.forms(id: "Time for %s") == ["Pora: %s"])
        #expect(catalog.forms(context: "button", id: "Taken") == ["Przyjęte"] && catalog.forms(id: "Taken") == nil)
        #expect(catalog.forms(id: "two lines \"quoted\"\n") == ["dwie linie „cytat”\n"])
        #expect(catalog.forms(id: "%s visit") == ["%s wizyta", "%s wizyty", "%s wizyt"])
        // Fuzzy and untranslated entries are English, as gettext shows them.
        #expect(catalog.forms(id: "Unsure") == nil && catalog.forms(id: "Empty") == nil)
        #expect(catalog.entries.count == 7)
    }

    @Test func aBrokenLineIsNamed() {
        let error = #expect(throws: MessageCatalog.CatalogError.self) {
            try MessageCatalog(po: "msgid \"a\"\nmsgstr b\n")
        }
        #expect(error?.line == 2)
    }
}
