import BeautyCalDAV
import BeautyCore
import BeautyProtocol
import BeautyStore
import Foundation

/// `sync add`: checks the password file, finds the calendar to follow (the URL's own, one chosen
/// among those discovery finds, or a new one) and stores the account.
struct SyncSetup {
    let store: SyncStore
    let clock: @Sendable () -> Date
    /// The name of a task list made for the doses (`DoseTaskPlan.listName`, in the daemon's language).
    var doseListName = DoseTaskPlan.listName(localizer: .english)

    func add(_ p: SyncAddParams) async throws -> SyncAccount {
        let name = p.name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 64, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) })
        else {
            throw ValidationError(field: "name", template: "must be 1 to 64 letters, digits, '-', '_' or '.'")
        }
        if try store.account(named: name) != nil {
            throw ValidationError(
                field: "name",
                template: "a sync account named '%s' exists already (remove it first: beautyctl sync rm %s)", name, name
            )
        }
        guard let url = URL(string: p.url), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw ValidationError(field: "url", template: "'%s' is not an http:// or https:// URL", p.url)
        }
        // A password in the URL would be stored, listed and logged with it.
        guard url.user == nil, url.password == nil else {
            throw ValidationError(
                field: "url",
                template:
                    "'%s' carries a user name or password: give them with --user and --password-file or --keyring",
                "\(scheme)://\(url.host ?? "")\(url.path)")
        }
        let credentials: any CalDAVCredentialSource
        switch (p.passwordFile, p.keyring ?? false) {
        case let (file?, false):
            guard file.hasPrefix("/") else {
                throw ValidationError(field: "passwordFile", template: "must be an absolute path")
            }
            credentials = try PasswordFileCredentials(user: p.user, passwordFile: file)
        case (nil, true):
            credentials = Self.keyring(user: p.user, account: name, url: url)
        default:
            throw ValidationError(
                field: "passwordFile", template: "give either a password file or keyring (the desktop's Secret Service)"
            )
        }
        if p.wantsDoses { try DoseListSetup.checkHost(url) }
        var client = try CalDAVClient(
            account: CalDAVAccount(url: url, credentials: credentials, allowInsecure: p.insecure ?? false))
        defer { Task { [client] in try? await client.shutdown() } }
        var own = p.url
        let calendar: CalDAVCalendar
        do {
            calendar = try await chooseCalendar(client, url: url, p)
        } catch let CalDAVError.otherOrigin(text) {
            guard let there = URL(string: text) else { throw CalDAVError.otherOrigin(text) }
            // The user named this host: the account moves there, and its password goes there alone from now on.
            try Self.checkFollowing(there, trusting: p.trustHost)
            if p.wantsDoses { try DoseListSetup.checkHost(there) }
            let moved = p.passwordFile == nil ? Self.keyring(user: p.user, account: name, url: there) : credentials
            client = try CalDAVClient(account: CalDAVAccount(url: there, credentials: moved))
            calendar = try await chooseCalendar(client, url: there, p)
            own = there.absoluteString
        }
        let doseList =
            p.wantsDoses
            ? try await DoseListSetup(listName: doseListName).list(client, wanted: p.dosesList, events: calendar.url)
            : nil
        var account = SyncAccount(
            name: name, url: own, user: p.user, passwordFile: p.passwordFile, calendarURL: calendar.url.absoluteString,
            calendarName: calendar.displayName, insecure: p.insecure ?? false,
            supportsSyncCollection: calendar.supportsSyncCollection, createdAt: clock())
        if let doseList {
            account.dosesEnabled = true
            account.dosesListURL = doseList.url.absoluteString
            account.dosesListName = doseList.displayName
            account.dosesPrivate = p.privateDoses ?? false
        }
        try store.addAccount(account)
        return account
    }

    /// The task list for a stored account's doses (`sync doses NAME on`), through its client.
    func doseList(for account: SyncAccount, client: CalDAVClient, wanted: String?) async throws -> CalDAVCalendar {
        for address in [account.url, account.calendarURL] {
            if let url = URL(string: address) { try DoseListSetup.checkHost(url) }
        }
        guard let events = URL(string: account.calendarURL) else {
            throw CalDAVError.malformed("calendar URL \(account.calendarURL)")
        }
        return try await DoseListSetup(listName: doseListName).list(client, wanted: wanted, events: events)
    }

    private func chooseCalendar(_ client: CalDAVClient, url: URL, _ p: SyncAddParams) async throws -> CalDAVCalendar {
        if let create = p.create { return try await client.makeCalendar(named: create) }
        if p.calendar == nil, let own = try? await client.calendar(at: url), own.supportsEvents { return own }
        let found = try await client.discoverCalendars().filter(\.supportsEvents)
        if let wanted = p.calendar {
            guard let match = Self.match(wanted, in: found) else {
                if found.isEmpty {
                    throw ValidationError(
                        field: "calendar", template: "no calendar '%s' on the server; it has: none", wanted)
                }
                throw ValidationError(
                    field: "calendar", template: "no calendar '%s' on the server; it has: %s", wanted,
                    Self.listing(found))
            }
            return match
        }
        switch found.count {
        case 0:
            throw ValidationError(
                field: "calendar", template: "the server has no calendar for events here; make one with --create NAME")
        case 1: return found[0]
        default:
            throw ValidationError(
                field: "calendar", template: "the server has %s calendars; choose one with --calendar NAME or URL: %s",
                found.count, Self.listing(found))
        }
    }

    /// The calendar `wanted` names: by its display name, else by the end of its URL or path, with or
    /// without the collection's closing slash.
    static func match(_ wanted: String, in found: [CalDAVCalendar]) -> CalDAVCalendar? {
        let slashes = CharacterSet(charactersIn: "/")
        let key = SyncEngine.key(wanted).trimmingCharacters(in: slashes)
        return found.first { $0.displayName == wanted }
            ?? found.first {
                SyncEngine.key($0.url.absoluteString).trimmingCharacters(in: slashes).hasSuffix(key)
                    || SyncEngine.key($0.url.path).trimmingCharacters(in: slashes).hasSuffix(key)
            }
    }

    /// Discovery during `sync add` led to `url`, on another origin: followed only when the user named
    /// its host (`--trust-host`), and only over https (or to this machine, as any account may be).
    static func checkFollowing(_ url: URL, trusting trusted: String?) throws {
        let origin = CollectionScope.origin(of: url), host = hostName(of: url)
        guard let trusted, trusted.trimmingCharacters(in: .whitespaces).lowercased() == host else {
            throw ValidationError(
                field: "url",
                template:
                    "the server keeps your calendars on another host, %s; nothing was sent there. If you trust it with your password, add the account again with --trust-host %s",
                origin, host)
        }
        guard CollectionScope.isEncryptedOrLocal(url) else {
            throw ValidationError(
                field: "trustHost", template: "%s is not https: the password does not go to another host unencrypted",
                origin)
        }
    }

    /// The host as `--trust-host` takes it: with `:port` when the port is not the scheme's default.
    static func hostName(of url: URL) -> String {
        String(CollectionScope.origin(of: url).drop { $0 != "/" }.dropFirst(2))
    }

    /// The password the desktop's Secret Service keeps for account `account` at `url`'s origin.
    static func keyring(user: String, account: String, url: URL) -> SecretServiceCredentials {
        SecretServiceCredentials.account(account, user: user, origin: url)
    }

    /// `"Name" URL, ...`; a calendar without a name by its URL alone, so no English word goes into a translated message.
    static func listing(_ calendars: [CalDAVCalendar]) -> String {
        calendars.map { calendar in
            calendar.displayName.map { "\"\($0)\" \(calendar.url.absoluteString)" } ?? calendar.url.absoluteString
        }.joined(separator: ", ")
    }

    static func unknown(_ name: String, _ accounts: [SyncAccount]) -> ValidationError {
        accounts.isEmpty
            ? ValidationError(field: "name", template: "no sync account named '%s' (accounts: none)", name)
            : ValidationError(
                field: "name", template: "no sync account named '%s' (accounts: %s)", name,
                accounts.map(\.name).joined(separator: ", "))
    }
}
