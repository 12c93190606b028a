@testable import BeautyCLI
import BeautyCore
import BeautyProtocol
import Foundation
import Testing

/// `beautyctl sync add --doses` and `beautyctl sync doses` as a user types them, run in process: how
/// they are parsed, what their help teaches, what beautyd refuses before it asks any server, and the
/// exit codes (1 refused, 2 usage).
@Suite(
    "beautyctl sync doses in process", .enabled(if: Output.l.language == .english, "the test process runs in English"))
struct SyncDosesInProcessTests {
    @Test("sync doses takes on, off, private or named; anything else, or --list without on, is a usage error")
    func modes() async throws {
        let beautyctl = try InProcessBeautyctl()
        let bogus = await beautyctl("sync", "doses", "phone", "sometimes")
        #expect(bogus.code == 2 && bogus.error.contains("sometimes"), "\(bogus)")
        #expect(bogus.error.contains("on") && bogus.error.contains("private"), "\(bogus)")
        let listWithOff = await beautyctl("sync", "doses", "phone", "off", "--list", "Leki")
        #expect(listWithOff.code == 2 && listWithOff.error.contains("--list goes with on"), "\(listWithOff)")
        let missing = await beautyctl("sync", "doses", "phone")
        #expect(missing.code == 2, "\(missing)")
    }

    @Test(
        "sync doses on an account that does not exist is refused (exit 1) naming the accounts",
        arguments: DoseSyncMode.allCases)
    func unknownAccount(_ mode: DoseSyncMode) async throws {
        let beautyctl = try InProcessBeautyctl()
        let refused = await beautyctl("sync", "doses", "phone", mode.rawValue)
        #expect(refused.code == 1 && refused.output.isEmpty, "\(refused)")
        #expect(refused.error == "beautyctl: name: no sync account named 'phone' (accounts: none)\n", "\(refused)")
        let json = await beautyctl("sync", "doses", "phone", mode.rawValue, "--json")
        #expect(json.code == 1 && json.output.isEmpty, "\(json)")
    }

    @Test("--help says what leaves the machine and how to keep the names home")
    func help() async throws {
        let beautyctl = try InProcessBeautyctl()
        let add = await beautyctl("sync", "add", "--help")
        #expect(add.code == 0, "\(add)")
        for option in ["--doses", "--doses-list <name|url>", "--private-doses", "(medication names leave this"] {
            #expect(add.output.contains(option), "\(option) missing in\n\(add.output)")
        }
        #expect(add.output.contains("iCloud is refused for doses"), "\(add.output)")
        let doses = await beautyctl("sync", "doses", "--help")
        #expect(doses.code == 0, "\(doses)")
        for text in [
            "USAGE: beautyctl sync doses <name> <on|off|private|named>", "beautyctl sync doses phone private",
            "leave this", "ticking one there records the", "doses_poll",
        ] {
            #expect(doses.output.contains(text), "\(text) missing in\n\(doses.output)")
        }
        let sync = await beautyctl("sync", "--help")
        #expect(sync.output.contains("doses") && sync.output.contains("sync add --doses"), "\(sync.output)")
    }

    @Test(
        "an iCloud account is refused for doses before anything is asked of the server, in every spelling of the host")
    func iCloudRefused() async throws {
        let beautyctl = try InProcessBeautyctl()
        for (url, flags) in [
            ("https://caldav.icloud.com/", ["--doses"]), ("https://p42-caldav.ICLOUD.com./", ["--private-doses"]),
            ("https://icloud.com/", ["--doses-list", "Leki"]),
        ] {
            let refused = await beautyctl(
                ["sync", "add", "icloud", "--url", url, "--user", "anna@icloud.com", "--keyring"] + flags)
            #expect(refused.code == 1 && refused.output.isEmpty, "\(refused)")
            #expect(
                refused.error.hasPrefix(
                    "beautyctl: doses: iCloud cannot carry the doses: its Reminders app no longer uses CalDAV."),
                "\(refused)")
        }
        let accounts = await beautyctl("sync", "list", "--json")
        let listed = try WireJSON.decoder().decode(SyncAccountsResult.self, from: Data(accounts.output.utf8))
        #expect(listed.accounts.isEmpty)
    }
}
