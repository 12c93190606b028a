import BeautyLocalization

/// A problem in a file the user gave (a calendar, a water export), with the 1-based line where it is,
/// kept as a template and arguments so it is shown in the user's language.
public struct LineError: Error, Sendable, Equatable, CustomStringConvertible {
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

    /// In the language of `l`, ready for a terminal: its arguments are the file's own text, and an
    /// escape sequence in a calendar, card or export must not reach the screen.
    public func message(_ l: Localizer) -> String { Validation.quotable(text.rendered(l)) }

    public var description: String { "line \(line): \(message)" }

    /// The same line and English message are the same problem, however it was made.
    public static func == (a: LineError, b: LineError) -> Bool { a.line == b.line && a.message == b.message }
}
