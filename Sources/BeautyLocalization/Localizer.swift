import Foundation

/// Translates beautyd's English messages into one language. The marker calls `tr("...")` and
/// `trn("...", "...", n)` take string literals only: `CatalogCoverageTests` finds every msgid in
/// the sources by them and fails when a catalog lacks one.
///
/// Arguments replace `%s` in order, or `%1$s`, `%2$s`... by position (a translation may reorder
/// them); they are already text (numbers and dates formatted by `LocaleFormat`).
public struct Localizer: Sendable {
    public let language: Language
    private let catalog: MessageCatalog

    public init(language: Language, catalog: MessageCatalog) {
        self.language = language
        self.catalog = catalog
    }

    /// English: the msgids themselves.
    public static let english = Localizer(language: .english, catalog: MessageCatalog())

    /// The localizer for `language` with its installed catalog (English when it has none).
    public static func forLanguage(_ language: Language) -> Localizer {
        guard language != .english, let catalog = InstalledCatalogs.shared.catalog(language) else { return english }
        return Localizer(language: language, catalog: catalog)
    }

    /// This process's language from its environment.
    public static var current: Localizer { forLanguage(.current) }

    public func tr(_ msgid: String, _ arguments: CustomStringConvertible...) -> String {
        trArray(msgid, arguments.map(\.description))
    }

    /// `tr` for an msgid chosen at run time (an error's text sent by the daemon); nothing extracts it.
    public func trArray(_ msgid: String, _ arguments: [String], context: String? = nil) -> String {
        Self.fill(catalog.forms(context: context, id: msgid)?.first ?? msgid, arguments)
    }

    /// `tr` with a context, for one English word that translates differently in two places.
    public func trc(_ context: String, _ msgid: String, _ arguments: CustomStringConvertible...) -> String {
        trArray(msgid, arguments.map(\.description), context: context)
    }

    /// The plural form for `count`; with no arguments, `%s` is `count` as the language writes it.
    public func trn(_ singular: String, _ plural: String, _ count: Int, _ arguments: CustomStringConvertible...)
        -> String
    {
        let args = arguments.isEmpty ? [LocaleFormat(language).integer(count)] : arguments.map(\.description)
        if let forms = catalog.forms(id: singular) {
            let index = language.pluralIndex(count)
            if index < forms.count, !forms[index].isEmpty { return Self.fill(forms[index], args) }
        }
        return Self.fill(count == 1 ? singular : plural, args)
    }

    /// Replaces `%s` (in order), `%n$s` (by position) and `%%`.
    static func fill(_ template: String, _ arguments: [String]) -> String {
        guard template.contains("%") else { return template }
        var out = ""
        var next = 0
        var index = template.startIndex
        while index < template.endIndex {
            let character = template[index]
            guard character == "%" else {
                out.append(character)
                index = template.index(after: index)
                continue
            }
            let rest = template[template.index(after: index)...]
            if rest.hasPrefix("%") {
                out.append("%")
                index = template.index(index, offsetBy: 2)
            } else if rest.hasPrefix("s") {
                out += next < arguments.count ? arguments[next] : ""
                next += 1
                index = template.index(index, offsetBy: 2)
            } else if let dollar = rest.firstIndex(of: "$"), let position = Int(rest[rest.startIndex..<dollar]),
                template[template.index(after: dollar)...].hasPrefix("s")
            {
                out += position >= 1 && position <= arguments.count ? arguments[position - 1] : ""
                index = template.index(dollar, offsetBy: 2)
            } else {
                out.append(character)
                index = template.index(after: index)
            }
        }
        return out
    }
}

/// The catalogs found beside the program, read once on first use.
final class InstalledCatalogs: @unchecked Sendable {
    static let shared = InstalledCatalogs()
    private let lock = NSLock()
    private var loaded: [Language: MessageCatalog?] = [:]

    func catalog(_ language: Language) -> MessageCatalog? {
        lock.withLock {
            if let known = loaded[language] { return known }
            let catalog = CatalogDirectory.find().flatMap { dir -> MessageCatalog? in
                guard let data = FileManager.default.contents(atPath: "\(dir)/\(language.rawValue).po") else {
                    return nil
                }
                return try? MessageCatalog(po: String(decoding: data, as: UTF8.self))
            }
            loaded[language] = catalog
            return catalog
        }
    }
}
