import BeautyLocalization
import Foundation

/// vCard (RFC 6350, version 4.0; 3.0 as phones and Google write it is read too) for
/// `beautyctl contact export --vcf` / `contact import`. Pure: text in, contacts out (and back).
/// Content lines fold, unfold and escape as in iCalendar, so `ICalendar`'s line reader is reused.
public enum VCard {
    /// One card as a contact, with the line of its BEGIN:VCARD.
    public struct Card: Sendable, Equatable {
        public var contact: Contact
        public var line: Int
    }

    /// What reading a file gives: the cards that are contacts, and what was left out.
    public struct Import: Sendable {
        public var cards: [Card]
        /// By line: cards not imported, values not kept, properties beautyd has no field for.
        public var warnings: [ImportWarning]
    }

    /// Properties beautyd reads; the others are counted in a warning.
    static let understood: Set<String> = [
        "BEGIN", "END", "VERSION", "PRODID", "REV", "FN", "N", "TEL", "EMAIL", "ADR", "UID", "LANG",
    ]

    /// Reads every VCARD of the file. Throws `LineError` only for what is malformed (a line that
    /// is no property, an unbalanced BEGIN/END); a card without a name or a usable phone number
    /// is left out with a warning.
    public static func read(_ text: String) throws -> Import {
        let (lines, last) = try ICalendar.unfold(text)
        guard !lines.isEmpty else { throw LineError(line: 1, template: "the file is empty (expected BEGIN:VCARD)") }
        var cards: [Card] = []
        var warnings: [ImportWarning] = []
        var unknown: [(name: String, count: Int, line: Int)] = []
        var open: (line: Int, properties: [ICalProperty])?
        for (bytes, number) in lines {
            let property = try ICalendar.property(withoutGroup(typedParameters(bytes)), line: number)
            let kind = property.value.trimmingCharacters(in: .whitespaces).uppercased()
            switch property.name {
            case "BEGIN":
                guard kind == "VCARD" else {
                    throw LineError(line: number, template: "expected BEGIN:VCARD, found BEGIN:%s", kind)
                }
                if let card = open {
                    throw LineError(
                        line: number, template: "BEGIN:VCARD inside the card begun at line %s (missing END:VCARD)",
                        card.line)
                }
                open = (number, [])
            case "END":
                guard kind == "VCARD", let card = open else {
                    throw LineError(line: number, template: "END:%s without a matching BEGIN", kind)
                }
                if let contact = contact(card.properties, line: card.line, warnings: &warnings) {
                    cards.append(Card(contact: contact, line: card.line))
                }
                open = nil
            default:
                guard open != nil else {
                    throw LineError(line: number, template: "%s outside BEGIN:VCARD ... END:VCARD", property.name)
                }
                open?.properties.append(property)
                if !understood.contains(property.name) {
                    if let index = unknown.firstIndex(where: { $0.name == property.name }) {
                        unknown[index].count += 1
                    } else {
                        unknown.append((property.name, 1, number))
                    }
                }
            }
        }
        if let card = open {
            throw LineError(
                line: last, template: "the file ends inside the card begun at line %s (missing END:VCARD)", card.line)
        }
        for property in unknown {
            warnings.append(
                ImportWarning(
                    line: property.line, template: "%s (%s×) not imported: beautyd's contacts have no such field",
                    property.name, property.count))
        }
        return Import(cards: cards, warnings: warnings.sorted { $0.line < $1.line })
    }

