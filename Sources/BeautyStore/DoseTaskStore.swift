import BeautyCore
import Foundation
import GRDB

/// A dose task beautyd has on an account's task list (docs/PHONE_TASKS.md §10): where it is on the
/// server, the ETag of beautyd's last write or read, and the text beautyd last wrote.
public struct DoseTaskRow: Sendable, Equatable {
    public var account: String
    public var uid: String
    public var href: String
    public var etag: String?
    public var medicationID: Int64
    public var scheduledAt: Date
    /// The VCALENDAR beautyd last wrote (`DoseTaskReading.written` reads it back).
    public var ics: String
    /// beautyd's answer on the task; nil while it is open there.
    public var writtenState: DoseTaskAnswerKind?
    /// beautyd's last write: a phone's time before it is not believed.
    public var writtenAt: Date
    /// The task's CREATED, kept through rewrites.
    public var createdAt: Date
    /// The SEQUENCE of beautyd's last write.
    public var sequence: Int

    public init(
        account: String, uid: String, href: String, etag: String?, medicationID: Int64, scheduledAt: Date,
        ics: String, writtenState: DoseTaskAnswerKind?, writtenAt: Date, createdAt: Date, sequence: Int
    ) {
        self.account = account
        self.uid = uid
        self.href = href
        self.etag = etag
        self.medicationID = medicationID
        self.scheduledAt = scheduledAt
        self.ics = ics
        self.writtenState = writtenState
        self.writtenAt = writtenAt
        self.createdAt = createdAt
        self.sequence = sequence
    }
}

/// Why a dose sync reported a task in `sync status`.
public enum DoseTaskReportKind: String, Sendable, Codable, CaseIterable {
    /// The phone's answer came later than the desktop's and gave way.
    case phoneOverruled
    /// The desktop's answer came later than the phone's and gave way.
    case desktopOverruled
    /// The phone re-opened a task beautyd had answered: beautyd's answer was written back.
    case phoneReopened
    /// The task was deleted on the phone before its dose was due, and put back.
    case putBack
}

/// A line of `sync status` about one dose task, kept `DoseTaskStore.reportDays` days.
public struct DoseTaskReportRow: Sendable, Equatable {
    public var id: Int64?
    public var account: String
    public var uid: String
    public var medicationID: Int64
    /// The medication's name as it is now (nil once it is removed).
    public var medicationName: String?
    public var scheduledAt: Date
    public var kind: DoseTaskReportKind
    /// The answer that gave way (nil for a re-open or a put back).
    public var answer: DoseTaskAnswerKind?
    public var answeredAt: Date?
    public var detectedAt: Date

    public init(
        id: Int64? = nil, account: String, uid: String, medicationID: Int64, medicationName: String? = nil,
        scheduledAt: Date, kind: DoseTaskReportKind, answer: DoseTaskAnswerKind? = nil, answeredAt: Date? = nil,
        detectedAt: Date
    ) {
        self.id = id
        self.account = account
        self.uid = uid
        self.medicationID = medicationID
        self.medicationName = medicationName
        self.scheduledAt = scheduledAt
        self.kind = kind
        self.answer = answer
        self.answeredAt = answeredAt
        self.detectedAt = detectedAt
    }

    /// The line for `sync status`, times in `zone`.
    public func text(zone: TimeZone) -> TranslatableText {
        let dose: TranslatableText.Argument = .plain(medicationName ?? uid)
        let due: TranslatableText.Argument = .plain(Self.minute(scheduledAt, zone))
        let at: TranslatableText.Argument = .plain(answeredAt.map { Self.minute($0, zone) } ?? "-")
        let taken = answer == .taken
        switch kind {
        case .phoneOverruled:
            return taken
                ? TranslatableText(
                    "dose of %s due %s: taken on the phone at %s, after the desktop's answer; the desktop's stands",
                    [dose, due, at])
                : TranslatableText(
                    "dose of %s due %s: skipped on the phone at %s, after the desktop's answer; the desktop's stands",
                    [dose, due, at])
        case .desktopOverruled:
            return taken
                ? TranslatableText(
                    "dose of %s due %s: taken on the desktop at %s, after the phone's answer; the phone's stands",
                    [dose, due, at])
                : TranslatableText(
                    "dose of %s due %s: skipped on the desktop at %s, after the phone's answer; the phone's stands",
                    [dose, due, at])
        case .phoneReopened:
            return TranslatableText(
                "dose of %s due %s: re-opened on the phone; the desktop's answer stands and was written back",
                [dose, due])
        case .putBack:
            return TranslatableText("dose of %s due %s: deleted on the phone before it was due, put back", [dose, due])
        }
    }

