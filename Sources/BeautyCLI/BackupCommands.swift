import ArgumentParser
import BeautyCore
import BeautyProtocol
import Foundation

enum BackupInput {
    /// FILE as an absolute path: the daemon reads and writes it, from its own working directory.
    static func absolute(_ file: String) -> String {
        let path = file.hasPrefix("/") ? file : FileManager.default.currentDirectoryPath + "/" + file
        // Lexically only: resolving symlinks here would hand the daemon a link's target.
        return URL(fileURLWithPath: path).standardized.path
    }
}

struct BackupCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "backup",
            abstract: Output.l.tr("Copy the whole database to a file while beautyd runs (readable by you alone)."),
            discussion: Output.l.tr(
                """
                The copy is consistent (SQLite's online backup): changes made meanwhile are either all in it or \
                not at all. beautyd writes the file, so it must be somewhere beautyd may write; an existing file \
                is replaced only once you say so (asked on a terminal, or --yes). Put it back with 'beautyctl restore FILE'.
                Example:
                  beautyctl backup ~/beautyd-2026-12-01.sqlite
                """))
    }
    @Argument(help: ArgumentHelp(Output.l.tr("The file to write."), valueName: "file")) var file: String
    @Flag(name: [.short, .long], help: ArgumentHelp(Output.l.tr("Replace an existing file without asking."))) var yes =
        false
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let path = BackupInput.absolute(file)
        var status = stat()
        // Only a regular file can be replaced; anything else there beautyd refuses, so asking would mislead.
        if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            try !Input.confirm(Output.l.tr("Replace the existing file %s with the backup?", path), yes: yes)
        {
            return Output.line(Output.l.tr("Nothing was backed up."))
        }
        var client = global.client
        let result = try client.call(BackupRPC.backup, BackupParams(path: path))
        if output.json { return try Output.json(result) }
        // The schema step by its version ("v8-sync"): the words after it are a developer's English.
        Output.line(
            Output.l.tr(
                "Backed up the database to %s (%s bytes, schema \"%s\").", result.path,
                Output.numbers.integer(Int(result.bytes)),
                result.schema.prefix { $0 != ":" }))
    }
}

struct RestoreCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "restore",
            abstract: Output.l.tr("Replace the whole database with a backup (asks first on a terminal)."),
            discussion: Output.l.tr(
                """
                The file must be a regular file of yours, with no -wal, -shm or -journal beside it of another \
                user's; a beautyd database that passes SQLite's integrity_check and was not written by a newer \
                beautyd (an older one is brought up to date). Triggers, views and tables beautyd did not make are \
                left out; sync accounts it brings are listed and stay paused until you run 'beautyctl sync now \
                NAME'. The database it replaces is kept beside it (beautyd.sqlite.before-restore-<date>-<time>, \
                never overwritten). Reminders are planned again from the restored records; one already shown is \
                not shown again.
                Example:
                  beautyctl restore ~/beautyd-2026-12-01.sqlite
                """))
    }
    @Argument(help: ArgumentHelp(Output.l.tr("The backup to restore."), valueName: "file")) var file: String
    @Flag(name: [.short, .long], help: ArgumentHelp(Output.l.tr("Do not ask for confirmation."))) var yes = false
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let path = BackupInput.absolute(file)
        guard FileManager.default.fileExists(atPath: path) else {
            throw CLIFailure(.usage, Output.l.tr("file: there is no file %s", path))
        }
        guard
            try Input.confirm(
                Output.l.tr("Replace every appointment, medication and record with those of %s?", path), yes: yes)
        else {
            return Output.line(Output.l.tr("Nothing was restored."))
        }
        var client = global.client
        let result = try client.call(BackupRPC.restore, BackupParams(path: path))
        if output.json { return try Output.json(result) }
        Output.line(
            Output.l.tr("Restored the database from %s; the one it replaced is kept as %s.", result.path, result.kept))
        if result.deliveriesKept > 0 {
            Output.line(Output.l.tr("%s reminder(s) shown since that backup stay shown.", result.deliveriesKept))
        }
        for account in result.syncAccounts {
            Output.line(
                Output.l.tr(
                    "Sync account %s (%s, user %s) came with the backup: paused until you run 'beautyctl sync now %s'.",
                    Validation.quotable(account.name), Validation.quotable(account.calendarURL),
                    Validation.quotable(account.user), Validation.quotable(account.name)))
        }
        if !result.leftOut.isEmpty {
            Output.line(
                Output.l.tr(
                    "Left out of the backup, not beautyd's own: %s.",
                    result.leftOut.map(Validation.quotable).joined(separator: ", ")))
        }
    }
}
