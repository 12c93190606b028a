import BeautyLocalization
import BeautyTestSupport
import Foundation
import Testing

/// An installed beautyctl (`<prefix>/bin`) finds its catalogs in `<prefix>/share/beautyd/po`, as
/// config/setup.sh installs them; with none it speaks English rather than failing.
@Suite struct InstalledCatalogTests {
    @Test func installedCopyFindsItsCatalogs() async throws {
        let scratch = try ScratchDirectory()
        let bin = try scratch.sub("prefix/bin", create: true),
            po = try scratch.sub("prefix/share/beautyd/po", create: true)
        // Copied by install(1), as setup.sh does: a copy this process wrote stays open for writing in every
        // child another test spawns meanwhile (FileManager does not open it close-on-exec), for the child's
        // whole life if it execs a server, and exec of the copy fails with ETXTBSY.
        let copied = try await scratch.run(
            "/usr/bin/install", ["-m", "0755", try Locations.built("beautyctl"), "\(bin)/beautyctl"],
            environment: ["PATH": "/usr/bin:/bin"])
        try #require(copied.status == .exited(0), "install: \(copied)")
        let environment = ["PATH": "/usr/bin:/bin", "LANG": "pl_PL.UTF-8", "HOME": scratch.path]
        let arguments = ["bmi", "--weight", "70", "--height", "170"]
        let bare = try await scratch.run("\(bin)/beautyctl", arguments, environment: environment)
        #expect(bare.stdout == "BMI 24.2: normal weight (18.5 ≤ BMI < 25)\n", "without catalogs: \(bare)")

        for language in Language.translated {
            try FileManager.default.copyItem(
                atPath: CatalogCoverageTests.path(language), toPath: "\(po)/\(language.rawValue).po")
        }
        let polish = try await scratch.run("\(bin)/beautyctl", arguments, environment: environment)
        #expect(polish.stdout == "BMI 24,2: wartość prawidłowa (18,5 ≤ BMI < 25)\n", "\(polish)")
        let chosen = try await scratch.run(
            "\(bin)/beautyctl", arguments,
            environment: environment.merging(["BEAUTYD_LOCALE_DIR": "/nonexistent", "LANG": "sk_SK.UTF-8"]) { $1 })
        #expect(chosen.stdout == "BMI 24,2: normálna hmotnosť (18,5 ≤ BMI < 25)\n", "\(chosen)")
    }
}
