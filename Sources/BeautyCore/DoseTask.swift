import BeautyLocalization
import Foundation

// A dose as a CalDAV task (VTODO) on the user's phone: what beautyd writes (docs/PHONE_TASKS.md §3).

/// What became of a dose, as beautyd writes it on the dose's task.
public enum DoseTaskAnswer: Sendable, Equatable {
    case taken(at: Date)
    case skipped(at: Date)
    /// No answer by the end of the late window.
    case missed

    public var kind: DoseTaskAnswerKind {
        switch self {
        case .taken: .taken
        case .skipped: .skipped
        case .missed: .missed
        }
    }

    /// When the user answered; nil for a missed dose.
    public var at: Date? {
        switch self {
        case .taken(let at), .skipped(let at): at
        case .missed: nil
        }
    }
}

/// The word for an answer in `X-BEAUTYD-ANSWER`.
public enum DoseTaskAnswerKind: String, Sendable, Equatable, CaseIterable {
    case taken, skipped, missed
}

/// Everything a dose task says, apart from the stamps and SEQUENCE of one write.
public struct DoseTaskContent: Sendable, Equatable {
    /// The medication's random task key (no name: the UID leaves the machine).
    public var key: String
    /// The planned instant of the dose.
    public var due: Date
    /// The zone the dose was planned in: DUE and DTSTART are written in it.
    public var zone: TimeZone
    /// "Witamina D — 1 kapsułka", or "Dawka 08:00" in private mode.
    public var summary: String
    /// The VALARM's text; nil for a task without an alarm (an answered one).
    public var alarmText: String?
    /// nil while the dose is open.
    public var answer: DoseTaskAnswer?
    /// DESCRIPTION: "Missed: no answer by 08:30" on a missed dose's task.
    public var note: String?

    public init(
        key: String, due: Date, zone: TimeZone, summary: String, alarmText: String?, answer: DoseTaskAnswer? = nil,
        note: String? = nil
    ) {
        self.key = key
        self.due = due
        self.zone = zone
        self.summary = summary
        self.alarmText = alarmText
        self.answer = answer
        self.note = note
    }

    public var uid: String { DoseTaskUID.make(key: key, due: due) }

    /// Equal when they write the same task. Zones compare by what is written: every UTC name ("GMT",
    /// "Etc/UTC"...) writes DUE in UTC and reads back as "UTC", and TimeZone's own == also tells a zone
    /// from the same zone made another way; either made every run rewrite every unanswered task.
    public static func == (a: DoseTaskContent, b: DoseTaskContent) -> Bool {
        a.key == b.key && a.due == b.due && writtenAlike(a.zone, b.zone) && a.summary == b.summary
            && a.alarmText == b.alarmText && a.answer == b.answer && a.note == b.note
    }

    static func writtenAlike(_ a: TimeZone, _ b: TimeZone) -> Bool {
        a.identifier == b.identifier
            || (ICalendar.utcNames.contains(a.identifier) && ICalendar.utcNames.contains(b.identifier))
    }

    /// The same task answered on the desktop: its alarm goes, so that apps that show a cancelled
    /// task as open (Tasks.org, GNOME) do not ring for it, and so does a missed note.
    public func answered(_ answer: DoseTaskAnswer) -> DoseTaskContent {
        var content = self
        content.answer = answer
        content.alarmText = nil
        content.note = nil
        return content
    }

    /// The task closed as missed when its late window ended at `by`, with a note saying so.
    public func missed(by: Date, localizer l: Localizer) -> DoseTaskContent {
        var content = answered(.missed)
        content.note = l.tr("Missed: no answer by %s", Timestamps(zone: zone, language: l.language).clock(by))
        return content
    }
}

/// A dose task's UID, `beautyd-dose-<key>-<due in UTC, basic format>`: stable for one medication's
/// dose at one instant, whatever an app does to DUE or the X- properties, and free of `@` (hrefs are
/// made from it and compared unescaped).
public enum DoseTaskUID {
    public static let prefix = "beautyd-dose-"

    public static func make(key: String, due: Date) -> String {
        prefix + key + "-" + ICalendar.utcText(due)
    }

