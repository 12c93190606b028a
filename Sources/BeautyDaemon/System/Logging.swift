import Foundation
import Logging

/// The log level every handler reads, so SIGHUP can change it without a restart.
public final class LogLevelBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Logger.Level

    public init(_ level: Logger.Level) { value = level }

    public var level: Logger.Level {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

/// Wraps a handler so its level follows a shared `LogLevelBox`.
struct SharedLevelLogHandler<Inner: LogHandler>: LogHandler {
    var inner: Inner
    let box: LogLevelBox

    var logLevel: Logger.Level {
        get { box.level }
        set {}
    }

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        inner.log(event: event)
    }
}

enum DaemonLogging {
    /// journald with structured fields under systemd, plain stderr otherwise.
    static func bootstrap(level: LogLevelBox) {
        let toJournal = Systemd.stderrIsJournal
        LoggingSystem.bootstrap { label in
            if toJournal { return SharedLevelLogHandler(inner: JournalLogHandler(label: label), box: level) }
            return SharedLevelLogHandler(inner: StreamLogHandler.standardError(label: label), box: level)
        }
    }
}
