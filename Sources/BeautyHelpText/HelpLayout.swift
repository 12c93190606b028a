import Foundation

/// Lays a help screen out as swift-argument-parser's `HelpGenerator` does, from the same screen
/// rendered without wrapping: so a screen whose words were replaced (`ToolkitText`) wraps as if
/// ArgumentParser had written them. ArgumentParser keeps its layout internal; the rules here are its
/// rules (1.x): the overview wrapped at the screen width, `USAGE:`, headings and the footer as they
/// are, an option's or subcommand's help in a column from 26 (on a line of its own below a label
/// too long for it), a discussion below it indented by 8.
struct HelpLayout {
    let width: Int

    /// Columns wide enough that ArgumentParser wraps nothing.
    static let unwrapped = 1_000_000

    static let labelColumn = 26
    static let discussionIndent = 8

    /// ArgumentParser's width: `COLUMNS`, else the terminal's on standard output, else 80.
    static var terminalWidth: Int {
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap({ Int($0) }) { return columns }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    enum Part { case line, label, abstract }

    /// `unwrapped` with each part replaced by what `rewrite` gives for it (nil: kept), then wrapped to `width`.
    func laidOut(_ unwrapped: String, rewrite: (Part, String) -> String?) -> String {
        let lines = unwrapped.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var out: [String] = []
        // The overview and the discussion, wrapped as one text (ArgumentParser cuts a line as wide as
        // the screen when a line break follows it), then the blank line before USAGE.
        let usage = lines.firstIndex { $0.hasPrefix("USAGE: ") } ?? 0
        if usage > 0 {
            out.append(
                Self.wrapped(lines[..<(usage - 1)].map { rewrite(.line, $0) ?? $0 }.joined(separator: "\n"), to: width))
            out.append(lines[usage - 1])
        }
        for (number, line) in lines.enumerated().dropFirst(usage) {
            let indent = line.prefix { $0 == " " }.count
            let body = String(line.dropFirst(indent))
            if let rewritten = rewrite(.line, body) {
                out.append(String(repeating: " ", count: indent) + rewritten)
            } else if indent == 0 {
                out.append(line)
            } else if indent >= Self.labelColumn {
                let abstract = String(line.dropFirst(Self.labelColumn))
                out.append(Self.wrapped(rewrite(.abstract, abstract) ?? abstract, to: width, indent: Self.labelColumn))
            } else if indent == Self.discussionIndent {
                out.append(Self.wrapped(body, to: width, indent: Self.discussionIndent))
            } else if indent == 2 {
                let abstractBelow =
                    lines.indices.contains(number + 1)
                    && lines[number + 1].hasPrefix(String(repeating: " ", count: Self.labelColumn))
                let (label, abstract) = abstractBelow ? (body, "") : Self.split(line)
                out.append(
                    element(
                        label: rewrite(.label, label) ?? label,
                        abstract: abstract.isEmpty ? "" : rewrite(.abstract, abstract) ?? abstract))
            } else {
                out.append(line)
            }
        }
        return out.joined(separator: "\n")
    }

    /// An element line `  label<spaces>abstract` (the abstract from column 26) as its label and abstract.
    static func split(_ line: String) -> (label: String, abstract: String) {
        let characters = Array(line)
        guard characters.count > labelColumn, characters[labelColumn - 1] == " ", characters[labelColumn] != " " else {
            return (String(line.dropFirst(2)), "")
        }
        let label = String(characters[2..<labelColumn]).replacingOccurrences(
            of: " +$", with: "", options: .regularExpression)
        return (label, String(characters[labelColumn...]))
    }

    /// `Section.Element.rendered` of ArgumentParser, for an element without a discussion.
    func element(label: String, abstract: String) -> String {
        let padded = "  " + label
        guard !abstract.isEmpty else { return padded }
        let wrappedAbstract = Self.wrapped(abstract, to: width, indent: Self.labelColumn)
        return padded.count < Self.labelColumn
            ? padded + wrappedAbstract.dropFirst(padded.count) : padded + "\n" + wrappedAbstract
    }

    /// `wrapped(to:wrappingIndent:)` of ArgumentParser: lines cut at the last space that fits (a longer
    /// word at the space after it), each but empty ones indented by `indent`.
    static func wrapped(_ text: String, to columns: Int, indent: Int = 0) -> String {
        let columns = columns - indent
        guard columns > 0 else { return text }
        var result: [Substring] = []
        var current = text.startIndex
        while true {
            let chunk = text[current...].prefix(columns)
            if let lastLineBreak = chunk.lastIndex(of: "\n") {
                result += text[current..<lastLineBreak].split(separator: "\n", omittingEmptySubsequences: false)
                current = text.index(after: lastLineBreak)
            } else if chunk.endIndex == text.endIndex {
                result.append(text[current...])
                break
            } else if let lastSpace = chunk.lastIndex(of: " ") {
                result.append(text[current..<lastSpace])
                current = text.index(after: lastSpace)
            } else if let nextSpace = text[current...].firstIndex(of: " ") {
                result.append(text[current..<nextSpace])
                current = text.index(after: nextSpace)
            } else {
                result.append(text[current...])
                break
            }
        }
        return result.map { $0.isEmpty ? String($0) : String(repeating: " ", count: indent) + $0 }.joined(
            separator: "\n")
    }
}
