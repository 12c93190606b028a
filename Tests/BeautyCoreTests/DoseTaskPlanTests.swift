import BeautyCore
import BeautyLocalization
import Foundation
import Testing

/// Which dose tasks the window wants, and what reconciling them with the recorded tasks and the
/// doses does (docs/PHONE_TASKS.md §4, §5, §8, §9). Clock and zone are given.
@Suite struct DoseTaskPlanTests {
    static let lateWindow: TimeInterval = 30 * 60
    static let key = "5d0c8e1f"

    static func medication(
        id: Int64 = 7, name: String = "Witamina D", dose: String? = "1 kapsułka", times: [String] = ["08:00", "20:00"],
        zone: String? = nil
    ) -> Medication {
        Medication(
            id: id, name: name, dose: dose,
            schedule: MedicationSchedule(kind: .times, times: times.map { try! ClockTime(parsing: $0) }),
            timeZone: zone, createdAt: utc("2026-11-01T00:00:00Z"))
    }

    static func wanted(
        _ medications: [Medication], now: Date, days: Int = 2, privateMode: Bool = false, zone: TimeZone = warsaw
    ) -> [WantedDoseTask] {
        DoseTaskPlan.wanted(
            medications: medications.map { TaskedMedication(medication: $0, key: key) }, now: now, days: days,
            lateWindow: lateWindow, zone: zone, privateMode: privateMode, localizer: .english)
    }

    static func reconcile(
        _ wanted: [WantedDoseTask], _ known: [KnownDoseTask], doses: [Dose] = [], now: Date
    ) -> [DoseTaskAction] {
        DoseTaskPlan.reconcile(
            wanted: wanted, known: known, doses: doses, now: now, lateWindow: lateWindow, localizer: .english)
    }

    static func known(_ wanted: WantedDoseTask, answer: DoseTaskAnswer? = nil, phone: PhoneReading? = nil)
        -> KnownDoseTask
    {
        KnownDoseTask(
            medicationID: wanted.medicationID, content: answer.map { wanted.content.answered($0) } ?? wanted.content,
            phone: phone)
    }

    static let now = utc("2026-11-28T06:00:00Z")

