import BeautyLocalization
import Testing

/// Locale names ICU would crash on are replaced; the language chosen from the environment stays.
@Suite struct LocaleEnvironmentTests {
    @Test(arguments: [
        "C", "POSIX", "C.UTF-8", "pl_PL.UTF-8", "sk_SK@euro", "en_US.ISO-8859-1", "de", "zh_CN.GB18030", "xxxxxxxx",
        "x",
    ])
    func aLocaleNameStays(_ name: String) {
        #expect(LocaleEnvironment.replacement(for: name) == nil)
    }

    @Test(arguments: [
        ("xxxxxxxxxxxx", "en"), ("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx_PL.UTF-8", "en"),
        ("pl_PL.UTF-8 ; rm -rf", "pl"),
        ("sk\u{1B}[2J", "sk"), ("ü", "en"), (String(repeating: "pl_PL", count: 20), "pl"), ("_PL", "en"), ("123", "en"),
    ])
    func anImplausibleNameIsReplacedByItsLanguage(_ name: String, _ replacement: String) {
        #expect(LocaleEnvironment.replacement(for: name) == replacement)
    }

    /// Whatever the variables hold, beautyd speaks the language it spoke before the names were replaced.
    @Test func theLanguageChosenIsKept() {
        let names = [
            "", "C", "C.UTF-8", "pl_PL.UTF-8", "sk", "xxxxxxxxxxxx", "plxxxxxxxxxxxx", "POSIXxxxxxxxxxxxx",
            "sk_SKxxxxxxxxxxxx\u{7}",
        ]
        for locale in names {
            for variable in ["LC_ALL", "LC_MESSAGES", "LANG"] {
                for languageList in [nil, "pl", "xxxxxxxxxxxx:sk"] {
                    var environment = [variable: locale]
                    environment["LANGUAGE"] = languageList
                    var sanitized = environment
                    sanitized[variable] = LocaleEnvironment.replacement(for: locale) ?? locale
                    #expect(
                        Language.fromEnvironment(sanitized) == Language.fromEnvironment(environment), "\(environment)")
                }
            }
        }
    }
}
