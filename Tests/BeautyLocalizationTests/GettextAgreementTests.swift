import BeautyLocalization
import BeautyTestSupport
import Foundation
import Testing

/// The catalogs as GNU gettext reads them: `msgfmt --check` accepts them (syntax, header,
/// c-format arguments), and GNU `ngettext` under `LANG=pl_PL.UTF-8`/`sk_SK.UTF-8` picks the same
/// plural form as beautyd's CLDR rules, so the `Plural-Forms` headers and the code agree.
@Suite struct GettextAgreementTests {
    @Test(arguments: Language.translated)
    func msgfmtAcceptsTheCatalog(language: Language) async throws {
        let msgfmt = try Locations.system("msgfmt", package: "gettext")
        let scratch = try ScratchDirectory()
        let result = try await scratch.run(
            msgfmt, ["--check", "-o", "/dev/null", CatalogCoverageTests.path(language)],
            environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"])
        #expect(result.status == .exited(0), "\(result.stderr)")
    }

    static let counts = [0, 1, 2, 4, 5, 12, 21, 22, 25, 101, 102, 112, 1_000_000]

    @Test(arguments: [(Language.polish, "pl_PL.UTF-8"), (.slovak, "sk_SK.UTF-8")])
    func gnuNgettextPicksTheSameForms(language: Language, locale: String) async throws {
        let msgfmt = try Locations.system("msgfmt", package: "gettext")
        let ngettext = try Locations.system("ngettext", package: "gettext-base")
        let scratch = try ScratchDirectory()
        let messages = try scratch.sub("\(language.rawValue)/LC_MESSAGES", create: true)
        let compiled = try await scratch.run(
            msgfmt, ["-o", "\(messages)/beautyd.mo", CatalogCoverageTests.path(language)],
            environment: ["PATH": "/usr/bin:/bin"])
        #expect(compiled.status == .exited(0), "\(compiled.stderr)")
        let catalog = try CatalogCoverageTests.catalog(language)
        let localizer = Localizer(language: language, catalog: catalog)
        let (singular, plural) = ("%s reminder missed while away", "%s reminders missed while away")
        for count in Self.counts {
            let gnu = try await scratch.run(
                ngettext, ["-d", "beautyd", singular, plural, String(count)],
                environment: ["PATH": "/usr/bin:/bin", "LANG": locale, "TEXTDOMAINDIR": scratch.path])
            let ours = localizer.trn(singular, plural, count, "%s")
            #expect(
                !gnu.stdout.contains("reminder"),
                "GNU gettext answered in English: is the locale \(locale) generated? (config/test.sh runs locale-gen) \(gnu.stderr)"
            )
            #expect(gnu.stdout == ours, "n = \(count): GNU gettext says '\(gnu.stdout)', beautyd '\(ours)'")
        }
    }
}
