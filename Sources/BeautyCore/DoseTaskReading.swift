import Foundation

// What a dose task on the server says after a phone or desktop app changed it (docs/PHONE_TASKS.md §5),
// and what beautyd itself wrote there. The apps' writes are kept in `Fixtures/PhoneTasks/`.

/// How a dose task reads: open, answered on the phone, or carrying beautyd's own answer.
public struct PhoneReading: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable, CustomStringConvertible {
        case open, taken, skipped
        /// beautyd's own answer, unchanged by the phone: nothing to do.
        case own(DoseTaskAnswerKind)

        public var description: String {
            switch self {
            case .open: "open"
            case .taken: "taken"
            case .skipped: "skipped"
            case .own(let kind): "own:\(kind.rawValue)"
            }
        }
    }

    /// The rule of §5 that decided it.
    public enum Rule: String, Sendable, Equatable {
        case r0 = "R0", r1 = "R1", r2 = "R2", r3 = "R3", r4 = "R4", r5 = "R5", r6 = "R6"
    }

    public var kind: Kind
    /// When the answer was made; nil for an open task and a missed close.
    public var at: Date?
    public var rule: Rule

    public init(kind: Kind, at: Date?, rule: Rule) {
        self.kind = kind
        self.at = at
        self.rule = rule
    }

    public var description: String { "\(kind) at \(at.map(ICalendar.utcText) ?? "-") (\(rule.rawValue))" }
}

public enum DoseTaskReading {
    /// How long a phone's clock may run ahead of beautyd's before its times are not believed.
    public static let clockSkew: TimeInterval = 5 * 60

    /// Reads the first VTODO of `ics` by the rules of §5 (the first that applies):
    ///
    /// - R0: `X-BEAUTYD-ANSWER` and the rules below agree (missed reads as cancelled): beautyd's own.
    /// - R1: STATUS:COMPLETED is taken, at COMPLETED, else LAST-MODIFIED, else `noticedAt`.
    /// - R2: STATUS:CANCELLED is skipped (COMPLETED ignored), at LAST-MODIFIED, else `noticedAt`.
    /// - R3: PERCENT-COMPLETE:100 with no STATUS, NEEDS-ACTION or IN-PROCESS is taken (jtx Board with
    ///   "keep in sync" off, iOS 5), timed as R1.
    /// - R4: COMPLETED without STATUS is taken (RFC 5545: COMPLETED means done), at COMPLETED.
    /// - R5: COMPLETED with NEEDS-ACTION or IN-PROCESS is open (GNOME's un-tick keeps COMPLETED).
    /// - R6: anything else is open.
    ///
    /// A phone's time counts only when it is after `lastWrittenAt` (beautyd's last write of the task)
    /// and not after `noticedAt` + `clockSkew`; otherwise the answer is timed `noticedAt`. A `Z` time
    /// is UTC whatever its TZID (python3-caldav writes `COMPLETED;TZID=UTC;…Z`), a floating one is in
    /// `zone` (the dose's), a DATE is no time.
    public static func read(_ ics: String, noticedAt: Date, lastWrittenAt: Date?, zone: TimeZone) throws
        -> PhoneReading
    {
        let (calendar, todo) = try firstTodo(ics)
        var zones = ZoneResolver(calendar: calendar, fallback: zone)
        func time(_ name: String) -> Date? {
            guard let property = todo.first(name), let value = ICalendar.dateValue(property.value),
                case .dateTime = value
            else { return nil }
            return try? ICalendar.instant(value, of: property, floating: zone, zones: &zones)
        }
        func believed(_ candidates: Date?...) -> Date {
            guard let time = candidates.lazy.compactMap({ $0 }).first,
                lastWrittenAt.map({ time > $0 }) ?? true, time <= noticedAt.addingTimeInterval(clockSkew)
            else { return noticedAt }
            return time
        }
        let status = todo.first("STATUS").map { ICalendar.unescapeText($0.value).trimmingWhitespace().uppercased() }
        let percent = todo.first("PERCENT-COMPLETE").flatMap { Int($0.value.trimmingWhitespace()) }
        let hasCompleted = todo.first("COMPLETED") != nil
        let notDone = status == nil || status == "NEEDS-ACTION" || status == "IN-PROCESS"

        let phone: PhoneReading
        if status == "COMPLETED" {
            phone = PhoneReading(kind: .taken, at: believed(time("COMPLETED"), time("LAST-MODIFIED")), rule: .r1)
        } else if status == "CANCELLED" {
            phone = PhoneReading(kind: .skipped, at: believed(time("LAST-MODIFIED")), rule: .r2)
        } else if percent == 100, notDone {
            phone = PhoneReading(kind: .taken, at: believed(time("COMPLETED"), time("LAST-MODIFIED")), rule: .r3)
        } else if hasCompleted, status == nil {
            phone = PhoneReading(kind: .taken, at: believed(time("COMPLETED")), rule: .r4)
        } else if hasCompleted, notDone {
            phone = PhoneReading(kind: .open, at: nil, rule: .r5)
        } else {
            phone = PhoneReading(kind: .open, at: nil, rule: .r6)
        }

        guard let own = ownAnswer(todo) else { return phone }
        switch (own, phone.kind) {
        case (.taken, .taken):
            return PhoneReading(kind: .own(.taken), at: time("COMPLETED"), rule: .r0)
        case (.skipped, .skipped):
            return PhoneReading(kind: .own(.skipped), at: time("X-BEAUTYD-ANSWERED"), rule: .r0)
        case (.missed, .skipped):
            return PhoneReading(kind: .own(.missed), at: nil, rule: .r0)
        default:
            return phone
        }
    }

