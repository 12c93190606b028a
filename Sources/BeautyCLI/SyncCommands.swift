import ArgumentParser
import BeautyCore
import BeautyProtocol
import Foundation

/// `beautyctl sync ...`: CalDAV accounts (a phone's or a web calendar's server) and their syncs.
struct SyncCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "sync",
            abstract: Output.l.tr(
                "Keep appointments in sync with a CalDAV calendar (Nextcloud, Radicale, Fastmail, iCloud...)."),
            discussion: Output.l.tr(
                """
                Appointments made on the phone or the web calendar appear in beautyd with their reminders, and \
                those made with beautyctl appear there. beautyd syncs at the interval of [sync] in config.toml \
                (15 minutes by default) and right after local changes. If both sides changed an event, the \
                server's version wins and the local one is kept as a conflict copy ('sync status' lists it). \
                Medications, doses and other records stay on this machine, unless you ask for your doses on \
                the phone (sync add --doses, sync doses).
                Examples:
                  beautyctl sync add phone --url https://cloud.example.org/remote.php/dav --user anna --password-file ~/.config/beautyd/nextcloud.pw
                  beautyctl sync add home --url http://localhost:5232/anna/ --user anna --password-file ~/.radicale.pw --calendar Beauty
                  beautyctl sync now
                  beautyctl sync status phone
                """),
            subcommands: [
                SyncAddCommand.self, SyncListCommand.self, SyncStatusCommand.self, SyncNowCommand.self,
                SyncRemoveCommand.self,
                SyncTrashCommand.self, SyncRestoreDeletedCommand.self, SyncDosesCommand.self,
            ])
    }
}

