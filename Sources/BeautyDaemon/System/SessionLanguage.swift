import BeautyLocalization
import Foundation

/// The language of the user's session, which notifications (and SMS texts a client asks for
/// without a language) follow unless `[ui] language` says otherwise. At start it is beautyd's
/// environment's; on each reload (SIGHUP) it is read again: under a systemd user manager
/// (`MANAGERPID` is set) from the manager's environment as it is now, which a desktop updates when
/// the user changes the language (`systemctl --user set-environment LANG=pl_PL.UTF-8`,
/// `import-environment`), since beautyd's own environment never changes after start.
public final class SessionLanguage: @unchecked Sendable {
    public static let shared = SessionLanguage(Language.current)

    private let lock = NSLock()
    private var value: Language

    public init(_ language: Language) { value = language }

    public var language: Language { lock.withLock { value } }

    /// Reads the session's language again (see the type); returns it.
    @discardableResult
    public func refresh(environment: [String: String] = ProcessInfo.processInfo.environment,
                        managerEnvironment: () -> [String: String]? = SessionLanguage.systemdManagerEnvironment) -> Language {
        let language = Self.choose(environment: environment, manager: environment["MANAGERPID"] != nil ? managerEnvironment() : nil)
        lock.withLock { value = language }
        return language
    }

    /// The manager's environment when there is one to ask, else the process's.
    public static func choose(environment: [String: String], manager: [String: String]?) -> Language {
        Language.fromEnvironment(manager ?? environment)
    }

    /// `systemctl --user show-environment`, as KEY=VALUE pairs; nil when it fails or takes over 2 s.
    public static func systemdManagerEnvironment() -> [String: String]? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemctl")
        process.arguments = ["--user", "show-environment"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        guard (try? process.run()) != nil else { return nil }
        // An environment fits the pipe's buffer, so systemctl finishes without being read first.
        guard done.wait(timeout: .now() + .seconds(2)) == .success else {
            process.terminate()
            return nil
        }
        guard process.terminationStatus == 0 else { return nil }
        return parse(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
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
