import Foundation

/// Field rules shared by the client (early, exit 2) and the daemon (authoritative, refuses).
public enum Validation {
    public static let maxNameLength = 200
    public static let maxTextLength = 10_000

    /// Required single-line text: letters of any language, no control characters, not blank.
    public static func name(_ raw: String, field: String) throws -> String {
        let value = raw.trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty else { throw ValidationError(field: field, template: "must not be empty") }
        try refuseControls(in: value, field: field, multiline: false)
        guard value.count <= maxNameLength else {
            throw ValidationError(field: field, template: "is longer than %s characters", maxNameLength)
        }
        return value
    }

    /// Optional text: nil or blank means absent; single line unless `multiline` (notes).
    public static func optionalText(_ raw: String?, field: String, multiline: Bool = false) throws -> String? {
        guard let raw else { return nil }
        let value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if value.isEmpty { return nil }
        try refuseControls(in: value, field: field, multiline: multiline)
        guard value.count <= maxTextLength else {
            throw ValidationError(field: field, template: "is longer than %s characters", maxTextLength)
        }
        return value
    }

    /// A phone number as people write it: digits with an optional leading +, spaces, dashes,
    /// dots and parentheses; between 3 and 20 digits.
    public static func phone(_ raw: String, field: String = "phone") throws -> String {
        let value = raw.trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty else { throw ValidationError(field: field, template: "must not be empty") }
        var digits = 0
        for (index, scalar) in value.unicodeScalars.enumerated() {
            switch scalar {
            case "0"..."9": digits += 1
            case "+" where index == 0: continue
            case " ", "-", ".", "(", ")": continue
            default:
                throw ValidationError(
                    field: field, template: "'%s' is not a phone number (unexpected '%s')", quotable(value),
                    quotable(String(scalar)))
            }
        }
        guard (3...20).contains(digits) else {
            throw ValidationError(field: field, template: "'%s' is not a phone number (needs 3 to 20 digits)", value)
        }
        return value
    }

    /// The phone number reduced to what an `sms:`/`tel:` URI carries: + and digits.
    public static func dialable(_ phone: String) -> String {
        String(phone.unicodeScalars.filter { $0 == "+" || ("0"..."9").contains($0) }.map(Character.init))
    }

    public static func email(_ raw: String?, field: String = "email") throws -> String? {
        guard let value = try optionalText(raw, field: field) else { return nil }
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix("."), !value.contains(" ")
        else { throw ValidationError(field: field, template: "'%s' is not an e-mail address", value) }
        return value
    }

    /// Categories are short lowercase words such as `hair`, `nails`, `face/facial`.
    public static func category(_ raw: String?, field: String = "category") throws -> String? {
        guard let value = try optionalText(raw, field: field)?.lowercased() else { return nil }
        let ok = value.unicodeScalars.allSatisfy {
            CharacterSet.letters.contains($0) || CharacterSet.decimalDigits.contains($0)
                || "-_/".unicodeScalars.contains($0)
        }
        guard ok, value.count <= 40 else {
            throw ValidationError(
                field: field, template: "'%s' must be letters, digits, '-', '_' or '/' (at most 40)", value)
        }
        return value
    }

    public static func color(_ raw: String?, field: String = "color") throws -> String? {
        guard let value = try optionalText(raw, field: field)?.lowercased() else { return nil }
        if TerminalColor(rawValue: value) != nil { return value }
        let hexDigits = value.dropFirst()
        if value.hasPrefix("#"), hexDigits.count == 6, hexDigits.allSatisfy(\.isHexDigit) { return value }
        let names = TerminalColor.allCases.map(\.rawValue).joined(separator: ", ")
        throw ValidationError(field: field, template: "'%s' is not a colour (use #rrggbb or one of: %s)", value, names)
    }

    public static func duration(_ seconds: Int, field: String = "duration") throws -> Int {
        guard seconds >= 0 else { throw ValidationError(field: field, template: "must not be negative") }
        guard seconds <= 366 * 86_400 else { throw ValidationError(field: field, template: "must be at most a year") }
        return seconds
    }

