import BeautyLocalization
import Foundation

// Which dose tasks should be on the server and what to write to get there (docs/PHONE_TASKS.md §4,
// §5, §8, §9). Pure: the medications, doses, recorded tasks, clock and zone are given.

/// A medication whose doses travel as tasks, with its random task key.
public struct TaskedMedication: Sendable, Equatable {
    public var medication: Medication
    public var key: String

    public init(medication: Medication, key: String) {
        self.medication = medication
        self.key = key
    }
}

/// A task the window wants on the server, for one dose of one medication.
public struct WantedDoseTask: Sendable, Equatable {
    public var medicationID: Int64
    public var content: DoseTaskContent
    /// Whether the summary names the medication (false in private mode).
    public var named: Bool

    public init(medicationID: Int64, content: DoseTaskContent, named: Bool) {
        self.medicationID = medicationID
        self.content = content
        self.named = named
    }
}

/// A task beautyd has on the server: what it last wrote or read there, and a phone's change read
/// since and not yet applied.
public struct KnownDoseTask: Sendable, Equatable {
    public var medicationID: Int64
    public var content: DoseTaskContent
    public var phone: PhoneReading?
    /// The task is gone from the server: deleted on the phone.
    public var deleted: Bool

    public init(medicationID: Int64, content: DoseTaskContent, phone: PhoneReading? = nil, deleted: Bool = false) {
        self.medicationID = medicationID
        self.content = content
        self.phone = phone
        self.deleted = deleted
    }
}

/// One answer that did not stand, with its time: the line `sync status` reports.
public struct DoseTaskConflict: Sendable, Equatable {
    public enum Side: String, Sendable { case desktop, phone }
    public var uid: String
    /// Whose answer gave way.
    public var overruled: Side
    /// The answer that gave way; nil for a phone that re-opened a task beautyd had answered.
    public var answer: DoseTaskAnswer?

    public init(uid: String, overruled: Side, answer: DoseTaskAnswer?) {
        self.uid = uid
        self.overruled = overruled
        self.answer = answer
    }
}

/// What to do to bring the server and beautyd's doses in line.
public enum DoseTaskAction: Sendable, Equatable {
    /// PUT a new task (`If-None-Match: *`).
    case create(DoseTaskContent)
    /// PUT the task's new text over the recorded ETag (an edit, private mode, a rejected phone change).
    case rewrite(DoseTaskContent)
    /// DELETE an unanswered task no longer wanted (an edit of its times, a removed medication, a zone change).
    case delete(uid: String)
    /// PUT the desktop's answer.
    case writeAnswer(DoseTaskContent)
    /// PUT the task closed as missed: its late window ended unanswered.
    case closeMissed(DoseTaskContent)
    /// Record the phone's answer for the dose, as a click on the desktop would.
    case recordAnswer(uid: String, medicationID: Int64, due: Date, DoseTaskAnswer)
    /// Both answered and the phone was first: change the desktop's answer to the phone's.
    case reviseAnswer(uid: String, medicationID: Int64, due: Date, DoseTaskAnswer)
    /// The server already says what beautyd says: note the task as answered, write nothing.
    case markAnswered(uid: String, DoseTaskAnswer)
    /// An answer that gave way, for `sync status`.
    case report(DoseTaskConflict)
    /// PUT again a task deleted on the phone before its dose was due (`If-None-Match: *`), and report it.
    case putBack(DoseTaskContent)
    /// Drop the record of a task deleted on the phone: nothing is written for it again.
    case forget(uid: String)
}

public enum DoseTaskPlan {
    /// The tasks for the doses in [now − lateWindow, now + days): a dose may still be answered until
    /// its late window ends. Medications without doses (as needed, none) have no tasks; each dose's
    /// times are in the medication's zone (`Medication.zone(default:)`). In private mode the summary
    /// is "Dose 08:00" and nothing names the medication.
    public static func wanted(
        medications: [TaskedMedication], now: Date, days: Int, lateWindow: TimeInterval, zone: TimeZone,
        privateMode: Bool, localizer l: Localizer
    ) -> [WantedDoseTask] {
        let from = now.addingTimeInterval(-lateWindow), to = now.addingTimeInterval(TimeInterval(days) * 86_400)
        var wanted: [WantedDoseTask] = []
        for tasked in medications {
            guard let id = tasked.medication.id else { continue }
            let medicationZone = tasked.medication.zone(default: zone)
            for due in DosePlanner.doses(for: tasked.medication, from: from, to: to, zone: medicationZone) {
                let summary =
                    privateMode
                    ? l.tr("Dose %s", Timestamps(zone: medicationZone, language: l.language).clock(due))
                    : summaryText(tasked.medication)
                wanted.append(
                    WantedDoseTask(
                        medicationID: id,
                        content: DoseTaskContent(
                            key: tasked.key, due: due, zone: medicationZone, summary: summary, alarmText: summary),
                        named: !privateMode))
            }
        }
        return wanted.sorted { ($0.content.due, $0.content.key) < ($1.content.due, $1.content.key) }
    }

