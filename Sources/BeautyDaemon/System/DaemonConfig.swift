import BeautyCore
import BeautyLocalization
import Foundation
import Logging
import TOMLKit

/// Settings from `config.toml`; every key is optional and `config/beautyd.toml` documents the defaults.
public struct DaemonConfig: Sendable, Equatable {
    public var logLevel: Logger.Level = .info
    /// Reminders older than this when finally due (daemon was down, machine slept) are recorded as missed.
    public var maxLatenessSeconds = 12 * 3600
    /// How long the Snooze button postpones a reminder.
    public var snoozeSeconds = 10 * 60
    /// With no notification server, due reminders wait and are retried this often (and at once when one appears).
    public var retrySeconds = 30
    /// How long before a reminder's instant its delivery is committed to the database, so that at the
    /// instant only the Notify calls remain; 0 commits at the instant.
    public var commitAheadMilliseconds = 5
    public var defaultDurationSeconds = Appointment.defaultDurationSeconds
    /// Lead times given to appointments added without any `--remind`/`--remind-at`.
    public var defaultReminderSeconds: [Int] = []
    /// The time of day all-day appointments' reminders are counted back from (`AllDayReminders`).
    public var allDayReminderTime = AllDayReminders.defaultTime
    /// `money.currency`; nil follows the language (PLN for Polish, EUR otherwise).
    public var configuredCurrency: String?
    /// `ui.language`; nil follows the session's language (`sessionLanguage`).
    public var language: Language?
    /// Not from the file: the session's language (`SessionLanguage`: the environment's LANGUAGE, LC_ALL,
    /// LC_MESSAGES, LANG) as `SettingsBox` last read it.
    public var sessionLanguage = Language.english
    /// An unanswered dose is shown again this often...
    public var nagIntervalSeconds = 10 * 60
    /// ...this many times, then recorded as missed.
    public var nagCount = 3
    /// When to show the daily beauty tip; nil = never.
    public var dailyTipAt: ClockTime?
    /// How often each CalDAV account syncs by itself (local changes go at once).
    public var syncIntervalSeconds = 15 * 60
    /// A pull that would delete more than this share of an account's appointments (and more than
    /// five), or all of them, is held back (`[sync] max_deletion_share`).
    public var syncMaxDeletionShare = 0.5
    /// The longest one CalDAV request may take, its answer included (`[sync] request_timeout`).
    public var syncRequestTimeoutSeconds = 120
    /// The longest one account's sync may take (`[sync] sync_timeout`).
    public var syncTimeoutSeconds = 600
    /// How many days ahead doses travel as tasks to an account's dose list (`[sync] doses_days`, 1...31).
    public var dosesDays = 7
    /// How often a dose list is polled while a dose is due and unanswered (`[sync] doses_poll`, 10 s...10 min).
    public var dosesPollSeconds = 60
    /// Accounts of `[sync.NAME]` tables, added at start and reload when not stored yet.
    public var syncAccounts: [SyncAccountConfig] = []

    public init() {}

    /// The language of what the daemon shows (notifications, and SMS texts a client asks for without one).
    public var shownLanguage: Language { language ?? sessionLanguage }

    /// The currency of amounts given without one.
    public var currency: String { configuredCurrency ?? shownLanguage.defaultCurrency }

    public struct LoadError: Error, CustomStringConvertible {
        public var path: String
        public var line: Int?
        public var message: String
        public var description: String {
            "\(path)\(line.map { ":\($0)" } ?? ""): \(message)"
        }
    }

    /// Reads the file at `path`; a missing file means all defaults, a bad one is an error naming the line.
    public static func load(path: String) throws -> (DaemonConfig, warnings: [String]) {
        guard FileManager.default.fileExists(atPath: path) else { return (DaemonConfig(), []) }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else {
            throw LoadError(path: path, line: nil, message: "cannot read the file as UTF-8 text")
        }
        return try parse(text, path: path)
    }

