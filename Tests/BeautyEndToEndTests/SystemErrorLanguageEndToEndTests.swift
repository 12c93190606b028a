import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

/// What the system says (strerror) and the words around it, in the user's language wherever it reaches
/// them: beautyctl with no daemon, a sync account's password file that is not there, a beautyd that will
/// not start; with `history`'s reminder states and an SMS written in its contact's own language.
struct SystemErrorExpectations: Sendable, CustomTestStringConvertible {
    var locale: String
    /// Fills in the socket path.
    var notRunning: String
    /// A socket file nobody listens on any more (ECONNREFUSED).
    var refused: String
    /// Fills in the password file's path.
    var noPasswordFile: String
    /// Fills in the export's path.
    var cannotExport: String
    /// Fills in the lock's path.
    var lockIsADirectory: String
    var suppressed: String
    /// beautyctl's language, and the contact's other one: its label in `contact show` and its SMS.
    var contactLanguage: String
    var contactShown: String
    var smsPrefix: String
    /// The SMS templates as a usage error lists them.
    var templates: [String]
    /// A tip category that does not exist, refused with the ones there are in the user's words.
    var noTipCategory: String

    var testDescription: String { locale }

    static let polish = SystemErrorExpectations(
        locale: "pl_PL.UTF-8",
        notRunning: "beautyctl: beautyd nie działa (nie można połączyć się z %@: Nie ma takiego pliku ani katalogu).\n",
        refused: ": Połączenie odrzucone).\n",
        noPasswordFile: "plik hasła: nie można odczytać pliku z hasłem %@: Nie ma takiego pliku ani katalogu\n",
        cannotExport: "beautyctl: --ics: nie można zapisać %@: Nie ma takiego pliku ani katalogu\n",
        lockIsADirectory: "beautyd: niebezpieczny katalog %@: To jest katalog\n",
        suppressed: "wstrzymane",
        contactLanguage: "slovenčina", contactShown: "  język:    słowacki\n",
        smsPrefix: "Dobrý deň, potvrdzujem svoj termín (Manikúra) v piatok 6. decembra 2030 o 14:00.\n",
        templates: ["'umów'", "'potwierdź'", "'odwołaj'"],
        noTipCategory:
            "beautyctl: --category: „usta” to nie kategoria porad (dostępne: twarz, włosy, paznokcie, ciało)\n")
    static let slovak = SystemErrorExpectations(
        locale: "sk_SK.UTF-8",
        notRunning: "beautyctl: beautyd nebeží (nedá sa pripojiť k %@: Taký súbor ani priečinok neexistuje).\n",
        refused: ": Spojenie odmietnuté).\n",
        noPasswordFile: "súbor s heslom: súbor s heslom %@ sa nedá prečítať: Taký súbor ani priečinok neexistuje\n",
        cannotExport: "beautyctl: --ics: nedá sa zapísať %@: Taký súbor ani priečinok neexistuje\n",
        lockIsADirectory: "beautyd: nebezpečný priečinok %@: Je to priečinok\n",
        suppressed: "potlačená",
        contactLanguage: "pl", contactShown: "  jazyk SMS:  poľština\n",
        smsPrefix: "Salon Anna, dzień dobry! Potwierdzam wizytę (Manikúra) w piątek, 6 grudnia 2030 o godz. 14:00.\n",
        templates: ["'objednať'", "'potvrdiť'", "'zrušiť'"],
        noTipCategory: "beautyctl: --category: „usta“ nie je kategória tipov (možnosti: tvár, vlasy, nechty, telo)\n")
}

extension EndToEndTiming {
    @Suite("System errors, history's states and a contact's SMS language, in Polish and Slovak", .serialized)
    struct SystemErrorLanguage {
        @Test(arguments: [SystemErrorExpectations.polish, .slovak])
        func systemErrorsInTheUsersLanguage(language: SystemErrorExpectations) async throws {
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            stack.locale = language.locale

            let down = try await stack.beautyctl(["status"])
            let notRunning = language.notRunning.replacingOccurrences(of: "%@", with: stack.socketPath)
            #expect(down.status == .exited(3) && down.stderr.hasPrefix(notRunning), "\(down)")
            // A socket left behind by a daemon that is gone: the connection is refused.
            let stale = stack.directory + "/stale.sock"
            _ = try await stack.run(
                Locations.python, ["-c", "import socket; socket.socket(socket.AF_UNIX).bind('\(stale)')"])
            let staleAnswer = try await stack.beautyctl(["--socket", stale, "status"], socket: false)
            #expect(
                staleAnswer.status == .exited(3) && staleAnswer.stderr.contains(stale + language.refused),
                "\(staleAnswer)")

