import Dispatch
import Foundation

/// The user's current time zone, followed live: `$TZ` when set (it cannot change for a running
/// process), otherwise the zone of `/etc/localtime` (a link, or a regular file matched by content),
/// watched with inotify so a change (timedatectl set-timezone, a copied zone file, travelling)
/// re-plans local-time schedules at once. `BEAUTYD_LOCALTIME` names another file to watch (tests).
public final class LocalZone: @unchecked Sendable {
    public static let shared = LocalZone()

    private let lock = NSLock()
    private var zone: TimeZone
    private let filePath: String
    private let fixed: Bool
    private var source: DispatchSourceRead?

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        filePath = environment["BEAUTYD_LOCALTIME"] ?? "/etc/localtime"
        if let tz = environment["TZ"], !tz.isEmpty,
            let zone = TimeZone(identifier: tz.hasPrefix(":") ? String(tz.dropFirst()) : tz)
        {
            self.zone = zone
            fixed = true
        } else {
            zone = ZoneFile.zone(at: filePath) ?? .current
            fixed = false
        }
    }

    public var current: TimeZone { lock.withLock { zone } }

    /// Calls `onChange` (on `queue`) whenever the zone really changes. No-op when `$TZ` pins it.
    public func watch(queue: DispatchQueue, onChange: @escaping @Sendable (TimeZone) -> Void) {
        guard !fixed else { return }
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return }
        let directory = (filePath as NSString).deletingLastPathComponent
        let name = (filePath as NSString).lastPathComponent
        let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_ATTRIB)
        guard inotify_add_watch(fd, directory, mask) >= 0 else { close(fd); return }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { @Sendable [weak self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            var touched = false
            while true {
                let count = Glibc.read(fd, &buffer, buffer.count)
                guard count > 0 else { break }
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let (length, eventName) = buffer.withUnsafeBytes { raw -> (Int, String) in
                        let event = raw.load(fromByteOffset: offset, as: inotify_event.self)
                        let nameStart = offset + MemoryLayout<inotify_event>.size
                        let bytes = raw[nameStart..<min(nameStart + Int(event.len), count)].prefix { $0 != 0 }
                        return (Int(event.len), String(decoding: bytes, as: UTF8.self))
                    }
                    if eventName == name { touched = true }
                    offset += MemoryLayout<inotify_event>.size + length
                }
            }
            guard touched, let self, let zone = ZoneFile.zone(at: self.filePath) else { return }
            let changed = self.lock.withLock { () -> Bool in
                guard zone.identifier != self.zone.identifier else { return false }
                self.zone = zone
                return true
            }
            if changed { onChange(zone) }
        }
        source.setCancelHandler { close(fd) }
        source.resume()
        lock.withLock { self.source = source }
    }
}
