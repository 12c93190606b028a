import BeautyCore
import Foundation

/// `sync.add`: follow a CalDAV calendar. `url` is the calendar's own URL or the server's base URL
/// (then discovery finds the user's calendars: `calendar` names one, or `create` makes one).
public struct SyncAddParams: Codable, Sendable {
    public var name: String
    public var url: String
    public var user: String
    /// A file only its owner may read, holding the password (an app password for iCloud, Fastmail...).
    public var passwordFile: String?
    /// Take the password from the desktop's Secret Service instead (stored with
    /// `secret-tool store --label beautyd service beautyd account NAME user USER origin ORIGIN`).
    public var keyring: Bool?
    /// The display name or URL of the calendar to follow, when discovery finds several.
    public var calendar: String?
    /// Create a calendar with this display name and follow it.
    public var create: String?
    /// Allow plain HTTP to a host other than loopback.
    public var insecure: Bool?
    /// The host (`host` or `host:port`) discovery may lead to, over https: the account then lives there.
    public var trustHost: String?
    /// Doses go to the server as tasks (VTODO) in a task list of their own, made in the calendar home
    /// (named "Medications" in the user's language), which the phone's task app shows with alarms.
    public var doses: Bool?
    /// The task list to use instead of making one: its display name or URL (implies `doses`).
    public var dosesList: String?
    /// The tasks say "Dose" and the time, never the medication (implies `doses`).
    public var privateDoses: Bool?

    public init(
        name: String, url: String, user: String, passwordFile: String?, keyring: Bool? = nil, calendar: String? = nil,
        create: String? = nil, insecure: Bool? = nil, trustHost: String? = nil, doses: Bool? = nil,
        dosesList: String? = nil, privateDoses: Bool? = nil
    ) {
        self.name = name; self.url = url; self.user = user; self.passwordFile = passwordFile; self.keyring = keyring
        self.calendar = calendar; self.create = create; self.insecure = insecure; self.trustHost = trustHost
        self.doses = doses; self.dosesList = dosesList; self.privateDoses = privateDoses
    }

    /// Whether the account is to carry doses: asked for, or implied by a list or private mode.
    public var wantsDoses: Bool { doses == true || dosesList != nil || privateDoses == true }
}

/// What `sync.doses` does to an account's doses on the server.
public enum DoseSyncMode: String, Codable, Sendable, CaseIterable {
    /// Doses go to the account's task list; one is made (or chosen with `list`) when the account has
    /// none, or after its list was lost (dose sync paused).
    case on
    /// No more writing or polling; the tasks already on the server stay.
    case off
    /// The tasks say "Dose" and the time; every task beautyd wrote is rewritten without the name.
    case `private`
    /// The tasks name the medication and its dose (the default).
    case named
}

/// `sync.doses`.
public struct SyncDosesParams: Codable, Sendable {
    public var name: String
    public var mode: DoseSyncMode
    /// With `on`: the task list to use, its display name or URL (default: one beautyd makes).
    public var list: String?
    public init(name: String, mode: DoseSyncMode, list: String? = nil) {
        self.name = name; self.mode = mode; self.list = list
    }
}

/// `sync.status`, `sync.trash`: one account, or every account when `name` is missing.
public struct SyncNameParams: Codable, Sendable {
    public var name: String?
    public init(name: String? = nil) { self.name = name }
}

/// `sync.now`: one account, or every account when `name` is missing.
public struct SyncNowParams: Codable, Sendable {
    public var name: String?
    /// Apply the pull's deletions even when there are so many that they are held back.
    public var allowDeletions: Bool?
    public init(name: String? = nil, allowDeletions: Bool? = nil) {
        self.name = name; self.allowDeletions = allowDeletions
    }
}

/// An appointment a pull removed (deleted on the server), recoverable for 30 days.
public struct SyncTrashInfo: Codable, Sendable, Equatable {
    public var id: Int64
    public var account: String
    public var uid: String
    public var title: String
    public var start: Date
    public var removedAt: Date
    /// The appointment as it was here, with its reminders.
    public var ics: String
    public init(id: Int64, account: String, uid: String, title: String, start: Date, removedAt: Date, ics: String) {
        self.id = id; self.account = account; self.uid = uid; self.title = title; self.start = start;
        self.removedAt = removedAt; self.ics = ics
    }
}

public struct SyncTrashResult: Codable, Sendable {
    public var entries: [SyncTrashInfo]
    public init(entries: [SyncTrashInfo]) { self.entries = entries }
}

/// `sync.restoreDeleted`: bring back an appointment of `sync.trash` (it goes to the server again).
public struct SyncRestoreDeletedParams: Codable, Sendable {
    public var id: Int64
    public init(id: Int64) { self.id = id }
}

public struct SyncRestoreDeletedResult: Codable, Sendable {
    /// The appointments restored (a series with its changed occurrences counts each).
    public var restored: Int
    public var uid: String
    public var title: String
    public init(restored: Int, uid: String, title: String) {
        self.restored = restored; self.uid = uid; self.title = title
    }
}

