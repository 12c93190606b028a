import BeautyLocalization

/// A message kept as its English template (an msgid of the catalogs, `%s` for each argument) and
/// its arguments, so whoever shows it renders it in the reader's language: the daemon sends errors
/// this way, and an import reports its warnings so. An argument may be a message of its own (an
/// error wrapped with the item it is about), rendered in the same language before it is filled in.
/// Coded as the wire's error `data` codes it: `text`, `args`, `argTexts`.
public struct TranslatableText: Codable, Sendable, Equatable {
    /// The msgid.
    public var text: String
    /// Every argument as English text (one that is a message: its English rendering), for a reader
    /// that does not translate.
    public var args: [String]
    /// At an argument's index, that argument as a message of its own; nil when none is.
    public var argTexts: [TranslatableText?]?

    public init(_ text: String, _ args: [String], argTexts: [TranslatableText?]? = nil) {
        self.text = text
        self.args = args
        self.argTexts = argTexts?.contains { $0 != nil } == true ? argTexts : nil
    }

    /// `template` filled with `arguments`, each either text or a message of its own.
    public init(_ template: String, _ arguments: [Argument]) {
        self.init(template, arguments.map { $0.english }, argTexts: arguments.map(\.message))
    }

    /// An argument of a message: plain text (a name, a formatted number) or a message of its own.
    public struct Argument: Sendable, ExpressibleByStringLiteral {
        let english: String
        let message: TranslatableText?

        init(english: String, message: TranslatableText?) {
            self.english = english
            self.message = message
        }

        /// A literal is plain text (an option name).
        public init(stringLiteral value: String) { self.init(english: value, message: nil) }

        public static func plain(_ value: CustomStringConvertible) -> Argument {
            Argument(english: value.description, message: nil)
        }
        public static func message(_ text: TranslatableText) -> Argument {
            Argument(english: text.english, message: text)
        }
    }

    /// Text that is no msgid (a library's own words), shown as it is in every language.
    public static func verbatim(_ text: String) -> TranslatableText {
        TranslatableText(text.replacingOccurrences(of: "%", with: "%%"), [])
    }

    public func rendered(_ l: Localizer) -> String {
        let filled = args.indices.map { index in
            guard let inner = argTexts.flatMap({ index < $0.count ? $0[index] : nil }) else { return args[index] }
            return inner.rendered(l)
        }
        return l.trArray(text, filled)
    }

    public var english: String { rendered(.english) }
}
