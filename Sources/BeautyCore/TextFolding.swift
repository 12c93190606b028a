import Foundation

/// The one way beautyd compares text as people search it: ignoring case and diacritics in every
/// language, so `krakow` finds "Kraków", `zlta` finds "žltá" and `LODZ` finds "Łódź".
///
/// Letters without a canonical decomposition (ł, ø, đ, ß, æ, œ, þ, ħ, ı) are folded by hand: Unicode
/// does not split them into a base letter and a mark, so Foundation's diacritic-insensitive folding
/// keeps them. Not `String.folding` on every call: it costs 1.7 µs for a 40-character title on Linux,
/// which an agenda search over 100,000 appointments pays three times per appointment.
public enum TextFolding {
    /// `text` lower-cased, without diacritics, with the letters above spelled in plain Latin.
    public static func fold(_ text: String) -> String {
        String(decoding: foldedUTF8(text), as: UTF8.self)
    }

    /// Whether `needle`, folded already, occurs in `text` once folded. An empty needle occurs everywhere.
    public static func contains(_ text: String, folded needle: String) -> Bool {
        var wanted = needle, contiguous = text
        return wanted.withUTF8 { wanted in
            guard !wanted.isEmpty else { return true }
            return contiguous.withUTF8 { bytes in
                // Most titles and addresses are ASCII: lower-cased on the fly, nothing is copied.
                if bytes.allSatisfy({ $0 < 0x80 }) { return find(wanted, in: bytes, lowercasing: true) }
                return foldedUTF8(text).withUnsafeBufferPointer { find(wanted, in: $0, lowercasing: false) }
            }
        }
    }

    /// Whether `wanted` occurs in `haystack` (its ASCII capitals lower-cased when `lowercasing`).
    /// Both sides are folded, so equal text is equal bytes.
    private static func find(
        _ wanted: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>, lowercasing: Bool
    ) -> Bool {
        guard haystack.count >= wanted.count else { return false }
        func byte(_ index: Int) -> UInt8 {
            let byte = haystack[index]
            return lowercasing && byte >= 65 && byte <= 90 ? byte + 32 : byte
        }
        for start in 0...(haystack.count - wanted.count) where byte(start) == wanted[0] {
            var at = 1
            while at < wanted.count, byte(start + at) == wanted[at] { at += 1 }
            if at == wanted.count { return true }
        }
        return false
    }

    /// The UTF-8 of the folded text, built without intermediate strings: searches fold every title,
    /// note and address of the agenda's range.
    static func foldedUTF8(_ text: String) -> [UInt8] {
        var folded: [UInt8] = []
        folded.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                folded.append(byte >= 65 && byte <= 90 ? byte + 32 : byte)
                continue
            }
            // Latin letters of either case are in the table; other scripts are lower-cased first.
            if let plain = latinLetters[scalar] {
                folded.append(contentsOf: plain.utf8)
                continue
            }
            for lower in scalar.properties.lowercaseMapping.unicodeScalars {
                if lower.isASCII {
                    folded.append(UInt8(lower.value))
                } else if let plain = latinLetters[lower] {
                    folded.append(contentsOf: plain.utf8)
                } else if lower.properties.generalCategory != .nonspacingMark {
                    folded.append(contentsOf: String(lower).utf8)
                }
            }
        }
        return folded
    }

    /// Letters Unicode does not decompose, in lower case (Foundation folds their capitals to these).
    static let undecomposable: [Unicode.Scalar: String] = [
        "ł": "l", "ø": "o", "đ": "d", "ð": "d", "ß": "ss", "æ": "ae", "œ": "oe", "þ": "th",
        "ħ": "h", "ı": "i", "ŧ": "t", "ŀ": "l", "ĸ": "k", "ŋ": "n", "ƒ": "f", "ɨ": "i", "ƶ": "z",
    ]

    /// Every Latin letter with a diacritic (Latin-1 Supplement, Extended-A and -B, Extended Additional),
    /// folded once by Foundation, then the hand-folded ones.
    static let latinLetters: [Unicode.Scalar: String] = {
        var table: [Unicode.Scalar: String] = [:]
        for value in Array(0x00C0...0x024F) + Array(0x1E00...0x1EFF) {
            guard let scalar = Unicode.Scalar(value), scalar.properties.isAlphabetic else { continue }
            let plain = String(scalar).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                .unicodeScalars.map { undecomposable[$0] ?? String($0) }.joined()
            if plain != String(scalar) { table[scalar] = plain }
        }
        for (letter, plain) in undecomposable { table[letter] = plain }
        return table
    }()
}
