import ArgumentParser
import BeautyProtocol
import Foundation

/// `beautyctl sync ...`: CalDAV accounts (a phone's or a web calendar's server) and their syncs.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Keep appointments in sync with a CalDAV calendar (Nextcloud, Radicale, Fastmail, iCloud...).",
        discussion: """
            Appointments made on the phone or the web calendar appear in beautyd with their reminders, and \
            those made with beautyctl appear there. beautyd syncs at the interval of [sync] in config.toml \
            (15 minutes by default) and right after local changes. If both sides changed an event, the \
            server's version wins and the local one is kept as a conflict copy ('sync status' lists it). \
            Medications, doses and other records stay on this machine.
            Examples:
              beautyctl sync add phone --url https://cloud.example.org/remote.php/dav --user anna --password-file ~/.config/beautyd/nextcloud.pw
              beautyctl sync add home --url http://localhost:5232/anna/ --user anna --password-file ~/.radicale.pw --calendar Beauty
              beautyctl sync now
              beautyctl sync status phone
            """,
        subcommands: [SyncAddCommand.self, SyncListCommand.self, SyncStatusCommand.self, SyncNowCommand.self, SyncRemoveCommand.self])
}

struct SyncAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Follow a CalDAV calendar.",
        discussion: """
            --url is the calendar's own URL, or the server's base URL: then beautyd finds your calendars \
            (/.well-known/caldav, current-user-principal, calendar-home-set); with several, choose one with \
            --calendar (its name or URL), or make one with --create. The password file must be readable by you \
            alone (chmod 600); use an app password where the provider has them (iCloud, Fastmail, mailbox.org). \
            Plain http:// is refused except to this machine, unless --insecure. The first account also receives \
            every appointment already stored.
            Examples:
              beautyctl sync add phone --url https://cloud.example.org/remote.php/dav --user anna --password-file ~/.nextcloud.pw
              beautyctl sync add fastmail --url https://caldav.fastmail.com/dav/ --user anna@fastmail.com --password-file ~/.fm.pw --calendar Personal
              beautyctl sync add home --url http://localhost:5232/anna/ --user anna --password-file ~/.radicale.pw --create Beauty
              secret-tool store --label beautyd service beautyd account icloud
              beautyctl sync add icloud --url https://caldav.icloud.com/ --user anna@icloud.com --keyring
            """)
    @Argument(help: ArgumentHelp("A name for the account.", valueName: "name")) var name: String
    @Option(help: ArgumentHelp("The server's base URL or the calendar's URL.", valueName: "url")) var url: String
    @Option(help: ArgumentHelp("The user name.", valueName: "user")) var user: String
    @Option(help: ArgumentHelp("A file readable by you alone holding the password.", valueName: "file")) var passwordFile: String?
    @Flag(help: "Take the password from the desktop's keyring (Secret Service), stored with: secret-tool store --label beautyd service beautyd account NAME")
    var keyring = false
    @Option(help: ArgumentHelp("Which calendar to follow: its display name or URL.", valueName: "name|url")) var calendar: String?
    @Option(help: ArgumentHelp("Create a calendar with this name and follow it.", valueName: "name")) var create: String?
    @Flag(help: "Allow plain HTTP to another machine (the password travels readable).") var insecure = false
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if calendar != nil, create != nil { throw ValidationError("--calendar and --create: choose one") }
        if (passwordFile == nil) == !keyring { throw ValidationError("give --password-file FILE or --keyring") }
    }

    func run() throws {
        var client = global.client
        let params = SyncAddParams(name: name, url: url, user: user, passwordFile: passwordFile.map(BackupInput.absolute),
                                   keyring: keyring ? true : nil, calendar: calendar, create: create, insecure: insecure ? true : nil)
        let account = try client.call(SyncRPC.add, params, waiting: true)
        if output.json { return try Output.json(account) }
        Output.line("Added sync account '\(account.name)': calendar \(account.calendarName.map { "\"\($0)\" " } ?? "")\(account.calendarURL).")
        Output.line("It syncs in the background; 'beautyctl sync now \(account.name)' syncs at once.")
    }
}

