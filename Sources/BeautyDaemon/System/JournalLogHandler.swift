import CSystemd
import Foundation
import Logging

/// swift-log handler that writes structured journald entries; metadata `item_id` becomes the
/// journal field `BEAUTYD_ITEM_ID`, so `journalctl --user BEAUTYD_ITEM_ID=12` finds one item's story.
public struct JournalLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String

    public init(label: String) { self.label = label }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = [
            "MESSAGE=\(event.message)",
            "PRIORITY=\(Self.priority(event.level))",
            "SYSLOG_IDENTIFIER=beautyd",
            "CODE_FILE=\(event.file)",
            "CODE_LINE=\(event.line)",
            "CODE_FUNC=\(event.function)",
        ]
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        for (key, value) in merged {
            let name = "BEAUTYD_" + key.uppercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
            fields.append("\(name)=\(value)")
        }
        // sd_journal_send is variadic; sd_journal_sendv takes an iovec array.
        let buffers = fields.map { strdup($0)! }
        defer { buffers.forEach { free($0) } }
        var vectors = buffers.map { iovec(iov_base: UnsafeMutableRawPointer($0), iov_len: strlen($0)) }
        _ = sd_journal_sendv(&vectors, Int32(vectors.count))
    }

    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }
}
