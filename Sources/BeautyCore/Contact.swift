import BeautyLocalization
import Foundation

/// A salon or person to book with.
public struct Contact: Codable, Sendable, Equatable {
    public var id: Int64?
    public var name: String
    public var phone: String
    public var email: String?
    public var firstName: String?
    public var lastName: String?
    public var address: String?
    /// vCard UID: set by `contact import`, or a random `urn:uuid:` given by the first `contact export`.
    public var uid: String?
    /// The language its SMS texts are written in (`beautyctl message`); nil: beautyctl's.
    public var language: Language?
    /// How many appointments link to it: in `contact.show`, and in `contact.rm` the ones it unlinked.
    public var appointmentCount: Int?

    public init(
        id: Int64? = nil, name: String, phone: String, email: String? = nil,
        firstName: String? = nil, lastName: String? = nil, address: String? = nil, uid: String? = nil,
        language: Language? = nil
    ) {
        self.id = id
        self.name = name
        self.phone = phone
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.address = address
        self.uid = uid
        self.language = language
    }

    /// "Salon Anna (Anna Nowak)" when a person is named, else just the name.
    public var displayName: String {
        let person = [firstName, lastName].compactMap { $0 }.joined(separator: " ")
        return person.isEmpty ? name : "\(name) (\(person))"
    }
}

/// Finds the contact a user means by what they typed for `--contact`: an id, a phone number or a name.
public enum ContactLookup {
    public enum Outcome: Equatable, Sendable {
        case found(Contact)
        /// Several fit equally well: the user must say which.
        case ambiguous([Contact])
        case none
    }

    /// In this order, the first rule that fits anything decides:
    /// - up to 6 digits: the contact with that id;
    /// - a phone number (digits with spaces, dashes, dots, parentheses, a leading +): the contacts whose
    ///   number has the same digits, or ends in them when at least 7 are given (a number without its
    ///   country code);
    /// - a name, whole (any case and accents; the salon's name, the person's, or both as listed);
    /// - a part of a name.
    public static func find(_ query: String, in contacts: [Contact]) -> Outcome {
        let text = query.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return .none }
        if text.count <= 6, text.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int64(text),
            let byID = contacts.first(where: { $0.id == id })
        {
            return .found(byID)
        }
        let typedDigits = digits(text)
        if looksLikePhone(text) {
            let byPhone = contacts.filter { contact in
                let stored = digits(contact.phone)
                return stored == typedDigits
                    || (typedDigits.count >= 7 && (stored.hasSuffix(typedDigits) || typedDigits.hasSuffix(stored)))
            }
            if let outcome = outcome(byPhone) { return outcome }
        }
        func names(_ c: Contact) -> [String] {
            let person = [c.firstName, c.lastName].compactMap { $0 }.joined(separator: " ")
            return [c.name, c.displayName] + (person.isEmpty ? [] : [person])
        }
        let folded = TextFolding.fold(text)
        let whole = contacts.filter { names($0).contains { TextFolding.fold($0) == folded } }
        if let outcome = outcome(whole) { return outcome }
        let part = contacts.filter { names($0).contains { TextFolding.contains($0, folded: folded) } }
        return outcome(part) ?? .none
    }

    /// "1 Salon Anna (+48 600 100 200), 2 …": the contacts a refusal names.
    public static func listed(_ contacts: [Contact]) -> String {
        contacts.map { "\($0.id ?? 0) \($0.displayName) (\($0.phone))" }.joined(separator: ", ")
    }

    /// `option` (`--contact`) names several contacts: which ones, and how to name one.
    public static func ambiguity(_ text: String, option: String, matches: [Contact]) -> TranslatableText {
        TranslatableText(
            "%s: '%s' matches %s contacts: %s; give the id or the phone number",
            [.plain(option), .plain(text), .plain(matches.count), .plain(listed(matches))])
    }

    /// `option` names no contact: the contacts there are, and how to add the one meant.
    public static func noMatch(_ text: String, option: String, contacts: [Contact]) -> TranslatableText {
        let known =
            contacts.isEmpty
            ? TranslatableText("there are no contacts yet", [])
            : TranslatableText("the contacts are: %s", [.plain(listed(contacts))])
        let add =
            looksLikePhone(text)
            ? TranslatableText("beautyctl contact add NAME --phone '%s'", [.plain(text)])
            : TranslatableText("beautyctl contact add '%s' --phone NUMBER", [.plain(text)])
        return TranslatableText(
            "%s: no contact matches '%s'; %s (add one with: %s)",
            [.plain(option), .plain(text), .message(known), .message(add)])
    }

    /// True for text made only of what phone numbers are written with, with at least 3 digits.
    public static func looksLikePhone(_ text: String) -> Bool {
        text.allSatisfy { ($0.isASCII && $0.isNumber) || " -.()/".contains($0) || $0 == "+" } && digits(text).count >= 3
    }

    static func digits(_ text: String) -> String { String(text.filter { $0.isASCII && $0.isNumber }) }

    private static func outcome(_ matches: [Contact]) -> Outcome? {
        switch matches.count {
        case 0: return nil
        case 1: return .found(matches[0])
        default: return .ambiguous(matches)
        }
    }
}