struct SyncListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the sync accounts.",
        discussion: "Example:\n  beautyctl sync list --json")
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        var client = global.client
        let result = try client.call(SyncRPC.list)
        if output.json { return try Output.json(result) }
        if result.accounts.isEmpty { return Output.line("No sync accounts. Add one with 'beautyctl sync add NAME --url URL --user USER --password-file FILE'.") }
        Output.table(["name", "calendar", "url", "user", "last sync"], result.accounts.map {
            [$0.name, $0.calendarName ?? "", $0.calendarURL, $0.user, $0.lastSyncAt.map { Output.iso($0) } ?? "never"]
        })
    }
}

struct SyncStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the last sync, pending local changes, conflicts and the last error.",
        discussion: """
            A conflict is an event changed on both sides between two syncs: the server's version is the one \
            in your calendar now, and the local version is kept here as iCalendar text (see it with --json; \
            'beautyctl import' takes it back).
            Examples:
              beautyctl sync status
              beautyctl sync status phone --json
            """)
    @Argument(help: ArgumentHelp("One account (default: all).", valueName: "name")) var name: String?
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        var client = global.client
        let result = try client.call(SyncRPC.status, SyncNameParams(name: name))
        if output.json { return try Output.json(result) }
        if result.accounts.isEmpty { return Output.line("No sync accounts.") }
        for (index, a) in result.accounts.enumerated() {
            if index > 0 { Output.line() }
            Output.line("\(a.name): \(a.calendarName.map { "\"\($0)\" " } ?? "")\(a.calendarURL)")
            Output.line("  last sync:       \(a.lastSyncAt.map { Output.iso($0) } ?? "never")\(a.incremental ? " (incremental: sync-collection)" : " (CTag and ETags)")")
            Output.line("  pending changes: \(a.pending)")
            if let error = a.lastError { Output.line("  last error:      \(error)") }
            if let next = a.nextAttemptAt { Output.line("  next attempt:    \(Output.iso(next))") }
            Output.line("  conflicts:       \(a.conflicts.count)")
            for c in a.conflicts { Output.line("    \(Output.iso(c.detectedAt))  \(c.title)  (\(c.uid)): \(c.reason)") }
        }
    }
}

struct SyncNowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now", abstract: "Sync now and wait for the result.",
        discussion: """
            Syncs one account (default: all) at once, whatever the back-off after failures. --json prints \
            the totals (requests, bytesSent, bytesReceived, seconds, fetched, pushed, removed, conflicts) and \
            each account's report.
            Examples:
              beautyctl sync now
              beautyctl sync now phone --json
            """)
    @Argument(help: ArgumentHelp("One account (default: all).", valueName: "name")) var name: String?
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        var client = global.client
        let result = try client.call(SyncRPC.now, SyncNameParams(name: name), waiting: true)
        if output.json { try Output.json(result) } else {
            if result.accounts.isEmpty { Output.line("No sync accounts.") }
            for r in result.accounts {
                if let error = r.error { Output.line("\(r.account): failed: \(error)"); continue }
                Output.line("\(r.account): \(r.fetched) fetched, \(r.pushed) sent, \(r.removed) removed, \(r.conflicts) conflict(s); "
                            + "\(r.requests) requests, \(r.bytesSent + r.bytesReceived) bytes, \(String(format: "%.2f", r.seconds)) s")
            }
        }
        if let failed = result.accounts.first(where: { $0.error != nil }) {
            throw CLIFailure(.refused, "sync of \(failed.account) failed: \(failed.error ?? "")")
        }
    }
}

struct SyncRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Stop syncing an account (its appointments stay here and on the server).",
        discussion: "Example:\n  beautyctl sync rm phone")
    @Argument(help: ArgumentHelp("The account.", valueName: "name")) var name: String
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        var client = global.client
        let result = try client.call(SyncRPC.remove, SyncRemoveParams(name: name))
        if output.json { return try Output.json(result) }
        Output.line("Removed sync account '\(result.name)'; its appointments stay.")
    }
}
