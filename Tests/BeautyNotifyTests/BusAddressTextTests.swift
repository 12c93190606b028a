import BeautyLocalization
import Testing

@testable import BeautyNotify

/// `status` says where beautyd waits for the session bus in its reader's language; the log keeps English.
@Suite struct BusAddressTextTests {
    @Test func theDefaultAddressIsNamedInTheReadersLanguage() throws {
        let polish = Localizer.forLanguage(.polish)
        try #require(polish.language == .polish, "the Polish catalog is installed beside the tests")
        let fallback = SessionBus.addressText([:])
        #expect(fallback.english == "the default address ($XDG_RUNTIME_DIR/bus)")
        #expect(fallback.rendered(polish) == "domyślny adres ($XDG_RUNTIME_DIR/bus)")
        #expect(fallback.rendered(.forLanguage(.slovak)) == "predvolená adresa ($XDG_RUNTIME_DIR/bus)")
        let given = SessionBus.addressText(["DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus,guid=50%"])
        #expect(given.rendered(polish) == "unix:path=/run/user/1000/bus,guid=50%")
    }
}
