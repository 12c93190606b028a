import Foundation

/// File names for new calendar resources: the UID itself when it is made of characters every server and
/// URL keeps as they are, otherwise its safe characters and a hash of the whole UID, so that two UIDs
/// never share a name and the same UID always gets the same one.
enum ResourceName {
    private static let longest = 120

    static func fileName(forUID uid: String) -> String {
        let safe = uid.unicodeScalars.filter(isSafe)
        if safe.count == uid.unicodeScalars.count, !uid.isEmpty, uid.count <= longest, !uid.hasPrefix(".") {
            return uid + ".ics"
        }
        let prefix = String(String.UnicodeScalarView(safe.prefix(longest - 17))).trimmingCharacters(
            in: CharacterSet(charactersIn: "."))
        return (prefix.isEmpty ? "" : prefix + "-") + fnv1a(uid) + ".ics"
    }

    private static func isSafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": return true
        default: return false
        }
    }

    /// FNV-1a, 64 bits, as 16 hex digits: stable across runs and platforms (Hasher is seeded per process).
    private static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