    public static func money(_ money: Money?, field: String = "price") throws -> Money? {
        guard let money else { return nil }
        guard money.cents >= 0 else { throw ValidationError(field: field, template: "must not be negative") }
        let code = money.currency.uppercased()
        guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw ValidationError(field: field, template: "'%s' is not a currency code such as EUR", money.currency)
        }
        return Money(cents: money.cents, currency: code)
    }

    public static func reminders(_ reminders: [Reminder], field: String = "reminders") throws -> [Reminder] {
        guard reminders.count <= 20 else { throw ValidationError(field: field, template: "at most 20 reminders") }
        for reminder in reminders {
            if reminder.at == nil, reminder.beforeSeconds == nil {
                throw ValidationError(field: field, template: "each reminder needs 'beforeSeconds' or 'at'")
            }
            if let lead = reminder.beforeSeconds, lead < 0 {
                throw ValidationError(field: field, template: "a lead time must not be negative")
            }
        }
        var seen = Set<Reminder>()
        return reminders.filter { seen.insert($0).inserted }
    }

    /// Free tags (calendar categories outside the tree): single-line names, kept as given.
    public static func tags(_ tags: [String], field: String = "tags") throws -> [String] {
        guard tags.count <= 50 else { throw ValidationError(field: field, template: "at most 50 tags") }
        return try tags.enumerated().map { index, tag in try name(tag, field: "\(field)[\(index)]") }
    }

    /// iCalendar lines kept for export: each one line (no line breaks), at most 64 KiB in all.
    public static func extraProperties(_ lines: [String], field: String = "extraProperties") throws -> [String] {
        var bytes = 0
        for (index, line) in lines.enumerated() {
            if line.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
                throw ValidationError(
                    field: "\(field)[\(index)]", template: "must be one unfolded content line (it has a line break)")
            }
            bytes += line.utf8.count + 2
        }
        guard bytes <= 65_536 else { throw ValidationError(field: field, template: "are more than 64 KiB") }
        return lines
    }

    /// An IANA zone name such as Europe/Warsaw.
    public static func timeZone(_ raw: String?, field: String = "tz") throws -> String? {
        guard let value = try optionalText(raw, field: field) else { return nil }
        guard let zone = TimeZone(identifier: value), value.contains("/") || value == "UTC" else {
            throw ValidationError(
                field: field, template: "'%s' is not a time zone (use an IANA name such as Europe/Warsaw)", value)
        }
        // Foundation on Linux names UTC "GMT", which this check would then refuse: keep "UTC" as it is.
        return value == "UTC" ? value : zone.identifier
    }

    /// Normalises every field of an appointment or says which one is wrong.
    public static func appointment(_ input: Appointment) throws -> Appointment {
        var a = input
        a.title = try name(a.title, field: "title")
        a.durationSeconds = try duration(a.durationSeconds)
        a.address = try optionalText(a.address, field: "address")
        a.notes = try optionalText(a.notes, field: "notes", multiline: true)
        a.category = try category(a.category)
        a.color = try color(a.color)
        a.price = try money(a.price)
        a.reminders = try reminders(a.reminders)
        a.tags = try tags(a.tags)
        a.extraProperties = try extraProperties(a.extraProperties)
        if let id = a.contactID, id <= 0 {
            throw ValidationError(field: "contact", template: "%s is not a contact id", id)
        }
        a.timeZone = try timeZone(a.timeZone)
        if let recurrence = a.recurrence {
            // An empty rule is a series of RDATEs only.
            if !(recurrence.rule.isEmpty && !recurrence.rdates.isEmpty) {
                a.recurrence?.rule = try RecurrenceRule.parse(recurrence.rule).text
            }
            a.recurrence?.moreRules = try recurrence.moreRules.map { try RecurrenceRule.parse($0).text }
            if a.repeatAfterDoneSeconds != nil {
                throw ValidationError(
                    field: "repeat",
                    template: "a rule (--repeat) and a cycle after done (--every --after-done) do not mix")
            }
        }
        if let every = a.repeatAfterDoneSeconds {
            a.repeatAfterDoneSeconds = try AppointmentDraft.cycleAfterDone(every)
        }
        if let uid = a.uid {
            if uid.isEmpty || uid.count > 500 {
                throw ValidationError(field: "uid", template: "must be 1 to 500 characters")
            }
            // Export writes it back out, so it must be as safe to show as any other text.
            try refuseControls(in: uid, field: "uid", multiline: false)
        }
        return a
    }

    public static func contact(_ input: Contact) throws -> Contact {
        var c = input
        c.name = try name(c.name, field: "name")
        c.phone = try phone(c.phone)
        c.email = try email(c.email)
        c.firstName = try optionalText(c.firstName, field: "first name")
        c.lastName = try optionalText(c.lastName, field: "last name")
        c.address = try optionalText(c.address, field: "address")
        return c
    }

    /// Control characters (but newlines and tabs in `multiline` text) and bidirectional controls
    /// are refused: the first can drive a terminal, the second reorder what a terminal or a
    /// notification shows (U+202E makes `gnp.exe` read `exe.png`).
    private static func refuseControls(in value: String, field: String, multiline: Bool) throws {
        // Printable ASCII, most text, is neither: an import checks a hundred thousand titles.
        if value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return }
        for scalar in value.unicodeScalars {
            if isControl(scalar), !(multiline && (scalar == "\n" || scalar == "\t")) {
                throw ValidationError(field: field, template: "contains a control character (U+%s)", hex(scalar))
            }
            if scalar.properties.isBidiControl {
                throw ValidationError(
                    field: field,
                    template:
                        "contains a bidirectional control character (U+%s), which can make text display in a misleading order; remove it",
                    hex(scalar))
            }
        }
    }

    /// A text as an error message may quote it: control and bidirectional control characters become `?`.
    public static func quotable(_ text: String) -> String {
        showable(text, keepingNewlines: false)
    }

    /// `quotable`, but newlines may stay (a notification body has lines). For text shown to the
    /// user that was stored before it could be refused, or reached beautyd some other way.
    public static func showable(_ text: String, keepingNewlines: Bool) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map {
                    isUnsafeToShow($0) && !(keepingNewlines && $0 == "\n") ? "?" : $0
                }))
    }

    /// A text as one log record may hold it: control characters (newlines too) and bidirectional
    /// controls become the `\u001b` beautyctl shows for them, so text from a server can neither
    /// drive the terminal that reads the log nor forge a record of its own.
    public static func escapedForLog(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if isUnsafeToShow(scalar) { out += escapeSequence(scalar.value) } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// How an unsafe code point is written where it must stay visible: `\u001b`, `\u202e`.
    public static func escapeSequence(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Control characters (C0, DEL, C1, line and paragraph separators) and bidirectional controls:
    /// what a terminal or a notification must never receive raw from text it did not write.
    public static func isUnsafeToShow(_ scalar: Unicode.Scalar) -> Bool {
        isControl(scalar) || scalar.properties.isBidiControl
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let category = scalar.properties.generalCategory
        return category == .control || category == .lineSeparator || category == .paragraphSeparator
    }

    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// Colours an appointment may carry; the terminal views map them to ANSI colours.
/// The colour names an appointment may have; they include the six of the original app (blue, yellow,
/// green, red, orange, magenta), so its appointments keep their colours.
public enum TerminalColor: String, CaseIterable, Sendable {
    case red, orange, yellow, green, teal, blue, purple, magenta, pink, brown, gray
}