struct SyncAddCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "add",
            abstract: Output.l.tr("Follow a CalDAV calendar."),
            discussion: Output.l.tr(
                """
                --url is the calendar's own URL, or the server's base URL: then beautyd finds your calendars \
                (/.well-known/caldav, current-user-principal, calendar-home-set); with several, choose one with \
                --calendar (its name or URL), or make one with --create. The password file must be readable by you \
                alone (chmod 600); use an app password where the provider has them (iCloud, Fastmail, mailbox.org). \
                Plain http:// is refused except to this machine, unless --insecure. When discovery leads to another \
                host (iCloud keeps calendars on hosts such as p42-caldav.icloud.com), nothing is sent there and \
                sync add names it: add the account again with --trust-host HOST to follow it over https; the account \
                then signs in to that host alone. The first account also receives every appointment already stored.
                --doses also puts your coming doses on the server as tasks, in a task list of their own ("Medications" \
                in your language, or the one --doses-list names), which the phone's task app (Tasks.org or jtx Board \
                with DAVx5, Reminders with a CalDAV account on the iPhone) shows with an alarm: ticking one there \
                records the dose as taken, cancelling or deleting a due one as skipped. The tasks carry each \
                medication's name and dose to the server; with --private-doses they say only "Dose" and the time. \
                iCloud is refused for doses: its Reminders app no longer uses CalDAV.
                Examples:
                  beautyctl sync add phone --url https://cloud.example.org/remote.php/dav --user anna --password-file ~/.nextcloud.pw
                  beautyctl sync add fastmail --url https://caldav.fastmail.com/dav/ --user anna@fastmail.com --password-file ~/.fm.pw --calendar Personal
                  beautyctl sync add home --url http://localhost:5232/anna/ --user anna --password-file ~/.radicale.pw --create Beauty
                  secret-tool store --label beautyd service beautyd account icloud user anna@icloud.com origin https://caldav.icloud.com
                  beautyctl sync add icloud --url https://caldav.icloud.com/ --user anna@icloud.com --keyring
                  beautyctl sync add phone --url https://cloud.example.org/remote.php/dav --user anna --password-file ~/.nextcloud.pw --doses
                  beautyctl sync add home --url http://localhost:5232/anna/ --user anna --password-file ~/.radicale.pw --doses-list Leki --private-doses
                """))
    }
    @Argument(help: ArgumentHelp(Output.l.tr("A name for the account."), valueName: "name")) var name: String
    @Option(help: ArgumentHelp(Output.l.tr("The server's base URL or the calendar's URL."), valueName: "url")) var url:
        String
    @Option(help: ArgumentHelp(Output.l.tr("The user name."), valueName: "user")) var user: String
    @Option(help: ArgumentHelp(Output.l.tr("A file readable by you alone holding the password."), valueName: "file"))
    var passwordFile: String?
    @Flag(
        help: ArgumentHelp(
            Output.l.tr(
                "Take the password from the desktop's keyring (Secret Service), stored with: secret-tool store --label beautyd service beautyd account NAME user USER origin https://HOST"
            )))
    var keyring = false
    @Option(
        help: ArgumentHelp(Output.l.tr("Which calendar to follow: its display name or URL."), valueName: "name|url"))
    var calendar: String?
    @Option(help: ArgumentHelp(Output.l.tr("Create a calendar with this name and follow it."), valueName: "name"))
    var create: String?
    @Flag(help: ArgumentHelp(Output.l.tr("Allow plain HTTP to another machine (the password travels readable).")))
    var insecure = false
    @Option(
        help: ArgumentHelp(
            Output.l.tr(
                "Follow discovery to this other host (as sync add names it), over https; the account then signs in there alone."
            ),
            valueName: "host")) var trustHost: String?
    @Flag(
        help: ArgumentHelp(
            Output.l.tr(
                "Also put the coming doses on the server as tasks for the phone's task app (medication names leave this machine)."
            )))
    var doses = false
    @Option(
        help: ArgumentHelp(
            Output.l.tr("The task list for the doses, its name or URL (default: a new list; implies --doses)."),
            valueName: "name|url"))
    var dosesList: String?
    @Flag(
        help: ArgumentHelp(
            Output.l.tr("The dose tasks say only \"Dose\" and the time, never the medication (implies --doses).")))
    var privateDoses = false
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if calendar != nil, create != nil { throw ValidationError(Output.l.tr("--calendar and --create: choose one")) }
        if (passwordFile == nil) == !keyring {
            throw ValidationError(Output.l.tr("give --password-file FILE or --keyring"))
        }
    }

    func run() throws {
        var client = global.client
        let params = SyncAddParams(
            name: name, url: url, user: user, passwordFile: passwordFile.map(BackupInput.absolute),
            keyring: keyring ? true : nil, calendar: calendar, create: create, insecure: insecure ? true : nil,
            trustHost: trustHost, doses: doses ? true : nil, dosesList: dosesList,
            privateDoses: privateDoses ? true : nil)
        let account = try client.call(SyncRPC.add, params, waiting: true)
        if output.json { return try Output.json(account) }
        Output.line(
            Output.l.tr(
                "Added sync account '%s': calendar %s.", account.name,
                "\(account.calendarName.map { "\"\($0)\" " } ?? "")\(account.calendarURL)"))
        SyncDosesCommand.describe(account)
        Output.line(Output.l.tr("It syncs in the background; 'beautyctl sync now %s' syncs at once.", account.name))
    }
}

struct SyncListCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "list", abstract: Output.l.tr("List the sync accounts."),
            discussion: Output.l.tr("Example:\n  beautyctl sync list --json"))
    }
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        var client = global.client
        let result = try client.call(SyncRPC.list)
        if output.json { return try Output.json(result) }
        if result.accounts.isEmpty {
            return Output.line(
                Output.l.tr(
                    "No sync accounts. Add one with 'beautyctl sync add NAME --url URL --user USER --password-file FILE'."
                ))
        }
        Output.table(
            [
                Output.l.tr("NAME"), Output.l.tr("CALENDAR"), Output.l.tr("URL"), Output.l.tr("USER"),
                Output.l.tr("LAST SYNC"),
            ],
            result.accounts.map {
                [
                    $0.name, $0.calendarName ?? "", $0.calendarURL, $0.user,
                    $0.lastSyncAt.map(Output.instant) ?? Output.l.tr("never"),
                ]
            })
    }
}