    /// The name of the task list beautyd makes for the doses, in the user's language.
    public static func listName(localizer l: Localizer) -> String { l.tr("Medications") }

    /// "Witamina D — 1 kapsułka"; the name alone without a dose text.
    public static func summaryText(_ medication: Medication) -> String {
        guard let dose = medication.dose?.trimmingWhitespace(), !dose.isEmpty else { return medication.name }
        return "\(medication.name) — \(dose)"
    }

    /// The actions that bring the server (`known`, by UID) and beautyd's `doses` in line with `wanted`:
    ///
    /// - a wanted task not known is created (answered already if its dose is);
    /// - an unanswered known task is answered when its dose is, closed as missed when its dose is
    ///   missed or its late window has ended, rewritten when its text changed, deleted when no longer
    ///   wanted and not yet past (an edit, a removed medication, a zone change);
    /// - answered tasks stay as history, rewritten only to take a medication's name off in private mode
    ///   or when the desktop answers the dose anew (a missed dose taken late);
    /// - a task deleted on the phone skips its due dose, is put back before the dose is due, and is
    ///   forgotten once answered (`deletedOnThePhone`); how many deletions one poll may apply is the
    ///   caller's guard;
    /// - a phone's answer (`KnownDoseTask.phone`) is recorded for a dose beautyd has not answered; where
    ///   both answered differently, the earlier answer stands (a tie goes to the phone, whose time the
    ///   user saw) and the other is reported (`conflict`).
    public static func reconcile(
        wanted: [WantedDoseTask], known: [KnownDoseTask], doses: [Dose], now: Date, lateWindow: TimeInterval,
        localizer l: Localizer
    ) -> [DoseTaskAction] {
        var doseAt: [DoseKey: Dose] = [:]
        for dose in doses { doseAt[DoseKey(medicationID: dose.medicationID, due: dose.scheduledAt)] = dose }
        func desktopAnswer(_ medicationID: Int64, _ due: Date) -> DoseTaskAnswer? {
            guard let dose = doseAt[DoseKey(medicationID: medicationID, due: due)] else { return nil }
            switch dose.state {
            case .taken: return .taken(at: dose.confirmedAt ?? dose.scheduledAt)
            case .skipped: return .skipped(at: dose.confirmedAt ?? dose.scheduledAt)
            case .missed: return .missed
            case .pending, .fired, .snoozed: return nil
            }
        }
        var knownByUID: [String: KnownDoseTask] = [:]
        for task in known { knownByUID[task.content.uid] = task }
        var actions: [DoseTaskAction] = []
        var seen = Set<String>()

        for want in wanted {
            let uid = want.content.uid
            seen.insert(uid)
            let desktop = desktopAnswer(want.medicationID, want.content.due)
            guard let task = knownByUID[uid] else {
                actions.append(.create(created(want.content, desktop, lateWindow: lateWindow, localizer: l)))
                continue
            }
            if task.deleted {
                actions += deletedOnThePhone(task, desktop: desktop, wanted: want.content, now: now)
                continue
            }
            actions += settle(task, desktop: desktop, now: now, lateWindow: lateWindow, localizer: l) {
                var content = want.content
                content.answer = task.content.answer
                content.note = task.content.note
                if task.content.answer != nil {
                    // History stays as written, but a name leaves the server when private mode asks.
                    guard !want.named, want.content.summary != task.content.summary else { return nil }
                    content.alarmText = nil
                }
                return content == task.content ? nil : content
            }
        }
        for task in known where !seen.contains(task.content.uid) {
            let desktop = desktopAnswer(task.medicationID, task.content.due)
            if task.deleted {
                actions += deletedOnThePhone(task, desktop: desktop, wanted: nil, now: now)
                continue
            }
            let settled = settle(task, desktop: desktop, now: now, lateWindow: lateWindow, localizer: l) { nil }
            // Nothing else to do for an unanswered task not yet past: it is no longer wanted.
            if settled.isEmpty, task.content.answer == nil, task.content.due.addingTimeInterval(lateWindow) > now {
                actions.append(.delete(uid: task.content.uid))
            } else {
                actions += settled
            }
        }
        return actions
    }

    /// A task deleted on the phone (§6), where deleting is how Tasks.org, iOS Reminders and GNOME
    /// dismiss a dose: due and unanswered, the dose is skipped at the time noticed (`now`); not yet
    /// due and still wanted, the task is put back (likely a clean-up); answered, or no longer wanted,
    /// it is forgotten and history stays.
    private static func deletedOnThePhone(
        _ task: KnownDoseTask, desktop: DoseTaskAnswer?, wanted: DoseTaskContent?, now: Date
    ) -> [DoseTaskAction] {
        let uid = task.content.uid
        guard desktop == nil, task.content.answer == nil else { return [.forget(uid: uid)] }
        if task.content.due <= now {
            return [
                .recordAnswer(uid: uid, medicationID: task.medicationID, due: task.content.due, .skipped(at: now)),
                .forget(uid: uid),
            ]
        }
        return wanted.map { [.putBack($0)] } ?? [.forget(uid: uid)]
    }

