import BeautyLocalization
import Foundation

/// Something an import approximated or left out, at a 1-based line of the file as given. Kept as a
/// template and arguments (an msgid of the catalogs), so it is shown in the user's language.
public struct ImportWarning: Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var text: TranslatableText

    public init(line: Int, template: String, _ arguments: CustomStringConvertible...) {
        self.line = line
        text = TranslatableText(template, arguments.map(\.description))
    }

    public init(line: Int, _ text: TranslatableText) {
        self.line = line
        self.text = text
    }

    /// In English.
    public var message: String { text.english }

    public func message(_ l: Localizer) -> String { text.rendered(l) }

    public var description: String { "line \(line): \(message)" }
}

/// Components of a file that beautyd does not import (to-dos, journal entries, contacts groups...),
/// counted by kind, so the summary says what was left out.
public struct SkippedComponents: Codable, Sendable, Equatable {
    public struct Kind: Codable, Sendable, Equatable {
        public var name: String
        public var count: Int
        /// The line of the first one.
        public var firstLine: Int
    }

    public private(set) var kinds: [Kind] = []

    public init() {}

    public mutating func add(_ name: String, line: Int) {
        if let index = kinds.firstIndex(where: { $0.name == name }) {
            kinds[index].count += 1
        } else {
            kinds.append(Kind(name: name, count: 1, firstLine: line))
        }
    }

    /// Adds the counts of another part of the same file.
    public mutating func add(_ other: SkippedComponents) {
        for kind in other.kinds {
            if let index = kinds.firstIndex(where: { $0.name == kind.name }) {
                kinds[index].count += kind.count
                kinds[index].firstLine = min(kinds[index].firstLine, kind.firstLine)
            } else {
                kinds.append(kind)
            }
        }
    }

    /// The same counts, with the first lines renumbered.
    public func mappingLines(_ line: (Int) -> Int) -> SkippedComponents {
        var mapped = self
        for index in mapped.kinds.indices { mapped.kinds[index].firstLine = line(mapped.kinds[index].firstLine) }
        return mapped
    }

    public var isEmpty: Bool { kinds.isEmpty }
    public var total: Int { kinds.reduce(0) { $0 + $1.count } }

    /// "2 VTODO, 1 VJOURNAL"
    public var description: String { kinds.map { "\($0.count) \($0.name)" }.joined(separator: ", ") }
}

/// An event an import left out because it cannot be placed in time (it has no DTSTART), named by
/// its line, SUMMARY and UID.
public struct SkippedEvent: Sendable, Equatable {
    public var line: Int
    public var uid: String?
    public var summary: String?
    /// Why, naming the event, in the user's language.
    public var text: TranslatableText

    init(withoutStart c: ICalComponent) {
        line = c.line
        uid = c.first("UID").map { ICalendar.unescapeText($0.value).trimmingWhitespace() }.flatMap {
            $0.isEmpty ? nil : $0
        }
        summary = c.first("SUMMARY").map { ICalendar.unescapeText($0.value).trimmingWhitespace() }.flatMap {
            $0.isEmpty ? nil : $0
        }
        let title = CalendarEvent.title(summary ?? "")
        text =
            uid.map {
                TranslatableText(
                    "VEVENT '%s' (UID %s) has no DTSTART: it cannot be placed in time and is not imported",
                    [title, .plain($0)])
            }
            ?? TranslatableText(
                "VEVENT '%s' has no DTSTART and no UID: it cannot be placed in time and is not imported", [title])
    }

    public var message: String { text.english }
}

extension ICalendar {
    /// What reading a calendar file gives: its events, and what was approximated or left out.
    public struct Import: Sendable {
        public var events: [CalendarEvent]
        /// By line, in file order.
        public var warnings: [ImportWarning]
        /// Top-level components other than VEVENT and VTIMEZONE (VTODO, VJOURNAL, VFREEBUSY, X-...).
        public var skipped: SkippedComponents
        /// Events left out, in file order.
        public var skippedEvents: [SkippedEvent]

        public init(
            events: [CalendarEvent], warnings: [ImportWarning], skipped: SkippedComponents,
            skippedEvents: [SkippedEvent] = []
        ) {
            self.events = events
            self.warnings = warnings
            self.skipped = skipped
            self.skippedEvents = skippedEvents
        }
    }
}
