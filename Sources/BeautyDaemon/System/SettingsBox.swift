import Foundation

/// The live configuration, swapped on SIGHUP, with the session's language it falls back to (read
/// again on SIGHUP too).
public final class SettingsBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: DaemonConfig
    public let session: SessionLanguage

    public init(_ config: DaemonConfig, session: SessionLanguage) {
        value = config
        self.session = session
    }

    /// The configuration file's settings, with the session's language as it is now.
    public var config: DaemonConfig {
        get {
            var config = lock.withLock { value }
            config.sessionLanguage = session.language
            return config
        }
        set { lock.withLock { value = newValue } }
    }
}
