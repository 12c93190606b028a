import BeautyTestSupport
import Foundation
import Testing

/// beautyctl prints nothing in English only: a literal with words on a line that prints (`Output.line`,
/// `Output.warn`, `CLIFailure`, an import summary, a direct write), wherever it stands there, must be the
/// text of a marker call (`Output.l.tr`, `trn`, `trc`).
@Suite struct UnmarkedOutputTests {
    /// The text of the string literal opening at `start` (just after its quote), interpolations left out.
    static func plainText(_ line: [Character], from start: Int) -> String { literal(line, from: start).text }

    /// The literal opening at `start`: its text without interpolations, and the index of its closing quote.
    static func literal(_ line: [Character], from start: Int) -> (text: String, end: Int) {
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
        return (text, index)
    }

    /// Where printed text starts: an output call, a failure, an import summary, a write to a file handle
    /// or through a helper (a progress line).
    static let printing = try! NSRegularExpression(
        pattern: #"(Output\.line\(|Output\.warn\(|CLIFailure\([a-zA-Z.]+,|summary\.print\(|\bwrite\()"#)
    /// A literal that is the message (or context, or plural) of a marker call.
    static let marked = try! NSRegularExpression(
        pattern: #"(\b(tr|trn|trc)\(\s*|\b(trn|trc)\(\s*"(?:[^"\\]|\\.)*"\s*,\s*)$"#)

    /// The English words printed from `line` without a marker call: every string literal after the
    /// start of printed text (in a ternary, a `map`, a `??`, an argument of `tr`...) that is not itself
    /// the text of a marker call; a multi-line literal counts by its first line (`next`). Commands
    /// (`beautyctl ...`) and option names are the same in every language.
    static func unmarkedTexts(_ line: String, next: String = "") -> [String] {
        guard let start = printing.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else { return [] }
        let characters = Array(line[Range(start.range, in: line)!.lowerBound...])
        var found: [String] = []
        var index = 0
        while index < characters.count {
            guard characters[index] == "\"" else { index += 1; continue }
            let before = String(characters[..<index])
            let isMarked = marked.firstMatch(in: before, range: NSRange(before.startIndex..., in: before)) != nil
            if index + 2 < characters.count, characters[index + 1] == "\"", characters[index + 2] == "\"" {
                if !isMarked, next.range(of: "[A-Za-z]{3}", options: .regularExpression) != nil {
                    found.append(next.trimmingCharacters(in: .whitespaces))
                }
                break
            }
            let (text, end) = literal(characters, from: index + 1)
            if !isMarked, text.range(of: "[A-Za-z]{3}", options: .regularExpression) != nil,
                !text.hasPrefix("beautyctl"), !text.trimmingCharacters(in: .whitespaces).hasPrefix("--")
            {
                found.append(text)
            }
            index = end + 1
        }
        return found
    }

    @Test func everyPrintedSentenceIsMarked() throws {
        let root = Locations.file("Sources/BeautyCLI")
        var found: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: root).sorted() where file.hasSuffix(".swift") {
            let lines = try String(contentsOfFile: "\(root)/\(file)", encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                let next = number + 1 < lines.count ? String(lines[number + 1]) : ""
                for text in Self.unmarkedTexts(String(line), next: next) {
                    found.append("Sources/BeautyCLI/\(file):\(number + 1): \(text)")
                }
            }
        }
        #expect(
            found.isEmpty,
            """
            English-only text printed by beautyctl; write it as Output.l.tr("... %s ...", arguments) and add it to \
            the catalogs (CatalogCoverageTests prints the entries):
            \(found.joined(separator: "\n"))
            """)
    }

    @Test func theCheckFindsTextOutsideAMarkerCall() {
        #expect(
            Self.unmarkedTexts(
                #"Output.line(result.goalMl.map { "Daily goal: \($0) ml." } ?? Output.l.tr("No goal."))"#) == [
                    "Daily goal:  ml."
                ])
        #expect(
            Self.unmarkedTexts(
                #"throw CLIFailure(.usage, Output.l.tr("refund: %s", "beautyctl budget add Refund 20"))"#
            ).isEmpty)
        #expect(
            Self.unmarkedTexts(#"throw CLIFailure(.usage, Output.l.tr("e.g. %s", "Shampoo 12,99"))"#) == [
                "Shampoo 12,99"
            ])
        #expect(Self.unmarkedTexts(#"summary.print("Imported \(n) new from \(file).")"#) == ["Imported  new from ."])
        #expect(
            Self.unmarkedTexts(#"throw CLIFailure(.unreachable, """"#, next: "    beautyd is not running") == [
                "beautyd is not running"
            ])
        #expect(
            Self.unmarkedTexts(#"throw CLIFailure(.unreachable, Output.l.tr(""""#, next: "    beautyd is not running")
                .isEmpty)
        #expect(
            Self.unmarkedTexts(#"Output.line(Output.l.trn("%s day", "%s days", n, n) + Output.l.trc("unit", "kg"))"#)
                .isEmpty)
        #expect(Self.unmarkedTexts(#"Output.line(a ? Output.l.tr("on") : "off")"#) == ["off"])
        #expect(
            Self.unmarkedTexts(#"write("\r\u{1B}[2KImporting \(done)/\(total) events…")"#) == [
                "{1B}[2KImporting / events…"
            ])
        #expect(Self.unmarkedTexts(#"try Output.write(svg, to: path, option: "--svg")"#).isEmpty)
    }

    @Test func theCheckFindsAnUnmarkedSentence() {
        let line = Array(#"Output.line("Synced \(count) items from \(url.host ?? "?")")"#)
        #expect(Self.plainText(line, from: 13) == "Synced  items from ")
        #expect(Self.plainText(Array(#"Output.line("\(a ? "x" : "y"): \(b).")"#), from: 13) == ": .")
    }
}
