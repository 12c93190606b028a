import BeautyTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// The receiving end of sd_notify, as systemd has it.

private func socketAddress(_ path: String) throws -> sockaddr_un {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
        throw HarnessError("socket path too long for sun_path: \(path)")
    }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        raw.copyBytes(from: bytes)
        raw[bytes.count] = 0
    }
    return address
}

private func withSocketAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) throws -> R {
    var address = try socketAddress(path)
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}

/// Waits until `fd` is readable; false on timeout.
private func readable(_ fd: Int32, within timeout: Duration) -> Bool {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
    return poll(&entry, 1, max(milliseconds, 0)) > 0
}

/// The receiving end of `$NOTIFY_SOCKET`: a bound datagram socket, as systemd has.
final class NotifyListener {
    let path: String
    private let fd: Int32
    /// Every datagram received so far, in order.
    private(set) var messages: [String] = []

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: errno \(errno)") }
        let bound = try withSocketAddress(path) { bind(fd, $0, $1) }
        guard bound == 0 else { throw HarnessError("bind \(path): errno \(errno)") }
    }

    /// Receives datagrams until one satisfies `match`, or nil after `timeout`.
    func next(within timeout: Duration = .seconds(15), where match: (String) -> Bool) -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard readable(fd, within: .milliseconds(100)) else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { continue }
            let message = String(decoding: buffer[..<count], as: UTF8.self)
            messages.append(message)
            if match(message) { return message }
        }
        return nil
    }

    deinit { close(fd) }
}