struct SyncStatusCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "status",
            abstract: Output.l.tr("Show the last sync, pending local changes, conflicts and the last error."),
            discussion: Output.l.tr(
                """
                A conflict is an event changed on both sides between two syncs: the server's version is the one \
                in your calendar now, and the local version is kept here as iCalendar text (see it with --json; \
                'beautyctl import' takes it back).
                Examples:
                  beautyctl sync status
                  beautyctl sync status phone --json
                """))
    }
    @Argument(help: ArgumentHelp(Output.l.tr("One account (default: all)."), valueName: "name")) var name: String?
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        var client = global.client
        let result = try client.call(SyncRPC.status, SyncNameParams(name: name))
        if output.json { return try Output.json(result) }
        if result.accounts.isEmpty { return Output.line(Output.l.tr("No sync accounts.")) }
        for (index, a) in result.accounts.enumerated() {
            if index > 0 { Output.line() }
            Output.line("\(a.name): \(a.calendarName.map { "\"\($0)\" " } ?? "")\(a.calendarURL)")
            let last = a.lastSyncAt.map(Output.instant) ?? Output.l.tr("never")
            Output.line(
                a.incremental
                    ? Output.l.tr("  last sync:       %s (incremental: sync-collection)", last)
                    : Output.l.tr("  last sync:       %s (CTag and ETags)", last))
            Output.line(Output.l.tr("  pending changes: %s", a.pending))
            if let doses = a.doses {
                let list = "\(doses.listName.map { "\"\($0)\" " } ?? "")\(doses.listURL)"
                Output.line(
                    doses.private
                        ? Output.l.tr("  doses:           task list %s, private (\"Dose\" and the time)", list)
                        : Output.l.tr("  doses:           task list %s, with the medication names", list))
                if let open = doses.openDoses {
                    Output.line(
                        Output.l.tr(
                            "  doses open:      %s (the list is read every [sync] doses_poll while one is)", open))
                }
                if let last = doses.lastPollAt {
                    Output.line(Output.l.tr("  doses read:      %s", Output.instant(last)))
                }
                if let next = doses.nextRunAt {
                    Output.line(Output.l.tr("  doses next:      %s", Output.instant(next)))
                }
                if let error = StatusCommand.shown(doses.lastError, doses.lastErrorText) {
                    Output.line(Output.l.tr("  doses error:     %s", Validation.quotable(error)))
                }
                for report in doses.reports ?? [] {
                    Output.line(
                        "    \(Output.instant(report.detectedAt))  \(Validation.quotable(report.text.rendered(Output.l)))"
                    )
                }
                if doses.paused {
                    Output.line(
                        Output.l.tr(
                            "  doses paused:    the task list lost its tasks or is gone; 'beautyctl sync now %s --allow-deletions' applies what it says, 'beautyctl sync doses %s on' makes a new list",
                            a.name, a.name))
                }
            }
            if let error = StatusCommand.shown(a.lastError, a.lastErrorText) {
                Output.line(Output.l.tr("  last error:      %s", error))
            }
            if let next = a.nextAttemptAt { Output.line(Output.l.tr("  next attempt:    %s", Output.instant(next))) }
            for warning in a.warnings ?? [] {
                Output.line(Output.l.tr("  warning:         %s", Validation.quotable(warning.rendered(Output.l))))
            }
            Output.line(Output.l.tr("  conflicts:       %s", a.conflicts.count))
            // A reason is one of beautyd's msgids, in English on the wire.
            for c in a.conflicts {
                Output.line(
                    "    \(Output.instant(c.detectedAt))  \(Validation.quotable(c.title))  (\(Validation.quotable(c.uid))): \(Validation.quotable(Output.l.trArray(c.reason, [])))"
                )
            }
        }
    }
}