    private static func minute(_ date: Date, _ zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!)
    }
}

/// When an account's dose list next needs a look (docs/PHONE_TASKS.md §7), from its tasks.
public struct DoseTaskTimes: Sendable, Equatable {
    /// Tasks whose dose is due, unanswered on the server as beautyd wrote it, and whose late window
    /// has not ended: while there is one, the list is polled every `doses_poll`.
    public var open: Int
    /// The earliest due instant of an unanswered task after now.
    public var nextDue: Date?
    /// The earliest end of a late window of an unanswered task that is due.
    public var nextLateEnd: Date?

    public init(open: Int, nextDue: Date?, nextLateEnd: Date?) {
        self.open = open
        self.nextDue = nextDue
        self.nextLateEnd = nextLateEnd
    }
}

struct DoseTaskRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "doseTask"
    var account: String
    var uid: String
    var href: String
    var etag: String?
    var medicationId: Int64
    var scheduledAt: Date
    var ics: String
    var writtenState: String?
    var writtenAt: Date
    var createdAt: Date
    var sequence: Int

    init(_ row: DoseTaskRow) {
        account = row.account; uid = row.uid; href = row.href; etag = row.etag; medicationId = row.medicationID
        scheduledAt = row.scheduledAt; ics = row.ics; writtenState = row.writtenState?.rawValue
        writtenAt = row.writtenAt; createdAt = row.createdAt; sequence = row.sequence
    }

    var row: DoseTaskRow {
        DoseTaskRow(
            account: account, uid: uid, href: href, etag: etag, medicationID: medicationId, scheduledAt: scheduledAt,
            ics: ics, writtenState: writtenState.flatMap(DoseTaskAnswerKind.init(rawValue:)), writtenAt: writtenAt,
            createdAt: createdAt, sequence: sequence)
    }
}

struct DoseTaskReportRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "doseTaskReport"
    var id: Int64?
    var account: String
    var uid: String
    var medicationId: Int64
    var scheduledAt: Date
    var kind: String
    var answer: String?
    var answeredAt: Date?
    var detectedAt: Date

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// The dose tasks beautyd has on each account's task list, and what dose syncs reported of them
/// (the tables `DoseTaskSchema` makes). The list's own state (URL, sync token, pause) is the
/// account's (`SyncStore.setDoses`).
public struct DoseTaskStore: Sendable {
    let writer: PrioritizedWriter

    /// How long a report stays in `sync status`, as conflict copies do.
    public static let reportDays: Double = 30

    /// The account's tasks, earliest dose first.
    public func tasks(account: String) throws -> [DoseTaskRow] {
        try writer.read { db in
            try DoseTaskRecord.filter(Column("account") == account).order(Column("scheduledAt"), Column("uid"))
                .fetchAll(db).map(\.row)
        }
    }

    public func task(account: String, uid: String) throws -> DoseTaskRow? {
        try writer.read { db in try DoseTaskRecord.fetchOne(db, key: ["account": account, "uid": uid])?.row }
    }

    /// beautyd wrote the task (created, rewritten, answered, put back): the server has `row.ics` under `row.etag`.
    public func recordWritten(_ row: DoseTaskRow) throws {
        try writer.write { db in
            // An href that held another UID before now names this one.
            try db.execute(
                sql: "DELETE FROM doseTask WHERE account = ? AND href = ? AND uid <> ?",
                arguments: [row.account, row.href, row.uid])
            try DoseTaskRecord(row).save(db)
        }
    }