/// `sync.rm`.
public struct SyncRemoveParams: Codable, Sendable {
    public var name: String
    public init(name: String) { self.name = name }
}

/// A local version that lost to the server's: kept as iCalendar text (`ics`, nil for a deletion).
public struct SyncConflictInfo: Codable, Sendable, Equatable {
    public var id: Int64
    public var uid: String
    public var title: String
    public var reason: String
    public var detectedAt: Date
    public var ics: String?
    public init(id: Int64, uid: String, title: String, reason: String, detectedAt: Date, ics: String?) {
        self.id = id; self.uid = uid; self.title = title; self.reason = reason; self.detectedAt = detectedAt;
        self.ics = ics
    }
}

/// One followed calendar and where its sync stands.
public struct SyncAccountInfo: Codable, Sendable, Equatable {
    public var name: String
    public var url: String
    public var user: String
    public var passwordFile: String?
    public var calendarURL: String
    public var calendarName: String?
    public var insecure: Bool
    /// The server offers sync-collection (RFC 6578): only changes are listed.
    public var incremental: Bool
    public var lastSyncAt: Date?
    public var lastError: String?
    /// `lastError` as a template, for a client to show in its user's language (when this run of beautyd recorded it).
    public var lastErrorText: TranslatableText?
    /// After failures: no automatic attempt before this.
    public var nextAttemptAt: Date?
    /// Local changes waiting to go to the server.
    public var pending: Int
    public var conflicts: [SyncConflictInfo]
    /// What the last sync left aside and why: hrefs outside the calendar, deletions held back.
    public var warnings: [TranslatableText]?
    /// Where the account's doses go as tasks; nil: they do not.
    public var doses: SyncDosesInfo?

    public init(
        name: String, url: String, user: String, passwordFile: String?, calendarURL: String, calendarName: String?,
        insecure: Bool, incremental: Bool, lastSyncAt: Date?, lastError: String?, nextAttemptAt: Date?,
        pending: Int, conflicts: [SyncConflictInfo]
    ) {
        self.name = name; self.url = url; self.user = user; self.passwordFile = passwordFile
        self.calendarURL = calendarURL; self.calendarName = calendarName; self.insecure = insecure
        self.incremental = incremental; self.lastSyncAt = lastSyncAt; self.lastError = lastError
        self.nextAttemptAt = nextAttemptAt; self.pending = pending; self.conflicts = conflicts
    }
}

/// An account's doses on the server: the task list and how the tasks read.
public struct SyncDosesInfo: Codable, Sendable, Equatable {
    public var listURL: String
    public var listName: String?
    /// The tasks say "Dose" and the time, never the medication.
    public var `private`: Bool
    /// Nothing is written or read: the list was lost, or too many tasks vanished from it at once.
    public var paused: Bool
    /// Doses due and unanswered whose task is on the server: while there is one, the list is read
    /// every `[sync] doses_poll`.
    public var openDoses: Int?
    public var lastPollAt: Date?
    /// When beautyd next reads or writes the list by itself; nil: nothing pending, no timer.
    public var nextRunAt: Date?
    /// Why the last run failed or what went wrong in it (nil: nothing did), in English.
    public var lastError: String?
    /// `lastError` as a message to translate (nil for a library's own words).
    public var lastErrorText: TranslatableText?
    /// What the last run did (since beautyd started).
    public var lastRun: SyncDosesReport?
    /// Answers that gave way and tasks put back, the last 30 days, the latest first.
    public var reports: [SyncDoseReportInfo]?

    public init(listURL: String, listName: String?, private: Bool, paused: Bool) {
        self.listURL = listURL; self.listName = listName; self.private = `private`; self.paused = paused
    }
}

/// What one run over an account's dose list did and cost.
public struct SyncDosesReport: Codable, Sendable, Equatable {
    public var requests = 0
    /// Whether the list was read (a poll), or only written to.
    public var polled = false
    /// Tasks read because they changed on the server (a phone's tick, cancel or deletion).
    public var read = 0
    public var created = 0
    /// Rewrites, desktop answers and missed closes written.
    public var written = 0
    public var deleted = 0
    /// Tasks deleted on the phone before their dose was due, written again.
    public var putBack = 0
    /// Answers made on the phone and recorded here (taken, skipped).
    public var phoneAnswers = 0
    /// Lines this run added to the account's `reports`.
    public var reports = 0
    /// The deletion guard held the poll back: dose sync is paused for the account.
    public var paused = false
    /// Why the run failed (nil: it succeeded), in English.
    public var error: String?
    /// `error` as a message to translate (nil for a library's own words).
    public var errorText: TranslatableText?

    public init() {}
}

