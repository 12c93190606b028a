import Foundation

/// Where the `.po` catalogs are at run time. They are read as they are written (no `.mo` step):
/// a built program finds them in the resource directory SwiftPM copies beside it, an installed
/// one in `<prefix>/share/beautyd/po` (config/setup.sh puts them there), and
/// `$BEAUTYD_LOCALE_DIR` overrides both.
public enum CatalogDirectory {
    public static let resourceBundleName = "beautyd_BeautyLocalization.resources"

    /// The candidate directories, best first, for a program at `executable`.
    public static func candidates(executable: String, environment: [String: String]) -> [String] {
        let bin = (executable as NSString).deletingLastPathComponent
        var list: [String] = []
        if let dir = environment["BEAUTYD_LOCALE_DIR"], !dir.isEmpty { list.append(dir) }
        list.append("\(bin)/\(resourceBundleName)/po")
        list.append(
            ((bin as NSString).deletingLastPathComponent as NSString).appendingPathComponent("share/beautyd/po"))
        return list
    }

    /// The first candidate holding a catalog, or nil (everything is then English).
    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return candidates(executable: executable, environment: environment).first { dir in
            Language.translated.contains { FileManager.default.fileExists(atPath: "\(dir)/\($0.rawValue).po") }
        }
    }
}
