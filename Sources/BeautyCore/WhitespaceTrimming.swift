import Foundation

extension String {
    /// `trimmingCharacters(in: .whitespaces)`, without Foundation's NSString round trip when there is
    /// nothing to trim (the usual case: a parser trims every value it reads). An ASCII byte other than
    /// space and tab is never in `.whitespaces`; anything else takes Foundation's path.
    public func trimmingWhitespace() -> String {
        guard let first = utf8.first, let last = utf8.last, Self.isNonWhitespaceASCII(first),
            Self.isNonWhitespaceASCII(last)
        else { return trimmingCharacters(in: .whitespaces) }
        return self
    }

    private static func isNonWhitespaceASCII(_ byte: UInt8) -> Bool {
        byte < 0x80 && byte != 0x20 && byte != 0x09
    }
}
