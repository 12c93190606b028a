import BeautyDaemon
import BeautyTestSupport
import Foundation
import Testing

/// `config/beautyd.toml` is the documented example with every default: it must parse to exactly
/// `DaemonConfig()`, set every setting there is, and bad files must be reported with their line.
@Suite struct ConfigExampleTests {
    static let examplePath = Locations.file("config/beautyd.toml")

    static func example() throws -> String { try String(contentsOfFile: examplePath, encoding: .utf8) }

    /// A non-default value for each key of the example, to prove the key reaches a setting.
    static let otherValues: [String: String] = [
        "log_level": #""debug""#,
        "max_lateness": #""3h""#,
        "snooze": #""7m""#,
        "retry_interval": #""45s""#,
        "commit_ahead_ms": "20",
        "default_duration": #""90m""#,
        "default_reminders": #"["1d", "2h"]"#,
        "all_day_reminder_time": #""7.30""#,
        "currency": #""PLN""#,
        "nag_interval": #""5m""#,
        "nag_count": "5",
        "daily_at": #""09:00""#,
        "interval": #""1h""#,
        "max_deletion_share": "0.25",
        "doses_days": "14",
        "doses_poll": #""30s""#,
        "request_timeout": #""30s""#,
        "sync_timeout": #""20m""#,
        "language": #""pl""#,
    ]

    /// The `key = value` lines of a TOML text: (line index, key).
    static func keyLines(_ text: String) -> [(index: Int, key: String)] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.hasPrefix("#"), !trimmed.hasPrefix("["), let equals = trimmed.firstIndex(of: "=") else {
                return nil
            }
            return (index, trimmed[..<equals].trimmingCharacters(in: .whitespaces))
        }
    }

    /// The names of the settings in which two configurations differ.
    static func differences(_ a: DaemonConfig, _ b: DaemonConfig) -> Set<String> {
        let left = Mirror(reflecting: a).children, right = Mirror(reflecting: b).children
        return Set(
            zip(left, right).compactMap { l, r in
                String(describing: l.value) == String(describing: r.value) ? nil : l.label
            })
    }

    @Test func exampleIsExactlyTheDefaults() throws {
        let (config, warnings) = try DaemonConfig.parse(try Self.example(), path: Self.examplePath)
        #expect(config == DaemonConfig())
        #expect(warnings.isEmpty, "\(warnings)")
        // The loader the daemon uses reads it the same way.
        #expect(try DaemonConfig.load(path: Self.examplePath).0 == DaemonConfig())
    }

    @Test func exampleSetsEverySettingThereIs() throws {
        let text = try Self.example()
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var covered = Set<String>()
        for (index, key) in Self.keyLines(text) {
            let other = try #require(Self.otherValues[key], "add a non-default value for '\(key)' to otherValues")
            let original = lines[index]
            lines[index] = "\(key) = \(other)"
            let (changed, warnings) = try DaemonConfig.parse(lines.joined(separator: "\n"))
            lines[index] = original
            #expect(warnings.isEmpty, "\(key): \(warnings)")
            let settings = Self.differences(changed, DaemonConfig())
            #expect(settings.count == 1, "\(key) = \(other) changed \(settings)")
            #expect(covered.isDisjoint(with: settings), "\(key) sets \(settings) again")
            covered.formUnion(settings)
        }
        // Sync accounts are tables of the user's own; the example shows one commented out. The session's
        // language comes from the session, not the file.
        let all = Set(Mirror(reflecting: DaemonConfig()).children.compactMap(\.label)).subtracting([
            "syncAccounts", "sessionLanguage",
        ])
        #expect(covered == all, "settings without a key in config/beautyd.toml: \(all.subtracting(covered))")
    }

    @Test(arguments: [
        ("# a comment\n[scheduling]\nmax_lateness = 12\n", "max_lateness"),
        ("[daemon]\nlog_level = \"info\"\nlog_level = \"debug\"\n", ""),
        ("[money]\n\ncurrency = [\n", ""),
        ("[daemon]\n# level\nlog_level = \"loud\"\n", "log_level"),
        ("[appointments]\ndefault_duration = \"1h\"\ndefault_reminders = [\"soon\"]\n", "default_reminders"),
        ("[appointments]\n# a time of day\nall_day_reminder_time = \"9\"\n", "all_day_reminder_time"),
    ])
    func brokenConfigNamesTheLine(text: String, key: String) throws {
        let error = try #require(throws: DaemonConfig.LoadError.self) {
            try DaemonConfig.parse(text, path: "/home/u/.config/beautyd/config.toml")
        }
        #expect(error.line == 3, "\(error)")
        #expect(error.description.hasPrefix("/home/u/.config/beautyd/config.toml:3:"), "\(error)")
        #expect(key.isEmpty || error.description.contains(key), "\(error)")
    }

    @Test func unknownKeysAreWarnedAboutWithTheirLine() throws {
        let (config, warnings) = try DaemonConfig.parse(
            "[daemon]\nlog_level = \"info\"\nloglevel = \"debug\"\n[colour]\n")
        #expect(config == DaemonConfig())
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.contains { $0.contains(":3:") && $0.contains("daemon.loglevel") }, "\(warnings)")
        #expect(warnings.contains { $0.contains(":4:") && $0.contains("[colour]") }, "\(warnings)")
    }
}