/// Why a line is in an account's dose `reports`.
public enum SyncDoseReportKind: String, Codable, Sendable, CaseIterable {
    /// The phone answered after the desktop: the desktop's answer stands.
    case phoneOverruled
    /// The desktop answered after the phone: the phone's answer stands.
    case desktopOverruled
    /// The phone re-opened a task beautyd had answered: beautyd's answer was written back.
    case phoneReopened
    /// The task was deleted on the phone before its dose was due, and put back.
    case putBack
}

/// An answer to a dose as a report names it.
public enum SyncDoseAnswer: String, Codable, Sendable, CaseIterable {
    case taken, skipped, missed
}

/// One line of an account's dose reports: nothing is lost when both sides answered.
public struct SyncDoseReportInfo: Codable, Sendable, Equatable {
    public var kind: SyncDoseReportKind
    public var uid: String
    public var medicationID: Int64
    /// Nil when the medication was removed since.
    public var medication: String?
    public var scheduledAt: Date
    /// The answer that gave way, and when it was made.
    public var answer: SyncDoseAnswer?
    public var answeredAt: Date?
    public var detectedAt: Date
    /// The line as `sync status` shows it, as a template for the client's language.
    public var text: TranslatableText

    public init(
        kind: SyncDoseReportKind, uid: String, medicationID: Int64, medication: String?, scheduledAt: Date,
        answer: SyncDoseAnswer?, answeredAt: Date?, detectedAt: Date, text: TranslatableText
    ) {
        self.kind = kind; self.uid = uid; self.medicationID = medicationID; self.medication = medication
        self.scheduledAt = scheduledAt; self.answer = answer; self.answeredAt = answeredAt
        self.detectedAt = detectedAt; self.text = text
    }
}

public struct SyncAccountsResult: Codable, Sendable {
    public var accounts: [SyncAccountInfo]
    public init(accounts: [SyncAccountInfo]) { self.accounts = accounts }
}

/// What one sync of one account did and cost.
public struct SyncReport: Codable, Sendable, Equatable {
    public var account: String
    public var requests = 0
    public var bytesSent = 0
    public var bytesReceived = 0
    public var seconds = 0.0
    /// Events fetched from the server.
    public var fetched = 0
    /// Local changes sent (creations, changes, deletions).
    public var pushed = 0
    /// Events deleted here because they were deleted on the server.
    public var removed = 0
    public var conflicts = 0
    /// Deletions the server's listing asked for and this sync held back (too many; see `sync.now`'s `allowDeletions`).
    public var heldBack: Int?
    /// What this sync left aside and why.
    public var warnings: [TranslatableText]?
    /// Why the sync failed (nil: it succeeded).
    public var error: String?
    /// `error` as a template, for a client to show in its user's language.
    public var errorText: TranslatableText?
    /// The run over the account's dose list, when its doses are on.
    public var doses: SyncDosesReport?

    public init(account: String) { self.account = account }
}

/// `sync.now`: the totals over the accounts synced, and each account's report.
public struct SyncNowResult: Codable, Sendable {
    public var requests: Int
    public var bytesSent: Int
    public var bytesReceived: Int
    public var seconds: Double
    public var fetched: Int
    public var pushed: Int
    public var removed: Int
    public var conflicts: Int
    public var accounts: [SyncReport]

    public init(accounts: [SyncReport]) {
        self.accounts = accounts
        requests = accounts.reduce(0) { $0 + $1.requests }
        bytesSent = accounts.reduce(0) { $0 + $1.bytesSent }
        bytesReceived = accounts.reduce(0) { $0 + $1.bytesReceived }
        seconds = accounts.reduce(0) { $0 + $1.seconds }
        fetched = accounts.reduce(0) { $0 + $1.fetched }
        pushed = accounts.reduce(0) { $0 + $1.pushed }
        removed = accounts.reduce(0) { $0 + $1.removed }
        conflicts = accounts.reduce(0) { $0 + $1.conflicts }
    }
}

public struct SyncRemoveResult: Codable, Sendable {
    public var name: String
    public init(name: String) { self.name = name }
}

public enum SyncRPC {
    public static let add = RPC<SyncAddParams, SyncAccountInfo>("sync.add")
    public static let list = RPC<NoParams, SyncAccountsResult>("sync.list")
    public static let status = RPC<SyncNameParams, SyncAccountsResult>("sync.status")
    public static let now = RPC<SyncNowParams, SyncNowResult>("sync.now")
    public static let remove = RPC<SyncRemoveParams, SyncRemoveResult>("sync.rm")
    public static let trash = RPC<SyncNameParams, SyncTrashResult>("sync.trash")
    public static let restoreDeleted = RPC<SyncRestoreDeletedParams, SyncRestoreDeletedResult>("sync.restoreDeleted")
    public static let doses = RPC<SyncDosesParams, SyncAccountInfo>("sync.doses")

    static let methods = [
        add.method, list.method, status.method, now.method, remove.method, trash.method, restoreDeleted.method,
        doses.method,
    ]
}