    @Test func theWindowHoldsTheDosesFromTheLateWindowOnForItsDays() {
        let tasks = Self.wanted([Self.medication()], now: utc("2026-11-28T07:20:00Z"))
        #expect(
            tasks.map(\.content.due) == [
                utc("2026-11-28T07:00:00Z"), utc("2026-11-28T19:00:00Z"), utc("2026-11-29T07:00:00Z"),
                utc("2026-11-29T19:00:00Z"), utc("2026-11-30T07:00:00Z"),
            ])
        #expect(tasks.allSatisfy { $0.content.summary == "Witamina D — 1 kapsułka" && $0.named })
        #expect(tasks.allSatisfy { $0.content.alarmText == $0.content.summary && $0.content.answer == nil })
        #expect(tasks[0].content.uid == "beautyd-dose-5d0c8e1f-20261128T070000Z")
        // Past its late window, a dose has no task to create.
        #expect(
            Self.wanted([Self.medication()], now: utc("2026-11-28T07:31:00Z")).first?.content.due
                == utc("2026-11-28T19:00:00Z"))
    }

    @Test func asNeededHasNoTasksAndAPinnedZoneKeepsItsTimes() {
        var asNeeded = Self.medication(id: 8)
        asNeeded.schedule = .asNeeded
        let pinned = Self.medication(id: 9, dose: nil, times: ["08:00"], zone: "America/New_York")
        let tasks = Self.wanted([asNeeded, pinned], now: Self.now, days: 1)
        #expect(tasks.map(\.medicationID) == [9])
        #expect(tasks.map(\.content.due) == [utc("2026-11-28T13:00:00Z")])
        #expect(tasks.map(\.content.zone.identifier) == ["America/New_York"])
        #expect(tasks.map(\.content.summary) == ["Witamina D"])
    }

    @Test func missingTasksAreCreatedAndKnownOnesLeftAlone() {
        let tasks = Self.wanted([Self.medication()], now: Self.now)
        #expect(Self.reconcile(tasks, [], now: Self.now) == tasks.map { .create($0.content) })
        #expect(Self.reconcile(tasks, tasks.map { Self.known($0) }, now: Self.now) == [])
    }

    /// A dose answered on the desktop before its task exists: the task is created answered.
    @Test func aTaskForAnAnsweredDoseIsCreatedAnswered() {
        let task = Self.wanted([Self.medication()], now: Self.now, days: 1)[0]
        let taken = Dose(
            medicationID: 7, scheduledAt: task.content.due, state: .taken, confirmedAt: utc("2026-11-28T05:50:00Z"))
        let actions = Self.reconcile([task], [], doses: [taken], now: Self.now)
        #expect(actions == [.create(task.content.answered(.taken(at: utc("2026-11-28T05:50:00Z"))))])
    }

    @Test func anEditRewritesUnansweredTasksAndLeavesAnsweredOnes() {
        let before = Self.wanted([Self.medication()], now: Self.now)
        let after = Self.wanted([Self.medication(name: "Witamina D3", dose: "2 kapsułki")], now: Self.now)
        var known = before.map { Self.known($0) }
        known[1] = Self.known(before[1], answer: .taken(at: utc("2026-11-28T06:00:00Z")))
        let actions = Self.reconcile(after, known, now: Self.now)
        #expect(actions == [0, 2, 3].map { .rewrite(after[$0].content) })
        #expect(after[0].content.summary == "Witamina D3 — 2 kapsułki")
    }

    @Test func aRemovedMedicationOrAChangedTimeDeletesUnansweredTasks() {
        let before = Self.wanted([Self.medication()], now: Self.now)
        var known = before.map { Self.known($0) }
        known[0] = Self.known(before[0], answer: .skipped(at: utc("2026-11-28T05:00:00Z")))
        #expect(Self.reconcile([], known, now: Self.now) == before.dropFirst().map { .delete(uid: $0.content.uid) })

        // 20:00 becomes 21:00: a new instant is a new task, the old one goes.
        let moved = Self.wanted([Self.medication(times: ["08:00", "21:00"])], now: Self.now)
        let actions = Self.reconcile(moved, before.map { Self.known($0) }, now: Self.now)
        #expect(
            Set(actions.map(String.init(describing:)))
                == Set(
                    ([1, 3].map { DoseTaskAction.create(moved[$0].content) }
                        + [1, 3].map { DoseTaskAction.delete(uid: before[$0].content.uid) }).map(
                            String.init(describing:))))
    }

    /// The desktop's zone moves from Warsaw to Lisbon: unpinned doses move to new instants, so their
    /// unanswered tasks are replaced.
    @Test func aZoneChangeReplacesUnansweredTasks() {
        let before = Self.wanted([Self.medication()], now: Self.now, days: 1)
        let lisbon = TimeZone(identifier: "Europe/Lisbon")!
        let after = Self.wanted([Self.medication()], now: Self.now, days: 1, zone: lisbon)
        let actions = Self.reconcile(after, before.map { Self.known($0) }, now: Self.now)
        #expect(
            actions == after.map { .create($0.content) } + before.map { .delete(uid: $0.content.uid) })
        #expect(after.map(\.content.zone.identifier) == ["Europe/Lisbon", "Europe/Lisbon"])
    }

    @Test func aDesktopAnswerIsWritten() {
        let task = Self.wanted([Self.medication()], now: Self.now, days: 1)[0]
        let at = utc("2026-11-28T07:02:00Z")
        for (state, answer) in [(Dose.State.taken, DoseTaskAnswer.taken(at: at)), (.skipped, .skipped(at: at))] {
            let dose = Dose(medicationID: 7, scheduledAt: task.content.due, state: state, confirmedAt: at)
            let later = utc("2026-11-28T07:03:00Z")
            let actions = Self.reconcile([task], [Self.known(task)], doses: [dose], now: later)
            #expect(actions == [.writeAnswer(task.content.answered(answer))])
            #expect(task.content.answered(answer).alarmText == nil)
        }
    }

    /// Unanswered, the task stays open through its late window, then is closed with a note.
    @Test func aMissedDoseIsClosedAtTheEndOfItsLateWindow() {
        let task = Self.wanted([Self.medication()], now: Self.now, days: 1)[0]
        let fired = Dose(medicationID: 7, scheduledAt: task.content.due, state: .fired)
        #expect(Self.reconcile([task], [Self.known(task)], doses: [fired], now: utc("2026-11-28T07:29:59Z")) == [])
        let closed = task.content.missed(by: utc("2026-11-28T07:30:00Z"), localizer: .english)
        #expect(closed.note == "Missed: no answer by 08:30")
        #expect(closed.answer == .missed && closed.alarmText == nil)
        // Past its window the dose is no longer wanted; its task is closed, not deleted.
        #expect(
            Self.reconcile([], [Self.known(task)], doses: [fired], now: utc("2026-11-28T07:30:00Z")) == [
                .closeMissed(closed)
            ])
        // beautyd recorded it missed: closed at once.
        let missed = Dose(medicationID: 7, scheduledAt: task.content.due, state: .missed)
        #expect(
            Self.reconcile([task], [Self.known(task)], doses: [missed], now: utc("2026-11-28T07:29:00Z")) == [
                .closeMissed(closed)
            ])
        // Taken late on the desktop after the close: the task says so, without the missed note.
        let late = Dose(
            medicationID: 7, scheduledAt: task.content.due, state: .taken, confirmedAt: utc("2026-11-28T08:00:00Z"))
        let takenLate = task.content.answered(.taken(at: utc("2026-11-28T08:00:00Z")))
        #expect(takenLate.note == nil)
        #expect(
            Self.reconcile([], [Self.known(task, answer: .missed)], doses: [late], now: utc("2026-11-28T09:00:00Z"))
                == [.writeAnswer(takenLate)])
        // Closed once, never again.
        #expect(
            Self.reconcile([], [Self.known(task, answer: .missed)], doses: [missed], now: utc("2026-11-28T09:00:00Z"))
                == [])
    }

    @Test func aPhoneAnswerIsRecordedForAnUnansweredOrMissedDose() {
        let task = Self.wanted([Self.medication()], now: Self.now, days: 1)[0]
        let tick = PhoneReading(kind: .taken, at: utc("2026-11-28T07:04:12Z"), rule: .r1)
        let answer = DoseTaskAnswer.taken(at: utc("2026-11-28T07:04:12Z"))
        let record = DoseTaskAction.recordAnswer(uid: task.content.uid, medicationID: 7, due: task.content.due, answer)
        let fired = Dose(medicationID: 7, scheduledAt: task.content.due, state: .fired)
        #expect(Self.reconcile([task], [Self.known(task, phone: tick)], doses: [fired], now: Self.now) == [record])
        // A dose beyond the 48 h of dose rows has no row: recorded all the same.
        #expect(Self.reconcile([task], [Self.known(task, phone: tick)], now: Self.now) == [record])
        // Ticked after the missed close: a late answer.
        let missed = Dose(medicationID: 7, scheduledAt: task.content.due, state: .missed)
        #expect(
            Self.reconcile(
                [], [Self.known(task, answer: .missed, phone: tick)], doses: [missed], now: utc("2026-11-28T09:00:00Z"))
                == [record])
    }

    /// Both sides answered differently before a sync: the earlier answer stands, the other is reported.
    @Test(arguments: [
        // desktop taken at, phone skipped at, winner
        ("2026-11-28T07:03:00Z", "2026-11-28T07:04:00Z", DoseTaskConflict.Side.phone),
        ("2026-11-28T07:05:00Z", "2026-11-28T07:04:00Z", .desktop),
        ("2026-11-28T07:04:00Z", "2026-11-28T07:04:00Z", .desktop),
    ])
    func bothSidesAnsweredTheEarlierWins(_ desktopAt: String, _ phoneAt: String, _ overruled: DoseTaskConflict.Side) {
        let task = Self.wanted([Self.medication()], now: Self.now, days: 1)[0]
        let desktop = DoseTaskAnswer.taken(at: utc(desktopAt)), phone = DoseTaskAnswer.skipped(at: utc(phoneAt))
        let dose = Dose(medicationID: 7, scheduledAt: task.content.due, state: .taken, confirmedAt: utc(desktopAt))
        let reading = PhoneReading(kind: .skipped, at: utc(phoneAt), rule: .r2)
        let actions = Self.reconcile([task], [Self.known(task, phone: reading)], doses: [dose], now: Self.now)
        switch overruled {
        case .phone:
            #expect(
                actions == [
                    .writeAnswer(task.content.answered(desktop)),
                    .report(DoseTaskConflict(uid: task.content.uid, overruled: .phone, answer: phone)),
                ])
        case .desktop:
            #expect(
                actions == [
                    .reviseAnswer(uid: task.content.uid, medicationID: 7, due: task.content.due, phone),
                    .report(DoseTaskConflict(uid: task.content.uid, overruled: .desktop, answer: desktop)),
                ])
        }
    }

    @Test func bothSidesAnsweredAlikeWritesNothing() {
        let task = Self.wanted([Self.medication()], now: Self.now, days: 1)[0]
        let dose = Dose(
            medicationID: 7, scheduledAt: task.content.due, state: .taken, confirmedAt: utc("2026-11-28T07:05:00Z"))
        let reading = PhoneReading(kind: .taken, at: utc("2026-11-28T07:04:00Z"), rule: .r1)
        #expect(
            Self.reconcile([task], [Self.known(task, phone: reading)], doses: [dose], now: Self.now) == [
                .markAnswered(uid: task.content.uid, .taken(at: utc("2026-11-28T07:05:00Z")))
            ])
    }

    /// A phone that re-opens or cancels a task beautyd answered taken: beautyd's answer stays and is
    /// written back, and the phone's change is reported.
    @Test func aPhoneChangeToATakenDoseIsPutBack() {
        let task = Self.wanted([Self.medication()], now: Self.now, days: 1)[0]
        let at = utc("2026-11-28T07:02:00Z")
        let dose = Dose(medicationID: 7, scheduledAt: task.content.due, state: .taken, confirmedAt: at)
        let answered = Self.known(task, answer: .taken(at: at), phone: PhoneReading(kind: .open, at: nil, rule: .r6))
        #expect(
            Self.reconcile([task], [answered], doses: [dose], now: Self.now) == [
                .rewrite(answered.content),
                .report(DoseTaskConflict(uid: task.content.uid, overruled: .phone, answer: nil)),
            ])
    }

    /// Deleting is how Tasks.org, iOS Reminders and GNOME dismiss a dose (§6).
    @Test func aTaskDeletedOnThePhone() {
        let tasks = Self.wanted([Self.medication()], now: Self.now, days: 1)
        let due = tasks[0].content.due, uid = tasks[0].content.uid
        var deleted = Self.known(tasks[0])
        deleted.deleted = true
        // Due and unanswered: skipped at the time the poll noticed it.
        let noticed = utc("2026-11-28T07:06:00Z")
        #expect(
            Self.reconcile(tasks, [deleted], now: noticed) == [
                .recordAnswer(uid: uid, medicationID: 7, due: due, .skipped(at: noticed)), .forget(uid: uid),
                .create(tasks[1].content),
            ])
        // Not yet due: put back.
        #expect(Self.reconcile([tasks[0]], [deleted], now: Self.now) == [.putBack(tasks[0].content)])
        // Answered on either side, or no longer wanted: forgotten, never re-created.
        let taken = Dose(medicationID: 7, scheduledAt: due, state: .taken, confirmedAt: utc("2026-11-28T05:59:00Z"))
        #expect(Self.reconcile([tasks[0]], [deleted], doses: [taken], now: Self.now) == [.forget(uid: uid)])
        var answered = Self.known(tasks[0], answer: .skipped(at: utc("2026-11-28T05:59:00Z")))
        answered.deleted = true
        #expect(Self.reconcile([tasks[0]], [answered], now: Self.now) == [.forget(uid: uid)])
        #expect(Self.reconcile([], [deleted], now: Self.now) == [.forget(uid: uid)])
    }

    /// Private mode switched on: every task loses the name, answered ones too; switched off, history stays.
    @Test func privateModeRewritesEveryTask() {
        let named = Self.wanted([Self.medication()], now: Self.now, days: 1)
        let hidden = Self.wanted([Self.medication()], now: Self.now, days: 1, privateMode: true)
        #expect(hidden.map(\.content.summary) == ["Dose 08:00", "Dose 20:00"])
        let taken = DoseTaskAnswer.taken(at: utc("2026-11-28T07:02:00Z"))
        let known = [Self.known(named[0], answer: taken), Self.known(named[1])]
        var answeredHidden = hidden[0].content.answered(taken)
        answeredHidden.alarmText = nil
        #expect(
            Self.reconcile(hidden, known, now: Self.now) == [.rewrite(answeredHidden), .rewrite(hidden[1].content)])
        let back = [Self.known(hidden[0], answer: taken), Self.known(hidden[1])]
        #expect(Self.reconcile(named, back, now: Self.now) == [.rewrite(named[1].content)])
    }
}
