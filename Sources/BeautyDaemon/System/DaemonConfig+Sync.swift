import BeautyCore
import BeautyProtocol
import Foundation
import TOMLKit

/// A `[sync.NAME]` table: a CalDAV calendar to follow (as `beautyctl sync add NAME ...` would).
public struct SyncAccountConfig: Sendable, Equatable {
    public var name: String
    public var url: String
    public var user: String
    /// Nil: the password is in the desktop's keyring (`keyring = true`).
    public var passwordFile: String?
    public var calendar: String?
    public var insecure = false
    /// `doses`, `doses_list`, `private_doses`: the doses go to the server as tasks (`sync add --doses`).
    public var doses = false
    public var dosesList: String?
    public var privateDoses = false

    /// The `sync.add` this table stands for.
    var addParams: SyncAddParams {
        SyncAddParams(
            name: name, url: url, user: user, passwordFile: passwordFile, keyring: passwordFile == nil ? true : nil,
            calendar: calendar, insecure: insecure, doses: doses ? true : nil, dosesList: dosesList,
            privateDoses: privateDoses ? true : nil)
    }
}

extension DaemonConfig {
    /// `[sync]`: `interval`, `request_timeout`, `sync_timeout`, `max_deletion_share`, `doses_days`, `doses_poll`; each sub-table `[sync.NAME]`: `url`, `user`, `password_file` (or `keyring = true`),
    /// `calendar`, `insecure`, `doses`, `doses_list`, `private_doses`.
    static func parseSync(
        _ value: TOMLValueConvertible?, text: String, path: String, into config: inout DaemonConfig,
        warnings: inout [String]
    ) throws {
        let fail = { (key: String, expected: String) in
            LoadError(path: path, line: lineOf(key: key, in: text), message: "\(key): expected \(expected)")
        }
        guard let table = value?.table else { throw fail("sync", "a [sync] table") }
        for key in table.keys {
            if key == "interval" {
                guard let raw = table[key]?.string, let seconds = try? DurationParser.seconds(raw), seconds >= 60 else {
                    throw fail("interval", "a duration of at least a minute, such as \"15m\"")
                }
                config.syncIntervalSeconds = seconds
                continue
            }
            if key == "request_timeout" || key == "sync_timeout" {
                guard let raw = table[key]?.string, let seconds = try? DurationParser.seconds(raw), seconds >= 1 else {
                    throw fail(key, "a duration of at least a second, such as \"2m\"")
                }
                if key == "request_timeout" {
                    config.syncRequestTimeoutSeconds = seconds
                } else {
                    config.syncTimeoutSeconds = seconds
                }
                continue
            }
            if key == "doses_days" {
                guard let days = table[key]?.int, (1...31).contains(days) else {
                    throw fail("doses_days", "a whole number of days from 1 to 31")
                }
                config.dosesDays = days
                continue
            }
            if key == "doses_poll" {
                guard let raw = table[key]?.string, let seconds = try? DurationParser.seconds(raw),
                    (10...600).contains(seconds)
                else {
                    throw fail("doses_poll", "a duration from 10 seconds to 10 minutes, such as \"1m\"")
                }
                config.dosesPollSeconds = seconds
                continue
            }
            if key == "max_deletion_share" {
                guard let share = table[key]?.double ?? table[key]?.int.map(Double.init), share >= 0, share <= 1 else {
                    throw fail("max_deletion_share", "a number from 0 to 1, such as 0.5")
                }
                config.syncMaxDeletionShare = share
                continue
            }
            guard let account = table[key]?.table else {
                warnings.append("\(path):\(lineOf(key: key, in: text) ?? 0): unknown key sync.\(key) ignored")
                continue
            }
            let known: Set<String> = [
                "url", "user", "password_file", "keyring", "calendar", "insecure", "doses", "doses_list",
                "private_doses",
            ]
            for unknown in account.keys where !known.contains(unknown) {
                warnings.append(
                    "\(path):\(lineOf(key: unknown, in: text) ?? 0): unknown key sync.\(key).\(unknown) ignored")
            }
            func string(_ name: String) throws -> String {
                guard let value = account[name]?.string, !value.isEmpty else {
                    throw fail(name, "a string in [sync.\(key)]")
                }
                return value
            }
            let keyring = account["keyring"]?.bool ?? false
            var entry = SyncAccountConfig(
                name: key, url: try string("url"), user: try string("user"),
                passwordFile: keyring ? nil : (try string("password_file") as NSString).expandingTildeInPath)
            entry.calendar = account["calendar"]?.string
            func flag(_ name: String) throws -> Bool {
                guard let raw = account[name] else { return false }
                guard let flag = raw.bool else { throw fail(name, "true or false") }
                return flag
            }
            entry.insecure = try flag("insecure")
            entry.doses = try flag("doses")
            entry.privateDoses = try flag("private_doses")
            if account["doses_list"] != nil { entry.dosesList = try string("doses_list") }
            config.syncAccounts.append(entry)
        }
        config.syncAccounts.sort { $0.name < $1.name }
    }
}
