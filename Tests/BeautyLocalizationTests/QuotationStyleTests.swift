import BeautyLocalization
import Foundation
import Testing

/// One quotation style per language: Polish „…”, Slovak „…“. Straight quotes stay only where they
/// are code the user types or a file holds (the same quoted text is in the msgid: shell examples,
/// JSON keys, CSV values).
@Suite struct QuotationStyleTests {
    static let closer: [Language: Character] = [.polish: "”", .slovak: "“"]

    /// The "…" and '…' pairs of `text` whose quoted text is not in `msgid` as it is.
    static func straightPairs(_ text: String, msgid: String) -> [String] {
        var found: [String] = []
        for quote in ["\"", "'"] {
            let parts = text.components(separatedBy: quote)
            guard parts.count >= 3 else { continue }
            for index in stride(from: 1, to: parts.count - 1, by: 2) {
                let pair = quote + parts[index] + quote
                // The same text quoted in the msgid is code; so are single-quoted values typed at a
                // shell ('jutro 9:30', '10 €') where the msgid quotes as many values its way.
                let msgidPairs = (msgid.components(separatedBy: quote).count - 1) / 2
                if msgid.contains(pair)
                    || (quote == "'" && (msgidPairs >= (parts.count - 1) / 2 || text.contains("beautyctl")))
                {
                    continue
                }
                found.append(pair)
            }
        }
        return found
    }

    @Test(arguments: Language.translated)
    func oneQuotationStyle(language: Language) throws {
        let catalog = try CatalogCoverageTests.catalog(language)
        let closer = Self.closer[language]!
        let otherClosers = Set<Character>(["”", "“", "»", "«"]).subtracting([closer])
        var wrong: [String] = []
        for entry in catalog.entries where !entry.id.isEmpty {
            for form in entry.forms {
                var open = false
                var unbalanced = false
                for character in form {
                    if character == "„" { unbalanced = unbalanced || open; open = true }
                    if character == closer { unbalanced = unbalanced || !open; open = false }
                    if otherClosers.contains(character) { unbalanced = true }
                }
                let straight = Self.straightPairs(form, msgid: entry.id)
                if unbalanced || open || !straight.isEmpty { wrong.append("\(form)  \(straight)") }
            }
        }
        #expect(
            wrong.isEmpty,
            "\(language): quote with „…\(closer), straight quotes only for code the msgid has too:\n\(wrong.joined(separator: "\n"))"
        )
    }

    @Test func theRuleSeesStraightQuotesAroundProse() {
        #expect(Self.straightPairs("Podaj '%s' lub '%s'.", msgid: "Give %s or %s.") == ["'%s'", "'%s'"])
        #expect(Self.straightPairs(#"przecinek w CSV: "250,5""#, msgid: #"a comma in CSV: "250,5""#).isEmpty)
    }
}