    /// The contact a card describes, or nil (with a warning) when it has no name or phone number.
    private static func contact(_ properties: [ICalProperty], line: Int, warnings: inout [ImportWarning]) -> Contact? {
        func all(_ name: String) -> [ICalProperty] { properties.filter { $0.name == name } }
        func text(_ p: ICalProperty) -> String { ICalendar.unescapeText(p.value).trimmingCharacters(in: .whitespaces) }
        let n = all("N").first.map { components($0.value) } ?? []
        let family = n.first.flatMap { $0.isEmpty ? nil : $0 }
        let given = n.count > 1 && !n[1].isEmpty ? n[1] : nil
        let fn = all("FN").first.map(text).flatMap { $0.isEmpty ? nil : $0 }
        guard let name = fn ?? ([given, family].compactMap { $0 }.joined(separator: " ")).nilIfEmpty else {
            warnings.append(
                ImportWarning(line: line, template: "a card without FN or N is not imported (a contact needs a name)"))
            return nil
        }
        let shown = Validation.quotable(name)
        // The preferred number (PREF=1 in 4.0, TYPE=pref in 3.0), else a mobile one, else the first.
        let phones = all("TEL").map { (property: $0, value: phoneText($0.value)) }.filter { !$0.value.isEmpty }
        func types(_ p: ICalProperty) -> [String] {
            p.params.filter { $0.name == "TYPE" }.flatMap(\.values).map { $0.lowercased() }
        }
        let preferred =
            phones.first { $0.property.param("PREF") == "1" || types($0.property).contains("pref") }
            ?? phones.first { types($0.property).contains("cell") } ?? phones.first
        guard let phone = preferred else {
            warnings.append(
                ImportWarning(
                    line: line, template: "card '%s' has no TEL: not imported (a contact needs a phone number)", shown))
            return nil
        }
        guard let validPhone = try? Validation.phone(phone.value) else {
            warnings.append(
                ImportWarning(
                    line: phone.property.line,
                    template:
                        "card '%s': TEL '%s' is not a phone number beautyd can dial: the card is not imported", shown,
                    Validation.quotable(phone.value)))
            return nil
        }
        for other in phones where other.property.line != phone.property.line {
            warnings.append(
                ImportWarning(
                    line: other.property.line,
                    template: "card '%s': TEL '%s' not kept (a contact has one phone number)",
                    shown, Validation.quotable(other.value)))
        }
        var contact = Contact(name: name, phone: validPhone, firstName: given, lastName: family)
        contact.uid = all("UID").first.map(text).flatMap { $0.isEmpty ? nil : $0 }
        // RFC 6350 LANG (a language tag, "sk" or "sk-SK"): the first one beautyd writes SMS texts in.
        contact.language = all("LANG").lazy.compactMap { Language(code: text($0)) }.first
        for (index, email) in all("EMAIL").enumerated() {
            let value = text(email)
            if index == 0, let valid = try? Validation.email(value) {
                contact.email = valid
            } else {
                warnings.append(
                    index == 0
                        ? ImportWarning(
                            line: email.line, template: "card '%s': EMAIL '%s' not kept (not an e-mail address)", shown,
                            Validation.quotable(value))
                        : ImportWarning(
                            line: email.line,
                            template: "card '%s': EMAIL '%s' not kept (a contact has one e-mail address)",
                            shown, Validation.quotable(value)))
            }
        }
        for (index, adr) in all("ADR").enumerated() {
            let value = components(adr.value).filter { !$0.isEmpty }.joined(separator: ", ")
            if index == 0 {
                contact.address = value.nilIfEmpty
            } else {
                warnings.append(
                    ImportWarning(
                        line: adr.line, template: "card '%s': ADR '%s' not kept (a contact has one address)",
                        shown, Validation.quotable(value)))
            }
        }
        return contact
    }

    /// A TEL value as people write it: a `tel:` URI loses its scheme and its parameters (;ext=).
    private static func phoneText(_ raw: String) -> String {
        var value = ICalendar.unescapeText(raw).trimmingCharacters(in: .whitespaces)
        if value.lowercased().hasPrefix("tel:") {
            value = String(value.dropFirst(4).split(separator: ";", maxSplits: 1).first ?? "")
        }
        return value
    }

    /// The components of a structured value (N, ADR), split at unescaped ';' and unescaped;
    /// a component's own list (',') is kept as text.
    private static func components(_ raw: String) -> [String] {
        ICalendar.splitUnescaped(raw, at: ";").map { ICalendar.unescapeText($0).trimmingCharacters(in: .whitespaces) }
    }

    /// `item1.TEL:...` (Apple's groups) as `TEL:...`.
    private static func withoutGroup(_ bytes: [UInt8]) -> [UInt8] {
        guard let end = bytes.firstIndex(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ";") }),
            let dot = bytes[..<end].lastIndex(of: UInt8(ascii: "."))
        else { return bytes }
        return Array(bytes[(dot + 1)...])
    }

    /// vCard 2.1 and many 3.0 writers give bare types (`TEL;CELL;PREF:`): read as `TYPE=CELL`.
    private static func typedParameters(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        var inQuotes = false
        var segmentStart: Int?
        func flush(_ end: Int) {
            guard let start = segmentStart else { return }
            let segment = bytes[start..<end]
            if !segment.contains(UInt8(ascii: "=")), !segment.isEmpty { out += Array("TYPE=".utf8) }
            out += segment
            segmentStart = nil
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { inQuotes.toggle() }
            if !inQuotes, byte == UInt8(ascii: ":") {
                flush(index)
                return out + bytes[index...]
            }
            if !inQuotes, byte == UInt8(ascii: ";") {
                flush(index)
                out.append(byte)
                segmentStart = index + 1
            } else if segmentStart == nil {
                out.append(byte)
            }
            index += 1
        }
        flush(index)
        return out
    }

    // MARK: Writing

    /// vCard 4.0: CRLF line ends, lines folded at 75 octets, TEXT escaped; the contacts in order.
    /// Every contact is written with its UID (give them one first: `contact.export` does).
    public static func serialize(_ contacts: [Contact]) -> String {
        var out = ""
        func emit(_ line: String) { out += ICalendar.fold(line) }
        for contact in contacts {
            emit("BEGIN:VCARD")
            emit("VERSION:4.0")
            if let uid = contact.uid { emit("UID:\(ICalendar.escapeText(uid))") }
            emit("FN:\(ICalendar.escapeText(contact.name))")
            if contact.firstName != nil || contact.lastName != nil {
                emit(
                    "N:\(ICalendar.escapeText(contact.lastName ?? ""));\(ICalendar.escapeText(contact.firstName ?? ""));;;"
                )
            }
            emit("TEL;VALUE=text:\(ICalendar.escapeText(contact.phone))")
            if let email = contact.email { emit("EMAIL:\(ICalendar.escapeText(email))") }
            // One line of text: the street component, which every reader shows.
            if let address = contact.address { emit("ADR:;;\(ICalendar.escapeText(address));;;;") }
            if let language = contact.language { emit("LANG:\(language.rawValue)") }
            emit("END:VCARD")
        }
        return out
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