struct SyncNowCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "now", abstract: Output.l.tr("Sync now and wait for the result."),
            discussion: Output.l.tr(
                """
                Syncs one account (default: all) at once, whatever the back-off after failures. --json prints \
                the totals (requests, bytesSent, bytesReceived, seconds, fetched, pushed, removed, conflicts) and \
                each account's report.
                Examples:
                  beautyctl sync now
                  beautyctl sync now phone --json
                """))
    }
    @Argument(help: ArgumentHelp(Output.l.tr("One account (default: all)."), valueName: "name")) var name: String?
    @Flag(
        help: ArgumentHelp(
            Output.l.tr(
                """
                Apply the server's deletions even when there are so many that they are held back: all of an \
                account's appointments, or more than max_deletion_share of them ([sync] in config.toml, half by \
                default) and more than 5. 'sync status' says when that happened; removed appointments stay in \
                'beautyctl sync trash' for 30 days.
                """)))
    var allowDeletions = false
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        var client = global.client
        let result = try client.call(
            SyncRPC.now, SyncNowParams(name: name, allowDeletions: allowDeletions ? true : nil), waiting: true)
        if output.json {
            try Output.json(result)
        } else {
            if result.accounts.isEmpty { Output.line(Output.l.tr("No sync accounts.")) }
            for r in result.accounts {
                if let error = StatusCommand.shown(r.error, r.errorText) {
                    Output.line(Output.l.tr("%s: failed: %s", r.account, error)); continue
                }
                Output.line(
                    Output.l.tr(
                        "%s: %s fetched, %s sent, %s removed, %s conflict(s); %s requests, %s bytes, %s s",
                        r.account, r.fetched, r.pushed, r.removed, r.conflicts, r.requests,
                        Output.numbers.integer(r.bytesSent + r.bytesReceived),
                        Output.numbers.decimal(r.seconds, digits: 2)))
                for warning in r.warnings ?? [] {
                    Output.line(
                        Output.l.tr("%s: warning: %s", r.account, Validation.quotable(warning.rendered(Output.l))))
                }
                if let doses = r.doses {
                    Output.line(
                        StatusCommand.shown(doses.error, doses.errorText).map {
                            Output.l.tr("%s: doses failed: %s", r.account, Validation.quotable($0))
                        }
                            ?? Output.l.tr(
                                "%s: doses: %s read, %s written, %s answered on the phone; %s requests", r.account,
                                doses.read, doses.created + doses.written + doses.deleted + doses.putBack,
                                doses.phoneAnswers, doses.requests))
                }
            }
        }
        if let failed = result.accounts.first(where: { $0.error != nil }) {
            throw CLIFailure(
                .refused,
                Output.l.tr(
                    "sync of %s failed: %s", failed.account, StatusCommand.shown(failed.error, failed.errorText) ?? ""))
        }
    }
}

struct SyncRemoveCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "rm",
            abstract: Output.l.tr("Stop syncing an account (its appointments stay here and on the server)."),
            discussion: Output.l.tr("Example:\n  beautyctl sync rm phone"))
    }
    @Argument(help: ArgumentHelp(Output.l.tr("The account."), valueName: "name")) var name: String
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        var client = global.client
        let result = try client.call(SyncRPC.remove, SyncRemoveParams(name: name))
        if output.json { return try Output.json(result) }
        Output.line(Output.l.tr("Removed sync account '%s'; its appointments stay.", result.name))
    }
}

struct SyncTrashCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "trash",
            abstract: Output.l.tr("List the appointments syncs removed (deleted on the server) in the last 30 days."),
            discussion: Output.l.tr(
                """
                Every appointment a sync removes because the server no longer has it is kept here for 30 days, \
                with its reminders, whoever made it. 'beautyctl sync restore-deleted ID' brings one back (and \
                sends it to the server again); --json also prints each one as iCalendar text.
                Examples:
                  beautyctl sync trash
                  beautyctl sync trash phone --json
                  beautyctl sync restore-deleted 3
                """))
    }
    @Argument(help: ArgumentHelp(Output.l.tr("One account (default: all)."), valueName: "name")) var name: String?
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        var client = global.client
        let result = try client.call(SyncRPC.trash, SyncNameParams(name: name))
        if output.json { return try Output.json(result) }
        if result.entries.isEmpty {
            return Output.line(Output.l.tr("No appointments removed by syncs in the last 30 days."))
        }
        Output.table(
            [
                Output.l.tr("ID"), Output.l.tr("ACCOUNT"), Output.l.tr("REMOVED"), Output.l.tr("START"),
                Output.l.tr("TITLE"),
            ],
            result.entries.map {
                [
                    String($0.id), $0.account, Output.instant($0.removedAt), Output.instant($0.start),
                    Validation.quotable($0.title),
                ]
            })
    }
}

