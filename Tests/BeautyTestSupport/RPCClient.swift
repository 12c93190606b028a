import BeautyProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A deliberately plain JSON-RPC client: a blocking POSIX Unix socket with a timeout, so tests can
/// send anything (broken JSON, huge lines, half lines) and read exactly what comes back.
package final class RPCClient {
    package let path: String
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var nextID: Int64 = 1

    /// Connects, trying again while the socket is not there or refuses (a daemon starting), up to `within`.
    package static func connected(to path: String, within: Duration, timeout: TimeInterval = 10) async throws
        -> RPCClient
    {
        let deadline = ContinuousClock.now + within
        while true {
            do {
                return try RPCClient(path: path, timeout: timeout)
            } catch  where ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    package init(path: String, timeout: TimeInterval = 5) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket(): \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // Every property is set by now, so a throw below runs deinit, which closes `fd`: closing it
        // here too would close whatever another thread opened under the same number meanwhile.
        guard path.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw HarnessError("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            throw HarnessError("connect(\(path)): \(String(cString: strerror(errno)))")
        }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { Glibc.close(fd) }

    /// Writes these bytes as they are (no newline added).
    package func send(bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw HarnessError("send to \(path): \(String(cString: strerror(errno)))") }
            offset += n
        }
    }

    package func send(line: String) throws {
        try send(bytes: Array((line + "\n").utf8))
    }

    /// The next `\n`-terminated line, without the newline; throws on timeout or EOF.
    package func readLine() throws -> Data {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { throw HarnessError("\(path): the daemon closed the connection") }
            if n < 0 {
                if errno == EINTR { continue }
                throw HarnessError("\(path): no answer (\(String(cString: strerror(errno))))")
            }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    /// Shuts down the write side, as `echo ... | socat` does at the end of its input.
    package func finishSending() { shutdown(fd, Int32(SHUT_WR)) }

    /// The next line as text, nil at the end of the stream or on timeout.
    package func nextLine() -> String? { (try? readLine()).map { String(decoding: $0, as: UTF8.self) } }

    /// Sends one line and parses the answer line as a JSON object.
    package func roundTrip(_ line: String) throws -> [String: Any] {
        try send(line: line)
        let answer = try readLine()
        guard let object = try JSONSerialization.jsonObject(with: answer) as? [String: Any] else {
            throw HarnessError("answer is not a JSON object: \(String(decoding: answer, as: UTF8.self))")
        }
        return object
    }

    /// A well-formed request; the answer's `result` decoded as `R`, or its `error` thrown.
    package func call<P: Encodable & Sendable, R: Decodable>(_ method: String, _ params: P, as: R.Type = R.self) throws
        -> R
    {
        let id = nextID
        nextID += 1
        let request = RPCRequest(id: .number(id), method: method, params: params)
        try send(bytes: Array(try WireJSON.encoder().encode(request)) + [UInt8(ascii: "\n")])
        let line = try readLine()
        let response = try WireJSON.decoder().decode(RPCResponse<R>.self, from: line)
        guard response.id == .number(id) else {
            throw HarnessError(
                "answer for id \(String(describing: response.id)), expected \(id): \(String(decoding: line, as: UTF8.self))"
            )
        }
        if let error = response.error { throw error }
        guard let result = response.result else {
            throw HarnessError("no result in \(String(decoding: line, as: UTF8.self))")
        }
        return result
    }

    package func status() throws -> StatusResult { try call("status", NoParams()) }

    package func show(_ id: Int64) throws -> AppointmentDetail { try call("appointment.show", IDParams(id: id)) }
}

extension [String: Any] {
    /// `error.code` of a JSON-RPC answer.
    package var errorCode: RPCErrorCode? {
        ((self["error"] as? [String: Any])?["code"] as? Int).flatMap(RPCErrorCode.init(rawValue:))
    }
    package var errorMessage: String? { (self["error"] as? [String: Any])?["message"] as? String }
}
