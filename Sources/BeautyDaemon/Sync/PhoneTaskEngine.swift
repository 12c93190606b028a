import BeautyCalDAV
import BeautyCore
import BeautyLocalization
import BeautyStore
import Foundation
import Logging

/// One run of an account's doses on the phone (docs/PHONE_TASKS.md §5-§9), against its task list:
/// a poll (`poll`: sync-collection, else CTag and ETag listing, then one multiget of what changed,
/// each task read by `DoseTaskReading`) and the writes `DoseTaskPlan.reconcile` asks for (create
/// with If-None-Match, rewrite/answer/missed close with If-Match, delete, put back). A write the
/// server refuses because the task changed meanwhile (412) makes the run poll and reconcile again (up to
/// three decisions); a decision that made tasks is followed by one more poll, for a sync token past them.
struct PhoneTaskEngine {
    let database: AppDatabase
    /// A client on the account's dose list (its hrefs lie outside the event calendar).
    let server: any CalendarServer
    let account: SyncAccount
    let answers: any PhoneTaskAnswers
    let zone: TimeZone
    let now: @Sendable () -> Date
    /// `[sync] doses_days`.
    let days: Int
    /// How long a dose may still be answered (`nag_count` × `nag_interval`).
    let lateWindow: TimeInterval
    let localizer: Localizer
    let logger: Logger
    /// Apply deletions the guard would hold back (`sync now NAME --allow-deletions`).
    var allowDeletions = false
    var deletionShare = DeletionGuard.defaultShare

    var listURL: URL { URL(string: account.dosesListURL ?? account.calendarURL)! }
    private var tasks: DoseTaskStore { database.doseTasks }

    /// A run; `poll` reads the list first (at a due instant, while a dose is open, at a late
    /// window's end), otherwise only what beautyd must write goes out.
    func run(poll: Bool) async throws -> PhoneTaskReport {
        var report = PhoneTaskReport(account: account.name)
        let before = server.statistics
        var state = ListState(
            token: account.dosesSyncToken, ctag: account.dosesCtag,
            supportsSyncCollection: account.dosesSupportsSyncCollection)
        var readings: [String: PhoneReading] = [:]
        var deleted = Set<String>()
        var readETags: [String: (old: String?, new: String)] = [:]
        var mustPoll = poll || account.dosesPaused
        // Up to three decisions for writes the server refused (412); and after a decision that made tasks, one
        // more reading of the list for its sync token, which does not count as one of the three.
        var refusals = 0
        var tokenReads = 0
        while true {
            let madeBefore = report.created + report.putBack
            if mustPoll {
                report.polled = true
                guard
                    try await pull(
                        &state, readings: &readings, deleted: &deleted, readETags: &readETags, report: &report)
                else {
                    report.requests = server.statistics.requests - before.requests
                    return report
                }
            }
            let refused = try await reconcile(
                readings: readings, deleted: deleted, readETags: readETags.mapValues(\.new), report: &report)
            // Tasks read and not written since: their new ETag is not read again.
            for (uid, etag) in readETags {
                try tasks.recordRead(account: account.name, uid: uid, etag: etag.new, replacing: etag.old)
            }
            if mustPoll {
                try database.sync.recordDosesListState(
                    account: account.name, syncToken: state.token, ctag: state.ctag,
                    supportsSyncCollection: state.supportsSyncCollection)
            }
            readings = [:]
            deleted = []
            readETags = [:]
            report.stillRefused = refused
            // A task made after the recorded sync token and deleted on the phone before the next poll may be
            // left out of that poll's answer (RFC 6578 lets a server omit a member added and removed since the
            // token; Xandikos does), and the deletion never seen: the token is read again past the new tasks.
            let madeTasks = report.created + report.putBack > madeBefore && state.supportsSyncCollection
            if refused {
                // The phone changed a task beautyd was writing: read it before deciding again.
                refusals += 1
                guard refusals < 3 else { break }
            } else if madeTasks, tokenReads < 3 {
                tokenReads += 1
            } else {
                break
            }
            mustPoll = true
        }
        report.requests = server.statistics.requests - before.requests
        return report
    }

    struct ListState {
        var token: String?
        var ctag: String?
        var supportsSyncCollection: Bool
    }

    // MARK: - Poll