struct SyncRestoreDeletedCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "restore-deleted", abstract: Output.l.tr("Bring back an appointment a sync removed."),
            discussion: Output.l.tr(
                """
                ID is the number 'beautyctl sync trash' shows. The appointment comes back with its reminders \
                and goes to the server again at the next sync.
                Example:
                  beautyctl sync restore-deleted 3
                """))
    }
    @Argument(help: ArgumentHelp(Output.l.tr("The number 'beautyctl sync trash' shows."), valueName: "id")) var id:
        Int64
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        var client = global.client
        let result = try client.call(SyncRPC.restoreDeleted, SyncRestoreDeletedParams(id: id))
        if output.json { return try Output.json(result) }
        Output.line(
            Output.l.tr(
                "Restored '%s' (%s); it goes to the server at the next sync.", Validation.quotable(result.title),
                Validation.quotable(result.uid)))
    }
}

struct SyncDosesCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "doses",
            abstract: Output.l.tr(
                "Put your doses on the phone through an account's server, or stop; name them or not."),
            discussion: Output.l.tr(
                """
                on: the coming doses (the next 7 days, [sync] doses_days) go to the server as tasks, one per dose \
                with an alarm at its time, in a task list of their own: a new one named "Medications" in your \
                language, or the one --list names. The phone's task app shows them; ticking one there records the \
                dose as taken at the phone's time, cancelling it (or deleting it once due) as skipped, and an \
                answer here marks the task done on the server. While a dose is due and unanswered beautyd reads \
                the list every minute ([sync] doses_poll), otherwise not at all. After the list was deleted on the \
                server (sync status says dose sync is paused), on makes a new one.
                off: no more writing or reading; the tasks already on the server stay.
                named (the default): each task names the medication and its dose, so those names leave this \
                machine for the server. private: the tasks say only "Dose" and the time; every task beautyd wrote \
                is rewritten without the name.
                Examples:
                  beautyctl sync doses phone on
                  beautyctl sync doses phone on --list Leki
                  beautyctl sync doses phone private
                  beautyctl sync doses phone off
                """))
    }
    @Argument(help: ArgumentHelp(Output.l.tr("The account."), valueName: "name")) var name: String
    @Argument(help: ArgumentHelp(Output.l.tr("on, off, private or named."), valueName: "on|off|private|named"))
    var mode: DoseSyncMode
    @Option(
        help: ArgumentHelp(
            Output.l.tr("With on: the task list to use, its name or URL (default: a new list)."),
            valueName: "name|url"))
    var list: String?
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if list != nil, mode != .on { throw ValidationError(Output.l.tr("--list goes with on")) }
    }

    func run() throws {
        var client = global.client
        let account = try client.call(
            SyncRPC.doses, SyncDosesParams(name: name, mode: mode, list: list), waiting: mode == .on)
        if output.json { return try Output.json(account) }
        guard account.doses != nil else {
            return Output.line(
                Output.l.tr(
                    "Doses no longer go to the server of '%s'; the tasks already there stay.", account.name))
        }
        Self.describe(account)
    }

    /// Where an account's doses go and what leaves the machine with them; nothing without doses.
    static func describe(_ account: SyncAccountInfo) {
        guard let doses = account.doses else { return }
        let list = "\(doses.listName.map { "\"\($0)\" " } ?? "")\(doses.listURL)"
        Output.line(Output.l.tr("Doses go to the task list %s.", list))
        Output.line(
            doses.private
                ? Output.l.tr("The tasks say only \"Dose\" and the time: no medication name leaves this machine.")
                : Output.l.tr(
                    "The tasks name each medication and its dose: those names leave this machine for the server (private mode hides them: beautyctl sync doses %s private).",
                    account.name))
    }
}

extension DoseSyncMode: ExpressibleByArgument {}
