import BeautyDaemon
import Foundation
import Testing

/// Reading the zone a localtime file stands for, whether it is a link or a copied zone file.
@Suite struct ZoneFileTests {
    let directory: String = {
        let path = NSTemporaryDirectory() + "zonefile-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    func copy(of zone: String, bytes: Int? = nil) throws -> String {
        let path = directory + "/localtime-" + UUID().uuidString
        let content = try Data(contentsOf: URL(fileURLWithPath: ZoneFile.zoneinfo + "/" + zone))
        try content.prefix(bytes ?? content.count).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [
        ("Europe/Warsaw", "Europe/Warsaw"), ("Poland", "Europe/Warsaw"), ("America/New_York", "America/New_York"),
        ("UTC", "Etc/UTC"), ("Asia/Kolkata", "Asia/Kolkata"),
    ])
    func aCopiedZoneFileIsKnownByItsContentUnderItsCanonicalName(_ copied: String, _ canonical: String) throws {
        let path = try copy(of: copied)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(ZoneFile.zone(at: path)?.identifier == canonical)
    }

    @Test func aLinkIsKnownByItsTarget() throws {
        let path = directory + "/localtime"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createSymbolicLink(
            atPath: path, withDestinationPath: ZoneFile.zoneinfo + "/Europe/Warsaw")
        #expect(ZoneFile.zone(at: path)?.identifier == "Europe/Warsaw")
    }

    @Test func halfWrittenMissingOrForeignFilesAreNoZone() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(ZoneFile.zone(at: try copy(of: "Europe/Warsaw", bytes: 0)) == nil)
        #expect(ZoneFile.zone(at: try copy(of: "Europe/Warsaw", bytes: 100)) == nil)
        #expect(ZoneFile.zone(at: directory + "/missing") == nil)
        let text = directory + "/text"
        try "Europe/Warsaw\n".write(toFile: text, atomically: false, encoding: .utf8)
        #expect(ZoneFile.zone(at: text) == nil)
    }
}
