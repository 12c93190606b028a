import BeautyLocalization
import Foundation

/// The language of the user's session, which notifications (and SMS texts a client asks for
/// without a language) follow unless `[ui] language` says otherwise. At start it is beautyd's
/// environment's; on each reload (SIGHUP) it is read again: under a systemd user manager
/// (`MANAGERPID` is set) from the manager's environment as it is now, which a desktop updates when
/// the user changes the language (`systemctl --user set-environment LANG=pl_PL.UTF-8`,
/// `import-environment`), since beautyd's own environment never changes after start.
/// beautyd makes one from its environment and hands it to `makeDaemon`, whose `SettingsBox` holds it.
public final class SessionLanguage: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Language

    public init(_ language: Language) { value = language }

    public var language: Language { lock.withLock { value } }

    /// Reads the session's language again (see the type); returns it.
    @discardableResult
    public func refresh(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        managerEnvironment: () -> [String: String]? = SessionLanguage.systemdManagerEnvironment
    ) -> Language {
        let language = Self.choose(
            environment: environment, manager: environment["MANAGERPID"] != nil ? managerEnvironment() : nil)
        lock.withLock { value = language }
        return language
    }

    /// The manager's environment when there is one to ask, else the process's.
    public static func choose(environment: [String: String], manager: [String: String]?) -> Language {
        Language.fromEnvironment(manager ?? environment)
    }

    /// `systemctl --user show-environment`, as KEY=VALUE pairs; nil when it fails or takes over 2 s.
    /// Through popen rather than Foundation's Process, which would start libdispatch threads that
    /// keep waking an idle daemon.
    public static func systemdManagerEnvironment() -> [String: String]? {
        guard let pipe = popen("/usr/bin/timeout 2 /usr/bin/systemctl --user show-environment 2>/dev/null", "r") else {
            return nil
        }
        var text = ""
        var buffer = [CChar](repeating: 0, count: 4096)
        while fgets(&buffer, Int32(buffer.count), pipe) != nil {
            text += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return pclose(pipe) == 0 ? parse(text) : nil
    }

    /// "LANG=pl_PL.UTF-8\nPATH=..." -> the pairs (a value may itself contain "=").
    public static func parse(_ text: String) -> [String: String] {
        var pairs: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            pairs[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return pairs
    }
}