            // The socket's lock is a directory: beautyd says why it will not start, in its user's language.
            let lock = stack.socketPath + ".lock"
            try FileManager.default.createDirectory(
                atPath: lock, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let refused = try await stack.run(try Locations.built("beautyd"), [], timeout: .seconds(60))
            let lockIsADirectory = language.lockIsADirectory.replacingOccurrences(of: "%@", with: lock)
            #expect(refused.status == .exited(1) && refused.stderr.hasSuffix(lockIsADirectory), "\(refused)")
            try FileManager.default.removeItem(atPath: lock)

            try await stack.startDaemon()
            let missing = stack.directory + "/missing.pw"
            let noFile = try await stack.beautyctl([
                "sync", "add", "phone", "--url", "http://127.0.0.1:9/dav/", "--user", "anna",
                "--password-file", missing,
            ])
            let expected = language.noPasswordFile.replacingOccurrences(of: "%@", with: missing)
            #expect(noFile.status == .exited(1) && noFile.stderr.hasSuffix(expected), "\(noFile)")

            let nowhere = stack.directory + "/no-such-directory/visits.ics"
            let export = try await stack.beautyctl(["export", "--ics", nowhere])
            #expect(export.stderr == language.cannotExport.replacingOccurrences(of: "%@", with: nowhere), "\(export)")
        }

        @Test("history names a reminder that came due while notifications were off in the user's language")
        func historyStates() async throws {
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            stack.locale = SystemErrorExpectations.polish.locale
            try await stack.startDaemon()
            _ = try await stack.beautyctlOK(["notifications", "off"])
            _ = try stack.addAppointment(
                "Henna", start: Date().addingTimeInterval(86_400), remindAt: [wholeSecond(after: 2)])
            let recorded = try await eventually(timeout: .seconds(60), interval: .milliseconds(250)) { () -> Bool? in
                let result: HistoryResult = try stack.client().call("history", HistoryParams())
                return result.entries.contains { $0.kind == .reminder && $0.state == "suppressed" } ? true : nil
            }
            #expect(recorded == true)
            let history = try await stack.beautyctlOK(["history"])
            let line = try #require(history.stdout.split(separator: "\n").first { $0.contains("Henna") }, "\(history)")
            #expect(
                line.contains(SystemErrorExpectations.polish.suppressed) && !line.contains("suppressed"), "\(history)")
        }

        @Test(arguments: [SystemErrorExpectations.polish, .slovak])
        func anSMSInItsContactsLanguage(language: SystemErrorExpectations) async throws {
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            stack.locale = language.locale
            try await stack.startDaemon()
            _ = try await stack.beautyctlOK([
                "contact", "add", "Salon Anna", "--phone", "+48 600 100 200", "--language", language.contactLanguage,
            ])
            let shown = try await stack.beautyctlOK(["contact", "show", "1"])
            #expect(shown.stdout.contains(language.contactShown), "\(shown)")
            _ = try await stack.beautyctlOK([
                "appointment", "add", "Manikúra", "--at", "2030-12-06 14:00", "--contact", "1",
            ])
            let sms = try await stack.beautyctlOK(["message", "confirm", "1"])
            #expect(sms.stdout.hasPrefix(language.smsPrefix), "\(sms)")

            // Without a language of its own the contact gets beautyctl's.
            _ = try await stack.beautyctlOK(["contact", "edit", "1", "--clear", "language"])
            let own = try await stack.beautyctlOK(["message", "confirm", "1"])
            #expect(!own.stdout.hasPrefix(language.smsPrefix) && !own.stdout.hasPrefix("Hello"), "\(own)")
            // The templates' names are the user's words (typed in any language, listed in beautyctl's).
            let noTemplate = try await stack.beautyctl(["message", "invite", "1"])
            #expect(
                noTemplate.status == .exited(2) && language.templates.allSatisfy(noTemplate.stderr.contains)
                    && !noTemplate.stderr.contains("'book'"), "\(noTemplate)")
            let lips = try await stack.beautyctl(["tips", "--category", "usta"])
            #expect(lips.status == .exited(2) && lips.stderr == language.noTipCategory, "\(lips)")
            let unknown = try await stack.beautyctl(["contact", "edit", "1", "--language", "klingon"])
            #expect(
                unknown.status == .exited(2) && unknown.stderr.contains("klingon") && unknown.stderr.contains("en, pl"),
                "\(unknown)")
        }
    }
}