    /// Reads what changed on the list since the last poll: phone readings by UID, the UIDs deleted
    /// there, and the ETags read. False when the deletion guard held the poll back (paused).
    private func pull(
        _ state: inout ListState, readings: inout [String: PhoneReading], deleted: inout Set<String>,
        readETags: inout [String: (old: String?, new: String)], report: inout PhoneTaskReport
    ) async throws -> Bool {
        let known = try tasks.tasks(account: account.name)
        let byHref = Dictionary(known.map { (SyncEngine.key($0.href), $0) }) { first, _ in first }
        var tags: [CalDAVResourceTag] = []
        var removed: [String] = []
        var listGone = false
        do {
            let listing = try await CollectionListing.changes(
                of: listURL, on: server, token: state.token, ctag: state.ctag,
                syncCollection: state.supportsSyncCollection, known: known.map(\.href), fallBack: true)
            tags = listing.changed
            removed = listing.removed
            if listing.syncCollectionRefused {
                state.supportsSyncCollection = false
                state.token = nil
            }
            if let token = listing.token { state.token = token }
            if let ctag = listing.ctag { state.ctag = ctag }
        } catch CalDAVError.notFound {
            listGone = true
        }
        let goneTasks = listGone ? known : removed.compactMap { byHref[SyncEngine.key($0)] }
        let open = known.filter { $0.writtenState == nil }
        let openGone = goneTasks.filter { $0.writtenState == nil }
        if !allowDeletions,
            listGone || DeletionGuard.holdsBack(removing: openGone.count, of: open.count, share: deletionShare)
        {
            logger.warning(
                "doses \(account.name): the list would lose \(openGone.count) of \(open.count) open tasks\(listGone ? " (the list is gone)" : ""); dose sync paused until 'beautyctl sync now \(account.name) --allow-deletions'"
            )
            try database.sync.pauseDoses(account: account.name, true)
            report.paused = true
            return false
        }
        if account.dosesPaused { try database.sync.pauseDoses(account: account.name, false) }
        for task in goneTasks { deleted.insert(task.uid) }
        let changed = tags.filter { tag in
            guard let task = byHref[SyncEngine.key(tag.href)] else { return false }
            return task.etag != tag.etag || tag.etag.isEmpty
        }
        guard !changed.isEmpty else { return true }
        let noticed = now()
        for resource in try await server.fetch(listURL, hrefs: changed.map(\.href)) {
            guard let task = byHref[SyncEngine.key(resource.href)] else { continue }
            report.read += 1
            readETags[task.uid] = (task.etag, resource.etag)
            do {
                // A server may put any text at a task's href: only the task beautyd wrote there (its
                // UID) can answer that dose.
                let found = try DoseTaskReading.written(resource.ics, zone: zone)?.uid
                guard found == task.uid else {
                    throw DoseTaskRefusal(reason: "its UID is \(found ?? "not one beautyd makes"), not \(task.uid)")
                }
                let taskZone = try DoseTaskReading.written(task.ics, zone: zone)?.zone ?? zone
                readings[task.uid] = try DoseTaskReading.read(
                    resource.ics, noticedAt: noticed, lastWrittenAt: task.writtenAt, zone: taskZone)
            } catch {
                logger.warning("doses \(account.name): \(resource.href) cannot be read: \(error)")
                report.unreadable.append("\(resource.href): \(String("\(error)".prefix(300)))")
            }
        }
        return true
    }

    // MARK: - Reconcile

    /// Decides and applies what the list and the doses need. True when a write met a task changed
    /// meanwhile (412): the caller polls and decides again.
    private func reconcile(
        readings: [String: PhoneReading], deleted: Set<String>, readETags: [String: String],
        report: inout PhoneTaskReport
    ) async throws -> Bool {
        let current = now()
        let rows = try tasks.tasks(account: account.name)
        // History outside the window matters only when the phone touched it.
        let relevant = rows.filter { row in
            row.writtenState == nil || readings[row.uid] != nil || deleted.contains(row.uid)
                || row.scheduledAt >= current.addingTimeInterval(-lateWindow)
        }
        var rowByUID: [String: DoseTaskRow] = [:]
        var known: [KnownDoseTask] = []
        for row in relevant {
            guard let content = try? DoseTaskReading.written(row.ics, zone: zone) else { continue }
            var row = row
            // What beautyd writes now goes over the version just read.
            if let read = readETags[row.uid] { row.etag = read }
            rowByUID[row.uid] = row
            known.append(
                KnownDoseTask(
                    medicationID: row.medicationID, content: content, phone: readings[row.uid],
                    deleted: deleted.contains(row.uid)))
        }
        let medications = try database.medications.tasked().filter { DoseTaskUID.isKey($0.key) }
        let wanted = DoseTaskPlan.wanted(
            medications: medications, now: current, days: days, lateWindow: lateWindow, zone: zone,
            privateMode: account.dosesPrivate, localizer: localizer)
        let earliest = ([current.addingTimeInterval(-lateWindow)] + relevant.map(\.scheduledAt)).min()!
        let doses = try database.medications.doses(
            from: earliest, to: current.addingTimeInterval(TimeInterval(days + 1) * 86_400))
        var actions = DoseTaskPlan.reconcile(
            wanted: wanted, known: known, doses: doses, now: current, lateWindow: lateWindow, localizer: localizer)
        if account.dosesPrivate {
            // A task written since private mode came on, beautyd's closes and answers included, names nothing.
            actions = actions.map(nameless)
            let wantedUIDs = Set(wanted.map(\.content.uid))
            let history = rows.filter { !wantedUIDs.contains($0.uid) && !deleted.contains($0.uid) }
            actions += try namelessHistory(history, besides: actions, rows: &rowByUID)
        }
        var refused = false
        for action in actions {
            try Task.checkCancellation()
            if try await apply(action, rows: rowByUID, report: &report) == false { refused = true }
        }
        return refused
    }