    /// A task written for the first time: answered already when its dose is.
    private static func created(
        _ content: DoseTaskContent, _ desktop: DoseTaskAnswer?, lateWindow: TimeInterval, localizer l: Localizer
    ) -> DoseTaskContent {
        switch desktop {
        case nil: content
        case .missed: content.missed(by: content.due.addingTimeInterval(lateWindow), localizer: l)
        case let answer?: content.answered(answer)
        }
    }

    /// The actions for one known task, given beautyd's answer for its dose. `rewritten` gives the
    /// task's new text when an unanswered task's text should change (nil: unchanged).
    private static func settle(
        _ task: KnownDoseTask, desktop: DoseTaskAnswer?, now: Date, lateWindow: TimeInterval, localizer l: Localizer,
        rewritten: () -> DoseTaskContent?
    ) -> [DoseTaskAction] {
        let uid = task.content.uid, due = task.content.due, id = task.medicationID
        let lateEnd = due.addingTimeInterval(lateWindow)
        let phone = task.phone.flatMap(phoneAnswer)

        if let phone {
            switch desktop {
            case nil, .missed?:
                // Unanswered in beautyd, or missed: the phone's answer is recorded (a late one after a miss).
                return [.recordAnswer(uid: uid, medicationID: id, due: due, phone)]
            case let desktop?:
                if task.content.answer == nil {
                    return conflict(task.content, desktop: desktop, phone: phone, medicationID: id)
                }
                // beautyd's answer was on the server and the phone changed it.
                if desktop.kind == phone.kind { return [.markAnswered(uid: uid, desktop)] }
                if desktop.kind == .skipped, phone.kind == .taken {
                    return [.recordAnswer(uid: uid, medicationID: id, due: due, phone)]
                }
                return [
                    .rewrite(task.content),
                    .report(DoseTaskConflict(uid: uid, overruled: .phone, answer: phone)),
                ]
            }
        }
        if task.phone?.kind == .open, let written = task.content.answer?.kind, written != .missed {
            // A phone re-opened a task beautyd answered: beautyd's answer stays and goes back.
            return [.rewrite(task.content), .report(DoseTaskConflict(uid: uid, overruled: .phone, answer: nil))]
        }
        if let written = task.content.answer {
            // Answered again on the desktop (a missed dose taken late, a skip turned into taken).
            if let desktop, desktop.kind != written.kind { return [.writeAnswer(task.content.answered(desktop))] }
            return rewritten().map { [.rewrite($0)] } ?? []
        }
        switch desktop {
        case .missed?: return [.closeMissed(task.content.missed(by: lateEnd, localizer: l))]
        case let answer?: return [.writeAnswer(task.content.answered(answer))]
        case nil:
            if lateEnd <= now { return [.closeMissed(task.content.missed(by: lateEnd, localizer: l))] }
            return rewritten().map { [.rewrite($0)] } ?? []
        }
    }

    /// Both sides answered before a sync (§8). The same kind: beautyd's stands, nothing is written.
    /// Different: the earlier answer stands, a tie goes to the phone.
    public static func conflict(
        _ content: DoseTaskContent, desktop: DoseTaskAnswer, phone: DoseTaskAnswer, medicationID: Int64
    ) -> [DoseTaskAction] {
        let uid = content.uid
        if desktop.kind == phone.kind { return [.markAnswered(uid: uid, desktop)] }
        let desktopTime = desktop.at ?? .distantFuture, phoneTime = phone.at ?? .distantFuture
        if desktopTime < phoneTime {
            return [
                .writeAnswer(content.answered(desktop)),
                .report(DoseTaskConflict(uid: uid, overruled: .phone, answer: phone)),
            ]
        }
        return [
            .reviseAnswer(uid: uid, medicationID: medicationID, due: content.due, phone),
            .report(DoseTaskConflict(uid: uid, overruled: .desktop, answer: desktop)),
        ]
    }

    /// The phone's answer in a reading: taken or skipped at its time; nil for open and beautyd's own.
    private static func phoneAnswer(_ reading: PhoneReading) -> DoseTaskAnswer? {
        switch reading.kind {
        case .taken: reading.at.map { DoseTaskAnswer.taken(at: $0) }
        case .skipped: reading.at.map { DoseTaskAnswer.skipped(at: $0) }
        case .open, .own: nil
        }
    }

    private struct DoseKey: Hashable {
        var medicationID: Int64
        var due: Date
    }
}
