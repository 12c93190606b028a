import BeautyCalDAV
import BeautyCore
import BeautyLocalization
import BeautyNotify
import BeautyProtocol
import BeautyStore
import Glibc
import GRDB
import Testing

@testable import BeautyDaemon

/// What `status` says reminders wait for is kept as a template down to its innermost part, so
/// beautyctl shows all of it in its user's language; the English stays for `--json` and the journal.
@Suite struct StatusDetailLanguageTests {
    @Test func aHeldReminderNamesTheServerInTheUsersLanguage() throws {
        let unanswered = TranslatableText(
            "no answer to Notify from %s (%s); not sent again while that server may still show it",
            [.plain(":1.42"), .plain("Timeout was reached")])
        let hold = DeliveryHold(NotifierError(unanswered), databasePath: "/x/beautyd.sqlite")
        #expect(
            hold.waitingFor == "a notification server: no answer to Notify from :1.42 (Timeout was reached); "
                + "not sent again while that server may still show it")
        let polish = Localizer.forLanguage(.polish)
        try #require(polish.language == .polish, "the Polish catalog is installed beside the tests")
        #expect(
            hold.text.rendered(polish)
                == "serwer powiadomień: brak odpowiedzi na Notify od :1.42 (Timeout was reached); "
                + "przypomnienie nie zostanie wysłane ponownie, dopóki ten serwer może je jeszcze wyświetlić")
    }

    @Test func aLibrarysOwnWordsStayAsTheyCame() {
        let hold = DeliveryHold(
            NotifierError("GDBus.Error: odd"), databasePath: "/x/beautyd.sqlite", otherwise: .scheduler)
        #expect(hold.text.rendered(Localizer.forLanguage(.slovak)) == "plánovač: GDBus.Error: odd")
    }

    @Test func aDatabaseFaultIsExplainedInTheUsersLanguage() {
        let text = DatabaseFault.locked.explanationText(path: "/x/beautyd.sqlite")
        #expect(text.english == DatabaseFault.locked.explanation(path: "/x/beautyd.sqlite"))
        #expect(text.rendered(Localizer.forLanguage(.slovak)) == "databázu /x/beautyd.sqlite zamkol iný program")
    }

    @Test func aLockedDatabaseIsRefusedInTheUsersLanguage() throws {
        let report = StoreFailureReport(
            DatabaseError(resultCode: .SQLITE_BUSY, message: "database is locked"), databasePath: "/x/beautyd.sqlite")
        #expect(
            report.rpcError.message.hasPrefix(
                "database locked: the database /x/beautyd.sqlite is locked by another program ("))
        let text = try #require(report.rpcError.data?.translatable)
        #expect(
            text.rendered(Localizer.forLanguage(.polish)).hasPrefix(
                "baza danych zablokowana: baza danych /x/beautyd.sqlite jest zablokowana przez inny program ("),
            "\(text)")
    }

    @Test(arguments: [
        CalDAVError.insecureURL("http://x/"), .unauthorized, .notFound("/cal/"),
        .preconditionFailed(href: "/cal/a.ics"), .syncTokenInvalid,
        .passwordFileNotPrivate("/pw"), .passwordFileUnreadable("/pw", errno: ENOENT), .passwordFileEmpty("/pw"),
        .server(status: 507, detail: ""), .server(status: 500, detail: "oops"), .unreachable("refused"),
        .malformed("no XML"),
    ])
    func aSyncFailureIsWordedAsTheCalDAVClientWordsIt(error: CalDAVError) {
        // The template must say what the error's own description says, in English.
        #expect(SyncErrorText.of(error).english == error.description)
    }

    @Test func theServersLastErrorKeepsItsTemplate() {
        var info = NotificationServerInfo.failing(TranslatableText("no notification server on the session bus", []))
        #expect(info.lastError == "no notification server on the session bus")
        #expect(
            info.lastErrorText?.rendered(Localizer.forLanguage(.polish))
                == "brak serwera powiadomień na magistrali sesji")
        info.fail("org.freedesktop.DBus.Error.ServiceUnknown")
        #expect(info.lastErrorText == nil && info.lastError == "org.freedesktop.DBus.Error.ServiceUnknown")
    }
}
