import BeautyDaemon
import BeautyLocalization
import Testing

/// The session's language, read again on reload: the systemd user manager's environment when
/// beautyd runs under one, else its own.
@Suite struct SessionLanguageTests {
    @Test func underSystemdTheManagersEnvironmentDecides() {
        let session = SessionLanguage(.english)
        let own = ["LANG": "pl_PL.UTF-8", "MANAGERPID": "1234"]
        #expect(
            session.refresh(environment: own, managerEnvironment: { ["LANG": "sk_SK.UTF-8", "PATH": "/usr/bin"] })
                == .slovak)
        #expect(session.language == .slovak)
        // systemctl failed: beautyd's own environment.
        #expect(session.refresh(environment: own, managerEnvironment: { nil }) == .polish)
    }

    @Test func withoutAManagerItsOwnEnvironment() {
        let session = SessionLanguage(.english)
        var asked = false
        #expect(
            session.refresh(
                environment: ["LANG": "sk_SK.UTF-8"],
                managerEnvironment: {
                    asked = true; return ["LANG": "C"]
                }) == .slovak)
        #expect(!asked)
    }

    @Test func showEnvironmentOutputIsParsed() {
        let pairs = SessionLanguage.parse("LANG=pl_PL.UTF-8\nLANGUAGE=pl:en\nXDG_DATA_DIRS=/a=b:/c\n")
        #expect(pairs == ["LANG": "pl_PL.UTF-8", "LANGUAGE": "pl:en", "XDG_DATA_DIRS": "/a=b:/c"])
        #expect(SessionLanguage.choose(environment: [:], manager: pairs) == .polish)
    }
}