    /// A poll read the task's new ETag (a phone's change, applied or not to be applied): the same
    /// ETag is not read again. What beautyd wrote stays as it was. Given `replacing`, only while the
    /// recorded ETag is still that one (a write since has its own).
    public func recordRead(account: String, uid: String, etag: String?, replacing old: String?? = .none) throws {
        try writer.write { db in
            var sql = "UPDATE doseTask SET etag = ? WHERE account = ? AND uid = ?"
            var arguments: StatementArguments = [etag, account, uid]
            if case .some(let old) = old {
                sql += " AND etag IS ?"
                arguments += [old]
            }
            try db.execute(sql: sql, arguments: arguments)
        }
    }

    /// The task is gone from the server, or no longer beautyd's to write: nothing is written for it again.
    public func forget(account: String, uid: String) throws {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM doseTask WHERE account = ? AND uid = ?", arguments: [account, uid])
        }
    }

    /// When the account's list needs a look: open tasks, the next due instant, the next end of a late window.
    public func times(account: String, now: Date, lateWindow: TimeInterval) throws -> DoseTaskTimes {
        try writer.read { db in
            let unanswered = DoseTaskRecord.filter(Column("account") == account && Column("writtenState") == nil)
            let dueSince = now.addingTimeInterval(-lateWindow)
            let open = try unanswered.filter(Column("scheduledAt") <= now && Column("scheduledAt") > dueSince)
                .fetchCount(db)
            let nextDue = try Date.fetchOne(
                db, unanswered.filter(Column("scheduledAt") > now).select(min(Column("scheduledAt"))))
            let earliestOpen = try Date.fetchOne(
                db,
                unanswered.filter(Column("scheduledAt") <= now && Column("scheduledAt") > dueSince)
                    .select(min(Column("scheduledAt"))))
            return DoseTaskTimes(
                open: open, nextDue: nextDue, nextLateEnd: earliestOpen?.addingTimeInterval(lateWindow))
        }
    }

    /// Keeps a line for `sync status`; reports older than `reportDays` go.
    public func recordReport(_ report: DoseTaskReportRow) throws {
        try writer.write { db in
            try db.execute(
                sql: "DELETE FROM doseTaskReport WHERE detectedAt < ?",
                arguments: [report.detectedAt.addingTimeInterval(-Self.reportDays * 86_400)])
            var record = DoseTaskReportRecord(
                id: nil, account: report.account, uid: report.uid, medicationId: report.medicationID,
                scheduledAt: report.scheduledAt, kind: report.kind.rawValue, answer: report.answer?.rawValue,
                answeredAt: report.answeredAt, detectedAt: report.detectedAt)
            try record.insert(db)
        }
    }

    /// The reports of the last `reportDays` days (of every account when nil), the latest first.
    public func reports(account: String? = nil, now: Date) throws -> [DoseTaskReportRow] {
        try writer.read { db in
            var sql = """
                SELECT r.*, m.name AS medicationName FROM doseTaskReport r LEFT JOIN medication m ON m.id = r.medicationId
                WHERE r.detectedAt >= ?
                """
            var arguments: StatementArguments = [now.addingTimeInterval(-Self.reportDays * 86_400)]
            if let account {
                sql += " AND r.account = ?"
                arguments += [account]
            }
            sql += " ORDER BY r.detectedAt DESC, r.id DESC"
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                DoseTaskReportRow(
                    id: row["id"], account: row["account"], uid: row["uid"], medicationID: row["medicationId"],
                    medicationName: row["medicationName"], scheduledAt: row["scheduledAt"],
                    kind: DoseTaskReportKind(rawValue: row["kind"]) ?? .phoneOverruled,
                    answer: (row["answer"] as String?).flatMap(DoseTaskAnswerKind.init(rawValue:)),
                    answeredAt: row["answeredAt"], detectedAt: row["detectedAt"])
            }
        }
    }
}