    /// In private mode no task may name a medication, answered history outside the window included
    /// (§3): a rewrite for each task beyond the window whose summary is not "Dose 08:00" and for which
    /// nothing else is to be done.
    private func namelessHistory(
        _ history: [DoseTaskRow], besides actions: [DoseTaskAction], rows: inout [String: DoseTaskRow]
    ) throws -> [DoseTaskAction] {
        let busy = Set(actions.compactMap(Self.uid))
        var rewrites: [DoseTaskAction] = []
        for row in history where !busy.contains(row.uid) {
            guard let content = try? DoseTaskReading.written(row.ics, zone: zone) else { continue }
            let renamed = nameless(content)
            guard renamed != content else { continue }
            rows[row.uid] = rows[row.uid] ?? row
            rewrites.append(.rewrite(renamed))
        }
        return rewrites
    }

    /// The task with "Dose 08:00" for its summary and alarm text.
    private func nameless(_ content: DoseTaskContent) -> DoseTaskContent {
        var renamed = content
        renamed.summary = localizer.tr(
            "Dose %s", Timestamps(zone: content.zone, language: localizer.language).clock(content.due))
        if renamed.alarmText != nil { renamed.alarmText = renamed.summary }
        return renamed
    }

    private func nameless(_ action: DoseTaskAction) -> DoseTaskAction {
        switch action {
        case .create(let content): .create(nameless(content))
        case .rewrite(let content): .rewrite(nameless(content))
        case .writeAnswer(let content): .writeAnswer(nameless(content))
        case .closeMissed(let content): .closeMissed(nameless(content))
        case .putBack(let content): .putBack(nameless(content))
        default: action
        }
    }

    /// The UID an action is about.
    private static func uid(_ action: DoseTaskAction) -> String? {
        switch action {
        case .create(let content), .rewrite(let content), .writeAnswer(let content), .closeMissed(let content),
            .putBack(let content):
            content.uid
        case .delete(let uid), .forget(let uid), .markAnswered(let uid, _), .recordAnswer(let uid, _, _, _),
            .reviseAnswer(let uid, _, _, _):
            uid
        case .report(let conflict): conflict.uid
        }
    }

    /// Applies one action; false when the server refused a write because the task changed (412).
    private func apply(_ action: DoseTaskAction, rows: [String: DoseTaskRow], report: inout PhoneTaskReport)
        async throws -> Bool
    {
        switch action {
        case .create(let content):
            guard try await create(content, medicationID: medicationID(content, rows)) else {
                report.preconditionFailures += 1
                return false
            }
            report.created += 1
        case .putBack(let content):
            let id = medicationID(content, rows)
            guard try await create(content, medicationID: id) else {
                report.preconditionFailures += 1
                return false
            }
            report.putBack += 1
            try addReport(uid: content.uid, medicationID: id, due: content.due, kind: .putBack, report: &report)
        case .rewrite(let content), .writeAnswer(let content), .closeMissed(let content):
            guard let row = rows[content.uid] else { return true }
            guard try await write(content, over: row) else {
                report.preconditionFailures += 1
                return false
            }
            report.written += 1
        case .delete(let uid):
            guard let row = rows[uid] else { return true }
            do {
                guard let etag = row.etag, !etag.isEmpty else { throw CalDAVError.preconditionFailed(href: row.href) }
                try await server.delete(row.href, .mustMatch(etag: etag))
            } catch CalDAVError.preconditionFailed {
                report.preconditionFailures += 1
                return false
            } catch CalDAVError.notFound {}
            try tasks.forget(account: account.name, uid: uid)
            report.deleted += 1
        case .recordAnswer(let uid, let medicationID, let due, let answer):
            try await answers.record(
                medicationID: medicationID, due: due, answer.kind == .taken ? .taken : .skipped, at: answer.at ?? now())
            report.answersApplied += 1
            try noteAnswered(uid, answer, rows: rows)
        case .reviseAnswer(let uid, let medicationID, let due, let answer):
            try await answers.revise(
                medicationID: medicationID, due: due, answer.kind == .taken ? .taken : .skipped, at: answer.at ?? now())
            report.answersApplied += 1
            try noteAnswered(uid, answer, rows: rows)
        case .markAnswered(let uid, let answer):
            try noteAnswered(uid, answer, rows: rows)
        case .report(let conflict):
            guard let row = rows[conflict.uid] else { return true }
            let kind: DoseTaskReportKind =
                switch conflict.overruled {
                case .phone: conflict.answer == nil ? .phoneReopened : .phoneOverruled
                case .desktop: .desktopOverruled
                }
            try addReport(
                uid: conflict.uid, medicationID: row.medicationID, due: row.scheduledAt, kind: kind,
                answer: conflict.answer, report: &report)
        case .forget(let uid):
            try tasks.forget(account: account.name, uid: uid)
        }
        return true
    }