    /// The task as beautyd wrote it (`DoseTaskWriting`), read back: the key and due instant from the
    /// UID, the zone from DUE's TZID, the alarm's text from a VALARM at the due time (`PT0S`, or `P0D`
    /// as Xandikos stores it), beautyd's answer from `X-BEAUTYD-ANSWER`. nil when the UID is not one
    /// beautyd makes.
    public static func written(_ ics: String, zone: TimeZone) throws -> DoseTaskContent? {
        let (calendar, todo) = try firstTodo(ics)
        guard let uid = todo.first("UID").map({ ICalendar.unescapeText($0.value).trimmingWhitespace() }),
            let (key, due) = DoseTaskUID.parse(uid)
        else { return nil }
        var zones = ZoneResolver(calendar: calendar, fallback: zone)
        var taskZone = zone
        if let tzid = todo.first("DUE")?.param("TZID"), let found = try? zones.zone(tzid, line: 0).zone {
            taskZone = found
        } else if todo.first("DUE")?.value.trimmingWhitespace().uppercased().hasSuffix("Z") == true {
            taskZone = TimeZone(identifier: "UTC")!
        }
        func text(_ component: ICalComponent, _ name: String) -> String? {
            component.first(name).map { ICalendar.unescapeText($0.value) }
        }
        let alarm = todo.children.first { child in
            child.name == "VALARM"
                && child.first("TRIGGER").flatMap { ICalendar.duration($0.value) }.map { $0.exactSeconds == 0 } == true
        }
        let answer: DoseTaskAnswer?
        switch ownAnswer(todo) {
        case .taken:
            answer = todo.first("COMPLETED").flatMap { DoseTaskUID.utcInstant($0.value) }.map {
                DoseTaskAnswer.taken(at: $0)
            }
        case .skipped:
            answer = todo.first("X-BEAUTYD-ANSWERED").flatMap { DoseTaskUID.utcInstant($0.value) }.map {
                DoseTaskAnswer.skipped(at: $0)
            }
        case .missed: answer = .missed
        case nil: answer = nil
        }
        return DoseTaskContent(
            key: key, due: due, zone: taskZone, summary: text(todo, "SUMMARY") ?? "",
            alarmText: alarm.map { text($0, "DESCRIPTION") ?? "" }, answer: answer, note: text(todo, "DESCRIPTION"))
    }

    private static func ownAnswer(_ todo: ICalComponent) -> DoseTaskAnswerKind? {
        todo.first("X-BEAUTYD-ANSWER").flatMap {
            DoseTaskAnswerKind(rawValue: $0.value.trimmingWhitespace().lowercased())
        }
    }

    private static func firstTodo(_ ics: String) throws -> (calendar: ICalComponent, todo: ICalComponent) {
        for calendar in try ICalendar.components(ics) {
            if let todo = calendar.children.first(where: { $0.name == "VTODO" }) { return (calendar, todo) }
        }
        throw ICalendarError(line: 1, template: "the file has no VTODO (a task)")
    }
}