    public static func parse(_ text: String, path: String = "config.toml") throws -> (DaemonConfig, warnings: [String])
    {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw LoadError(path: path, line: error.source.begin.line, message: error.description)
        }
        var config = DaemonConfig()
        var warnings: [String] = []
        let fail = { (key: String, expected: String) in
            LoadError(path: path, line: lineOf(key: key, in: text), message: "\(key): expected \(expected)")
        }
        let known: [String: Set<String>] = [
            "daemon": ["log_level"],
            "scheduling": ["max_lateness", "snooze", "retry_interval", "commit_ahead_ms"],
            "appointments": ["default_duration", "default_reminders", "all_day_reminder_time"],
            "money": ["currency"],
            "medications": ["nag_interval", "nag_count"],
            "tips": ["daily_at"],
            "ui": ["language"],
        ]
        for section in table.keys {
            if section == "sync" {
                try parseSync(table[section], text: text, path: path, into: &config, warnings: &warnings)
                continue
            }
            guard let keys = known[section] else {
                warnings.append("\(path):\(lineOf(key: section, in: text) ?? 0): unknown section [\(section)] ignored")
                continue
            }
            guard let sub = table[section]?.table else { throw fail(section, "a [\(section)] table") }
            for key in sub.keys where !keys.contains(key) {
                warnings.append("\(path):\(lineOf(key: key, in: text) ?? 0): unknown key \(section).\(key) ignored")
            }
        }
        func value(_ section: String, _ key: String) -> TOMLValueConvertible? { table[section]?.table?[key] }
        func duration(_ section: String, _ key: String) throws -> Int? {
            guard let raw = value(section, key) else { return nil }
            guard let text = raw.string, let seconds = try? DurationParser.seconds(text) else {
                throw fail(key, "a duration string such as \"12h\" or \"90m\"")
            }
            return seconds
        }
        if let raw = value("daemon", "log_level") {
            guard let text = raw.string, let level = Logger.Level(rawValue: text.lowercased()) else {
                throw fail("log_level", "one of trace, debug, info, notice, warning, error, critical")
            }
            config.logLevel = level
        }
        if let v = try duration("scheduling", "max_lateness") {
            // Below a minute, a timer waking a few milliseconds late would count as "missed".
            guard v >= 60 else { throw fail("max_lateness", "at least 1m") }
            config.maxLatenessSeconds = v
        }
        if let v = try duration("scheduling", "snooze") {
            guard v > 0 else { throw fail("snooze", "more than 0") }
            config.snoozeSeconds = v
        }
        if let v = try duration("scheduling", "retry_interval") {
            guard v > 0 else { throw fail("retry_interval", "more than 0") }
            config.retrySeconds = v
        }
        if let raw = value("scheduling", "commit_ahead_ms") {
            guard let v = raw.int, (0...1000).contains(v) else {
                throw fail("commit_ahead_ms", "a whole number of milliseconds from 0 to 1000")
            }
            config.commitAheadMilliseconds = v
        }
        if let v = try duration("appointments", "default_duration") {
            guard (try? Validation.duration(v)) != nil else {
                throw fail("default_duration", "a duration of at most a year")
            }
            config.defaultDurationSeconds = v
        }
        if let raw = value("appointments", "default_reminders") {
            guard let array = raw.array else { throw fail("default_reminders", "a list such as [\"1d\", \"2h\"]") }
            config.defaultReminderSeconds = try array.map { item in
                guard let text = item.string, let s = try? DurationParser.seconds(text) else {
                    throw fail("default_reminders", "durations such as \"1d\" or \"2h\"")
                }
                return s
            }
        }
        if let v = try duration("medications", "nag_interval") {
            guard v >= 1 else { throw fail("nag_interval", "at least 1s") }
            config.nagIntervalSeconds = v
        }
        if let raw = value("medications", "nag_count") {
            guard let count = raw.int, (0...20).contains(count) else {
                throw fail("nag_count", "a whole number from 0 to 20")
            }
            config.nagCount = count
        }
        if let raw = value("tips", "daily_at") {
            guard let text = raw.string else {
                throw fail("daily_at", "a time of day such as \"09:00\", or \"\" for never")
            }
            if !text.isEmpty {
                guard let time = try? ClockTime(parsing: text) else {
                    throw fail("daily_at", "a time of day such as \"09:00\", or \"\" for never")
                }
                config.dailyTipAt = time
            }
        }
        if let raw = value("appointments", "all_day_reminder_time") {
            guard let text = raw.string, let time = try? ClockTime(parsing: text) else {
                throw fail("all_day_reminder_time", "a time of day such as \"09:00\"")
            }
            config.allDayReminderTime = time
        }
        if let raw = value("money", "currency") {
            guard let text = raw.string,
                text.isEmpty || (text.count == 3 && text.allSatisfy({ $0.isASCII && $0.isLetter }))
            else {
                throw fail("currency", "a three-letter currency code such as \"EUR\", or \"\" for the language's")
            }
            config.configuredCurrency = text.isEmpty ? nil : text.uppercased()
        }
        if let raw = value("ui", "language") {
            let codes = Language.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            guard let text = raw.string, text.isEmpty || Language(rawValue: text.lowercased()) != nil else {
                throw fail("language", "one of \(codes), or \"\" for the environment's")
            }
            config.language = text.isEmpty ? nil : Language(rawValue: text.lowercased())
        }
        return (config, warnings)
    }

    static func lineOf(key: String, in text: String) -> Int? {
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "[\(key)]" { return index + 1 }
            // `key = ...` exactly, so `snooze` does not match a line for `snooze_limit`.
            if trimmed.hasPrefix(key), trimmed.dropFirst(key.count).trimmingCharacters(in: .whitespaces).hasPrefix("=")
            {
                return index + 1
            }
        }
        return nil
    }
}
