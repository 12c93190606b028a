import BeautyTestSupport
import Foundation
import Testing

/// beautyctl prints nothing in English only: a literal with words handed straight to
/// `Output.line`, `Output.warn` or `CLIFailure` (a new command's text) must go through `Output.l.tr`.
@Suite struct UnmarkedOutputTests {
    static let calls = try! NSRegularExpression(pattern: #"(Output\.line\(|Output\.warn\(|CLIFailure\(\.[a-zA-Z]+, )""#)

    /// The text of the string literal opening at `start` (just after its quote), interpolations left out.
    static func plainText(_ line: [Character], from start: Int) -> String {
        var text = "", index = start
        while index < line.count {
            let character = line[index]
            if character == "\\", index + 1 < line.count {
                guard line[index + 1] == "(" else { index += 2; continue }
                var depth = 1, inString = false
                index += 2
                while index < line.count, depth > 0 {
                    let c = line[index]
                    if c == "\\" { index += 2; continue }
                    if c == "\"" { inString.toggle() } else if !inString { depth += c == "(" ? 1 : c == ")" ? -1 : 0 }
                    index += 1
                }
                continue
            }
            if character == "\"" { break }
            text.append(character)
            index += 1
        }
        return text
    }

    @Test func everyPrintedSentenceIsMarked() throws {
        let root = Locations.file("Sources/BeautyCLI")
        var found: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: root).sorted() where file.hasSuffix(".swift") {
            let lines = try String(contentsOfFile: "\(root)/\(file)", encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() {
                let text = String(line)
                for match in Self.calls.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    let start = text.distance(from: text.startIndex, to: Range(match.range, in: text)!.upperBound)
                    let words = Self.plainText(Array(text), from: start)
                    if words.range(of: "[A-Za-z]{3}", options: .regularExpression) != nil {
                        found.append("Sources/BeautyCLI/\(file):\(number + 1): \(text.trimmingCharacters(in: .whitespaces))")
                    }
                }
            }
        }
        #expect(found.isEmpty, """
            English-only text printed by beautyctl; write it as Output.l.tr("... %s ...", arguments) and add it to \
            the catalogs (CatalogCoverageTests prints the entries):
            \(found.joined(separator: "\n"))
            """)
    }

    @Test func theCheckFindsAnUnmarkedSentence() {
        let line = Array(#"Output.line("Synced \(count) items from \(url.host ?? "?")")"#)
        #expect(Self.plainText(line, from: 13) == "Synced  items from ")
        #expect(Self.plainText(Array(#"Output.line("\(a ? "x" : "y"): \(b).")"#), from: 13) == ": .")
    }
}
