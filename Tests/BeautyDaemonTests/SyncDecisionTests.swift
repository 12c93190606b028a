@testable import BeautyDaemon
import BeautyCore
import BeautyLocalization
import Foundation
import Testing

/// The sync engine's rules that need no server: when two versions agree, who wins a conflict, the
/// back-off, and the `[sync]` configuration.
@Suite struct SyncDecisionTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func local(_ title: String = "Haircut") -> Appointment {
        Appointment(
            id: 7, title: title, start: start, contactID: 3, reminders: [.before(3600)], uid: "cut@x",
            tags: ["b", "a"],
            createdAt: start, updatedAt: start)
    }

    @Test("row ids, contact rows, bookkeeping times and tag order do not make two versions differ; a field does")
    func sameEvent() {
        var server = local()
        server.id = nil
        server.contactID = nil
        server.tags = ["a", "b"]
        server.createdAt = Date()
        #expect(SyncDecision.same([local()], [server]))
        server.reminders = [.before(7200)]
        #expect(!SyncDecision.same([local()], [server]))
    }

    @Test("a conflict: the server wins and the local version is kept, unless both say the same")
    func conflicts() {
        #expect(SyncDecision.resolve(local: [local()], server: [local()]) == .agree)
        guard case let .serverWins(reason) = SyncDecision.resolve(local: [local("Haircut at 5")], server: [local()])
        else {
            Issue.record("both changed: expected the server to win")
            return
        }
        #expect(reason.contains("both sides"))
        guard case .serverWins = SyncDecision.resolve(local: nil, server: [local()]) else {
            Issue.record("deleted here"); return
        }
        guard case .serverWins = SyncDecision.resolve(local: [local()], server: nil) else {
            Issue.record("deleted there"); return
        }
    }

    @Test("a conflict's reason is an msgid: beautyctl shows it in Polish and Slovak")
    func conflictReasonsAreTranslated() throws {
        let outcomes = [
            SyncDecision.resolve(local: [local("Haircut at 5")], server: [local()]),
            SyncDecision.resolve(local: nil, server: [local()]), SyncDecision.resolve(local: [local()], server: nil),
        ]
        let reasons = outcomes.compactMap { outcome -> String? in
            guard case let .serverWins(reason) = outcome else { return nil }
            return reason
        }
        #expect(reasons.count == 3)
        let polish = Localizer.forLanguage(.polish)
        try #require(polish.language == .polish, "the Polish catalog is installed beside the tests")
        #expect(
            TranslatableText.verbatim(reasons[0]).rendered(polish)
                == "zmienione po obu stronach: zachowano wersję z serwera, a lokalną jako tę kopię")
        for reason in reasons {
            #expect(TranslatableText.verbatim(reason).rendered(Localizer.forLanguage(.slovak)) != reason, "\(reason)")
        }
    }

    @Test("back-off doubles from a minute and stops at the interval")
    func backOff() {
        #expect(SyncDecision.backOff(failures: 0, cap: 900) == 0)
        #expect((1...6).map { SyncDecision.backOff(failures: $0, cap: 900) } == [60, 120, 240, 480, 900, 900])
        #expect(SyncDecision.backOff(failures: 500, cap: 900) == 900)
    }

    @Test("[sync] interval and [sync.NAME] accounts (a password file or the keyring); a bad interval names its line")
    func configuration() throws {
        let (config, warnings) = try DaemonConfig.parse(
            """
            [sync]
            interval = "5m"
            [sync.phone]
            url = "https://cloud.example.org/remote.php/dav"
            user = "anna"
            password_file = "/home/anna/.nextcloud.pw"
            calendar = "Beauty"
            [sync.icloud]
            url = "https://caldav.icloud.com/"
            user = "anna@icloud.com"
            keyring = true
            """)
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(config.syncIntervalSeconds == 300)
        #expect(
            config.syncAccounts == [
                SyncAccountConfig(
                    name: "icloud", url: "https://caldav.icloud.com/", user: "anna@icloud.com",
                    passwordFile: nil),
                SyncAccountConfig(
                    name: "phone", url: "https://cloud.example.org/remote.php/dav", user: "anna",
                    passwordFile: "/home/anna/.nextcloud.pw", calendar: "Beauty"),
            ])
        #expect(throws: DaemonConfig.LoadError.self) { try DaemonConfig.parse("[sync]\ninterval = \"10s\"\n") }
    }

    @Test("[sync] doses_days (1...31) and doses_poll (10 s...10 min); out of range names the line")
    func doseWindowAndPoll() throws {
        let (config, warnings) = try DaemonConfig.parse("[sync]\ndoses_days = 31\ndoses_poll = \"10s\"\n")
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(config.dosesDays == 31 && config.dosesPollSeconds == 10)
        #expect(try DaemonConfig.parse("[sync]\ndoses_poll = \"10m\"\n").0.dosesPollSeconds == 600)
        for (key, value) in [
            ("doses_days", "0"), ("doses_days", "32"), ("doses_days", "\"7\""), ("doses_poll", "\"9s\""),
            ("doses_poll", "\"11m\""), ("doses_poll", "60"),
        ] {
            let error = try #require(throws: DaemonConfig.LoadError.self) {
                try DaemonConfig.parse("[sync]\ninterval = \"15m\"\n\(key) = \(value)\n")
            }
            #expect(error.line == 3 && error.description.contains(key), "\(key) = \(value): \(error)")
        }
    }

    @Test("[sync.NAME] doses, doses_list and private_doses reach sync add; a wrong type names its line")
    func doseKeys() throws {
        let (config, warnings) = try DaemonConfig.parse(
            """
            [sync.phone]
            url = "https://cloud.example.org/remote.php/dav"
            user = "anna"
            password_file = "/home/anna/.nextcloud.pw"
            doses = true
            doses_list = "Leki"
            private_doses = true
            [sync.web]
            url = "https://cloud.example.org/remote.php/dav"
            user = "anna"
            keyring = true
            """)
        #expect(warnings.isEmpty, "\(warnings)")
        let phone = try #require(config.syncAccounts.first { $0.name == "phone" })
        #expect(phone.doses && phone.dosesList == "Leki" && phone.privateDoses)
        let params = phone.addParams
        #expect(params.doses == true && params.dosesList == "Leki" && params.privateDoses == true)
        #expect(params.passwordFile == "/home/anna/.nextcloud.pw" && params.keyring == nil)
        let web = try #require(config.syncAccounts.first { $0.name == "web" }).addParams
        #expect(web.doses == nil && web.dosesList == nil && web.privateDoses == nil && !web.wantsDoses)
        #expect(web.keyring == true && web.passwordFile == nil)

        for (key, value) in [("doses", "\"yes\""), ("private_doses", "1"), ("doses_list", "\"\""), ("doses_list", "3")]
        {
            let error = try #require(throws: DaemonConfig.LoadError.self) {
                try DaemonConfig.parse(
                    "[sync.phone]\nurl = \"https://x.org/\"\nuser = \"a\"\nkeyring = true\n\(key) = \(value)\n")
            }
            #expect(error.line == 5 && error.description.contains(key), "\(error)")
        }
    }
}
