import Foundation

/// Which IANA zone a localtime file stands for: the zoneinfo file it links to, or, when it is a
/// regular file (some tools copy the zone's file over /etc/localtime instead of linking it), the
/// zone whose zoneinfo file has the same content.
public enum ZoneFile {
    public static let zoneinfo = "/usr/share/zoneinfo"

    /// Nil when the file is missing, not a TZif file (e.g. half written), or matches no zone.
    public static func zone(at path: String, zoneinfo: String = zoneinfo) -> TimeZone? {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path),
            let range = target.range(of: "zoneinfo/"),
            let zone = TimeZone(identifier: String(target[range.upperBound...]))
        {
            return zone
        }
        guard let content = FileManager.default.contents(atPath: path), content.starts(with: Array("TZif".utf8)) else {
            return nil
        }
        return identifier(of: content, in: zoneinfo).flatMap(TimeZone.init(identifier:))
    }

    /// The first zone, canonical names first, whose zoneinfo file is byte for byte `content`.
    static func identifier(of content: Data, in zoneinfo: String) -> String? {
        let files = FileManager.default
        for name in candidates(in: zoneinfo) {
            let path = zoneinfo + "/" + name
            guard let size = (try? files.attributesOfItem(atPath: path))?[.size] as? Int, size == content.count,
                files.contents(atPath: path) == content, TimeZone(identifier: name) != nil
            else { continue }
            return name
        }
        return nil
    }

    /// Zone names to compare against: the canonical zones tzdata.zi lists ("Z Europe/Warsaw ..."),
    /// so a copy of Warsaw's file is Europe/Warsaw, not its alias Poland; then every other file.
    private static func candidates(in zoneinfo: String) -> [String] {
        let listed = ((try? String(contentsOfFile: zoneinfo + "/tzdata.zi", encoding: .utf8)) ?? "")
            .split(separator: "\n")
            .compactMap { line -> String? in
                let words = line.split(separator: " ", maxSplits: 2)
                return words.count >= 2 && words[0] == "Z" ? String(words[1]) : nil
            }
        let skipped: Set<String> = ["posix", "right", "localtime", "posixrules", "Factory"]
        var others: [String] = []
        if let walker = FileManager.default.enumerator(atPath: zoneinfo) {
            while let name = walker.nextObject() as? String {
                if skipped.contains(name) { walker.skipDescendants(); continue }
                if name.first?.isUppercase == true, walker.fileAttributes?[.type] as? FileAttributeType == .typeRegular
                {
                    others.append(name)
                }
            }
        }
        return listed + others.sorted()
    }
}
