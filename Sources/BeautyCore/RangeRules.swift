import Foundation

/// The one rule for a `from`/`to` pair, either of which may be left out. Instants make a half-open
/// range, `from <= t < to`, so `to` must come after `from`; calendar days make a closed one, both days
/// included, so `to` may be `from` but not before it.
extension Validation {
    public enum RangeBounds: Sendable {
        /// Instants: `from` included, `to` not.
        case halfOpen
        /// Calendar days: both included.
        case closed
    }

    /// `toField` names the end in the error; `fromName` is how the message names the start (`'from'`, `--from`,
    /// or a message such as "the start date", translated with the error).
    public static func range<T: Comparable>(
        from: T?, to: T?, _ bounds: RangeBounds,
        toField: String = "to", fromName: TranslatableText.Argument = "'from'"
    ) throws {
        guard let from, let to else { return }
        switch bounds {
        case .halfOpen:
            guard to > from else {
                throw ValidationError(field: toField, TranslatableText("must be after %s", [fromName]))
            }
        case .closed:
            guard to >= from else {
                throw ValidationError(
                    field: toField, TranslatableText("must not be before %s %s", [fromName, .plain("\(from)")]))
            }
        }
    }
}