    private func medicationID(_ content: DoseTaskContent, _ rows: [String: DoseTaskRow]) -> Int64 {
        if let row = rows[content.uid] { return row.medicationID }
        return (try? database.medications.tasked().first { $0.key == content.key }?.medication.id) ?? 0
    }

    /// PUTs a new task. A UID the server has already (a task of a lost or restored database) is taken
    /// over as it is there: recorded with an ETag that matches nothing, so the poll that follows reads
    /// it and a phone's answer on it is recorded. False then.
    private func create(_ content: DoseTaskContent, medicationID: Int64) async throws -> Bool {
        let stamp = now()
        let ics = DoseTaskWriting.serialize(content, created: stamp, stamp: stamp, sequence: 0)
        let href = server.href(forUID: content.uid, in: listURL)
        var row = DoseTaskRow(
            account: account.name, uid: content.uid, href: href, etag: nil, medicationID: medicationID,
            scheduledAt: content.due, ics: ics, writtenState: content.answer?.kind, writtenAt: stamp, createdAt: stamp,
            sequence: 0)
        do {
            row.etag = try await server.put(href, ics: ics, .mustNotExist)
            if row.etag == nil { row.etag = try await server.fetch(listURL, hrefs: [href]).first?.etag }
            try tasks.recordWritten(row)
            return true
        } catch CalDAVError.preconditionFailed {
            // Recorded with an ETag that matches nothing: the next poll reads the server's version,
            // and believes its times (beautyd did not write this one).
            row.etag = ""
            row.writtenAt = .distantPast
            try tasks.recordWritten(row)
            return false
        }
    }

    /// PUTs the task's new text over the recorded ETag; false on 412 (the phone changed it).
    private func write(_ content: DoseTaskContent, over row: DoseTaskRow) async throws -> Bool {
        let stamp = now()
        let sequence = row.sequence + 1
        let ics = DoseTaskWriting.serialize(content, created: row.createdAt, stamp: stamp, sequence: sequence)
        var written = row
        // An empty ETag: the server's version was never read (a create met one there).
        guard let etag = row.etag, !etag.isEmpty else { return false }
        do {
            written.etag = try await server.put(row.href, ics: ics, .mustMatch(etag: etag))
        } catch CalDAVError.preconditionFailed {
            return false
        }
        if written.etag == nil { written.etag = try await server.fetch(listURL, hrefs: [row.href]).first?.etag }
        written.ics = ics
        written.writtenState = content.answer?.kind
        written.writtenAt = stamp
        written.sequence = sequence
        try tasks.recordWritten(written)
        return true
    }

    /// The phone's answer stands on the server as the phone wrote it: beautyd records the task as
    /// answered without writing it (each write may erase a tick the phone has not uploaded, §4).
    private func noteAnswered(_ uid: String, _ answer: DoseTaskAnswer, rows: [String: DoseTaskRow]) throws {
        guard let row = rows[uid], let content = try DoseTaskReading.written(row.ics, zone: zone) else { return }
        var noted = row
        noted.ics = DoseTaskWriting.serialize(
            content.answered(answer), created: row.createdAt, stamp: row.writtenAt, sequence: row.sequence)
        noted.writtenState = answer.kind
        try tasks.recordWritten(noted)
    }

    private func addReport(
        uid: String, medicationID: Int64, due: Date, kind: DoseTaskReportKind, answer: DoseTaskAnswer? = nil,
        report: inout PhoneTaskReport
    ) throws {
        try tasks.recordReport(
            DoseTaskReportRow(
                account: account.name, uid: uid, medicationID: medicationID, scheduledAt: due, kind: kind,
                answer: answer?.kind, answeredAt: answer?.at, detectedAt: now()))
        report.reports += 1
    }
}

/// A task on the dose list that is not the one beautyd wrote at that href.
struct DoseTaskRefusal: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
