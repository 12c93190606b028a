import BeautyLocalization
import Foundation

/// Bad input from a user, with a message that names the field and the problem. A message made
/// with `template:` keeps its English template and arguments, so a client can show it in its own
/// language (the daemon sends them as the error's `data.text` and `data.args`).
public struct ValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var message: String
    public var template: String?
    public var arguments: [String] = []
    /// At an argument's index, that argument as a message of its own (see `TranslatableText`).
    public var argTexts: [TranslatableText?]?

    public init(field: String, _ message: String) {
        self.field = field
        self.message = message
    }

    /// `template` is an msgid of the catalogs (marked where it is written with `tr`), `%s` for each argument.
    public init(field: String, template: String, _ arguments: CustomStringConvertible...) {
        self.field = field
        self.template = template
        self.arguments = arguments.map(\.description)
        message = Localizer.english.trArray(template, self.arguments)
    }

    /// A message kept as it is: its template and arguments, an inner message among them.
    public init(field: String, _ text: TranslatableText) {
        self.field = field
        template = text.text
        arguments = text.args
        argTexts = text.argTexts
        message = text.english
    }

    /// The message as a template and arguments, nil when it was made as plain English text.
    public var translatable: TranslatableText? {
        template.map { TranslatableText($0, arguments, argTexts: argTexts) }
    }

    /// The message as a template: its own, or its English text when it was made as plain text.
    public var messageText: TranslatableText { translatable ?? .verbatim(message) }

    /// "field: message" as a template (its `description` in English), the message inside as `messageText`.
    public var textWithField: TranslatableText {
        TranslatableText("%s: %s", [.message(ErrorFieldName.text(field)), .message(messageText)])
    }

    /// The message in `l`'s language (English when it has no template).
    public func text(_ l: Localizer) -> String { translatable?.rendered(l) ?? message }

    /// The same problem of an item of a list: `appointments[3].title` for `title`, the message unchanged.
    public func within(_ prefix: String) -> ValidationError {
        var error = self
        error.field = "\(prefix).\(field)"
        return error
    }

    /// `within(prefix)` with the item's name after the message, "must not be empty (Haircut)": the
    /// message stays a template of its own inside, so a client translates both.
    public func within(_ prefix: String, naming item: String) -> ValidationError {
        var error = ValidationError(field: "\(prefix).\(field)", template: "%s (%s)", message, item)
        error.argTexts = translatable.map { [$0, nil] }
        return error
    }

    public var description: String { "\(field): \(message)" }

    /// The same field and English message are the same error, however it was made.
    public static func == (a: ValidationError, b: ValidationError) -> Bool {
        a.field == b.field && a.message == b.message
    }
}
