import Foundation

/// The live configuration, swapped on SIGHUP.
public final class SettingsBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: DaemonConfig

    public init(_ config: DaemonConfig) { value = config }

    public var config: DaemonConfig {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
