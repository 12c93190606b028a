import BeautyLocalization
/// A problem in a file the user gave (a calendar, a water export), with the 1-based line where it is.
public struct LineError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var message: String

    /// The refusal behind `message` when it has a template, so a reader can have it in their language.
    public var refusal: ValidationError?

    public init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }

    /// A refusal of this line; a field other than "line" names the column it is about.
    public init(line: Int, _ refusal: ValidationError) {
        self.line = line
        message = refusal.field == "line" ? refusal.message : refusal.description
        self.refusal = refusal
    }

    /// `message` in the language of `l`, when it came with a template.
    public func message(_ l: Localizer) -> String {
        guard let refusal, let template = refusal.template else { return message }
        let text = l.trArray(template, refusal.arguments)
        return refusal.field == "line" ? text : "\(refusal.field): \(text)"
    }

    public var description: String { "line \(line): \(message)" }
}
