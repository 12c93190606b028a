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
        try FileManager.default.copyItem(atPath: try Locations.built("beautyctl"), toPath: "\(bin)/beautyctl")
        let environment = ["PATH": "/usr/bin:/bin", "LANG": "pl_PL.UTF-8", "HOME": scratch.path]
        let arguments = ["bmi", "--weight", "70", "--height", "170"]

        // A child spawned by a test running alongside may still hold the copy's write descriptor for a
        // moment (FileManager does not open it close-on-exec): exec then fails with ETXTBSY.
        var ready = false
        for _ in 0..<50 where !ready {
            ready = (try? await scratch.run("\(bin)/beautyctl", ["--version"], environment: environment)) != nil
            if !ready { try await Task.sleep(for: .milliseconds(20)) }
        }
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
