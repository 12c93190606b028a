import BeautyCore
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

    /// Every record passes here, so text a server or a file put into a message or its metadata
    /// reaches the journal or stderr escaped.
    func log(event: LogEvent) {
        var escaped = event
        escaped.message = "\(Validation.escapedForLog(event.message.description))"
        escaped.metadata = event.metadata?.mapValues(Self.escaped)
        inner.log(event: escaped)
    }

    private static func escaped(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case let .string(text): .string(Validation.escapedForLog(text))
        case let .stringConvertible(item): .string(Validation.escapedForLog(item.description))
        case let .array(items): .array(items.map(escaped))
        case let .dictionary(entries): .dictionary(entries.mapValues(escaped))
        }
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
