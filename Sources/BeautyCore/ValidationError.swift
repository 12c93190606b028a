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

    public var description: String { "\(field): \(message)" }

    /// The same field and English message are the same error, however it was made.
    public static func == (a: ValidationError, b: ValidationError) -> Bool { a.field == b.field && a.message == b.message }
}