    /// The key and due instant of a UID beautyd made; nil for any other UID.
    public static func parse(_ uid: String) -> (key: String, due: Date)? {
        guard uid.hasPrefix(prefix) else { return nil }
        let rest = uid.dropFirst(prefix.count)
        let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, isKey(String(parts[0])), let due = utcInstant(String(parts[1])) else { return nil }
        return (String(parts[0]), due)
    }

    /// A new random key: eight lower-case hex digits.
    public static func newKey() -> String {
        String(format: "%08x", UInt32.random(in: .min ... .max))
    }

    /// Eight lower-case hex digits.
    public static func isKey(_ text: String) -> Bool {
        text.utf8.count == 8 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// `YYYYMMDDTHHMMSSZ` as an instant; nil for any other form.
    static func utcInstant(_ text: String) -> Date? {
        guard case .dateTime(let w, utc: true)? = ICalendar.dateValue(text) else { return nil }
        return LocalTime.instant(
            year: w.year, month: w.month, day: w.day, hour: w.hour, minute: w.minute, second: w.second,
            in: TimeZone(identifier: "UTC")!)
    }
}

/// The VCALENDAR beautyd PUTs for one dose task (`Fixtures/PhoneTasks/beautyd-*.ics`): CRLF, folded,
/// DUE = DTSTART in the dose's zone with its VTIMEZONE, one alarm at the due time while the dose is
/// open, and `X-BEAUTYD-*` for what beautyd needs back.
public enum DoseTaskWriting {
    /// `created`: when the task was first written; `stamp`: now (DTSTAMP and LAST-MODIFIED);
    /// `sequence`: 0 for the first write, one more on every write after it.
    public static func serialize(_ task: DoseTaskContent, created: Date, stamp: Date, sequence: Int) -> String {
        var out: [UInt8] = []
        func emit(_ line: String) { ICalendar.appendFolded(line, to: &out) }
        func text(_ name: String, _ value: String) { emit("\(name):\(ICalendar.escapeText(value))") }
        emit("BEGIN:VCALENDAR")
        emit("VERSION:2.0")
        emit("PRODID:-//beautyd//beautyd//EN")
        let utc = ICalendar.utcNames.contains(task.zone.identifier)
        let year = LocalTime.calendar(task.zone).component(.year, from: task.due)
        if !utc { ICalendar.vtimezone(task.zone.identifier, years: year...year).forEach(emit) }
        emit("BEGIN:VTODO")
        text("UID", task.uid)
        emit("DTSTAMP:\(ICalendar.utcText(stamp))")
        emit("CREATED:\(ICalendar.utcText(created))")
        emit("LAST-MODIFIED:\(ICalendar.utcText(stamp))")
        emit("SEQUENCE:\(sequence)")
        text("SUMMARY", task.summary)
        if let note = task.note { text("DESCRIPTION", note) }
        let due =
            utc
            ? ":\(ICalendar.utcText(task.due))"
            : ";TZID=\(task.zone.identifier):\(ICalendar.dateTimeText(ICalendar.wall(task.due, task.zone)))"
        emit("DTSTART\(due)")
        emit("DUE\(due)")
        switch task.answer {
        case nil: emit("STATUS:NEEDS-ACTION")
        case .taken(let at):
            emit("STATUS:COMPLETED")
            emit("COMPLETED:\(ICalendar.utcText(at))")
            emit("PERCENT-COMPLETE:100")
        // No COMPLETED on a cancelled task: Thunderbird would show it done.
        case .skipped, .missed: emit("STATUS:CANCELLED")
        }
        emit("CLASS:PRIVATE")
        emit("X-BEAUTYD-KIND:dose")
        text("X-BEAUTYD-MEDICATION", task.key)
        emit("X-BEAUTYD-DUE:\(ICalendar.utcText(task.due))")
        if let answer = task.answer { emit("X-BEAUTYD-ANSWER:\(answer.kind.rawValue)") }
        if case .skipped(let at) = task.answer { emit("X-BEAUTYD-ANSWERED:\(ICalendar.utcText(at))") }
        if let alarm = task.alarmText {
            // Relative: DAVx5 keeps only "minutes before start or due", jtx keeps durations.
            emit("BEGIN:VALARM")
            emit("ACTION:DISPLAY")
            text("DESCRIPTION", alarm)
            emit("TRIGGER:PT0S")
            emit("END:VALARM")
        }
        emit("END:VTODO")
        emit("END:VCALENDAR")
        return String(decoding: out, as: UTF8.self)
    }
}
