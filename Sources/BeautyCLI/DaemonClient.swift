import BeautyCore
import BeautyLocalization
import BeautyProtocol
import Foundation

/// Why a command failed, with its exit code (README lists them).
public struct CLIFailure: Error, CustomStringConvertible {
    public enum Code: Int32, Sendable {
        case refused = 1, usage = 2, unreachable = 3, notFound = 4
    }

    public var code: Code
    public var message: String
    /// What beautyd said besides the message, when it refused a request (its field and arguments).
    public var data: RPCErrorData?

    public init(_ code: Code, _ message: String, data: RPCErrorData? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public var description: String { message }
}

/// What the commands ask of beautyd: one request and its answer, a session of several on one
/// connection, the stream of its events. `DaemonClient` asks over the socket; a test passes one
/// that answers in process (`GlobalOptions.caller`).
protocol RPCCalling: Sendable {
    /// Sends `rpc` with `params` and decodes its result, mapping errors to exit codes.
    /// `waiting`: the answer may take longer than the usual 30 s (a first sync of a large calendar).
    mutating func call<P, R>(_ rpc: RPC<P, R>, _ params: P, waiting: Bool) throws -> R
    mutating func resultJSON<P, R>(_ rpc: RPC<P, R>, _ params: P) throws -> [UInt8]
    /// A connection for several requests (a staged import belongs to the connection that began it).
    func session() throws -> DaemonSession
    /// Subscribes and hands every event to `body` until the daemon goes away.
    func watch(_ body: (DaemonEvent, Data) -> Void) throws
}

extension RPCCalling {
    mutating func call<P, R>(_ rpc: RPC<P, R>, _ params: P) throws -> R { try call(rpc, params, waiting: false) }

    /// A method without params.
    mutating func call<R>(_ rpc: RPC<NoParams, R>) throws -> R { try call(rpc, NoParams()) }
}

/// A blocking JSON-RPC client over the daemon's Unix socket: one request line, one answer line.
struct DaemonClient: RPCCalling {
    let socketPath: String
    private var nextID: Int64 = 1

    init(socketPath: String) { self.socketPath = socketPath }

    mutating func call<P, R>(_ rpc: RPC<P, R>, _ params: P, waiting: Bool) throws -> R {
        try Self.decode(Data(try answerBytes(rpc, params, waiting: waiting)), as: R.self)
    }

    mutating func resultJSON<P, R>(_ rpc: RPC<P, R>, _ params: P) throws -> [UInt8] {
        try Self.resultBytes(try answerBytes(rpc, params), as: R.self)
    }

    /// An answer's result as the daemon wrote it; its error thrown as `decode` throws it.
    static func resultBytes<R: Decodable>(_ bytes: [UInt8], as: R.Type) throws -> [UInt8] {
        if let result = WireJSON.member("result", in: bytes) { return Array(bytes[result]) }
        // throws the error the answer carries, or says what is wrong with it
        _ = try Self.decode(Data(bytes), as: R.self)
        throw CLIFailure(.refused, Output.l.tr("beautyd sent an answer without a result"))
    }

    private mutating func answerBytes<P, R>(_ rpc: RPC<P, R>, _ params: P, waiting: Bool = false) throws -> [UInt8] {
        let connection = try Connection(path: socketPath, timeout: !waiting)
        defer { connection.close() }
        let request = RPCRequest(id: .number(nextID), method: rpc.method.rawValue, params: params)
        nextID += 1
        try connection.send(try WireJSON.encoder().encode(request))
        return try connection.readLineBytes()
    }

    func session() throws -> DaemonSession {
        DaemonSession(connection: try Connection(path: socketPath))
    }

    func watch(_ body: (DaemonEvent, Data) -> Void) throws {
        let connection = try Connection(path: socketPath, timeout: false)
        defer { connection.close() }
        let subscribe = ViewRPC.subscribe
        try connection.send(
            try WireJSON.encoder().encode(
                RPCRequest(id: .number(1), method: subscribe.method.rawValue, params: NoParams())))
        _ = try Self.decode(try connection.readLine(), as: SubscribeResult.self)
        while let line = try? connection.readLine() {
            guard let note = try? WireJSON.decoder().decode(RPCNotification<DaemonEvent>.self, from: line) else {
                continue
            }
            body(note.params, line)
        }
    }

    static func decode<R: Decodable>(_ line: Data, as: R.Type) throws -> R {
        let response: RPCResponse<R>
        do {
            response = try WireJSON.decoder().decode(RPCResponse<R>.self, from: line)
        } catch {
            throw CLIFailure(
                .refused,
                Output.l.tr(
                    "unexpected answer from beautyd (is it the same version?): %s", Validation.quotable("\(error)")))
        }
        if let error = response.error {
            let message = DaemonErrorText.message(error, Output.l)
            switch error.code {
            case RPCErrorCode.notFound: throw CLIFailure(.notFound, message, data: error.data)
            default: throw CLIFailure(.refused, message, data: error.data)
            }
        }
        guard let result = response.result else {
            throw CLIFailure(.refused, Output.l.tr("beautyd sent an answer without a result"))
        }
        return result
    }
}

/// Requests on one connection; `send` and `receive` apart let a client send its next request while
/// the daemon works on the previous one (answers come back in order).
final class DaemonSession {
    private let connection: any LineConnection
    private var nextID: Int64 = 1

    init(connection: any LineConnection) { self.connection = connection }

    deinit { connection.close() }

    /// The request line `rpc` with `params` would be sent as (its size decides how a caller cuts chunks).
    func line<P, R>(_ rpc: RPC<P, R>, _ params: P) throws -> Data {
        defer { nextID += 1 }
        // An import's chunks write their own JSON (the same bytes, without JSONEncoder's cost per value).
        if let writable = params as? any WireJSONWritable {
            return WireJSON.request(id: .number(nextID), method: rpc.method.rawValue, params: writable)
        }
        return try WireJSON.encoder().encode(
            RPCRequest(id: .number(nextID), method: rpc.method.rawValue, params: params))
    }

    func send(_ line: Data) throws { try connection.send(line) }

    func receive<R: Decodable>(_: R.Type) throws -> R { try DaemonClient.decode(try connection.readLine(), as: R.self) }

    func call<P, R>(_ rpc: RPC<P, R>, _ params: P) throws -> R {
        try send(try line(rpc, params))
        return try receive(R.self)
    }
}

/// One connection's lines: requests sent, answers read back in order.
protocol LineConnection: AnyObject {
    func send(_ data: Data) throws
    /// The next line, made safe to print (ServerText), without its newline.
    func readLine() throws -> Data
    func close()
}

/// One connected stream socket with a read buffer.
fileprivate final class Connection: LineConnection {
    let fd: Int32
    let path: String
    private var buffer: [UInt8] = []
    private var scanned = 0

    init(path: String, timeout: Bool = true) throws {
        self.path = path
        guard path.utf8.count <= SocketLocation.maxPathBytes else {
            throw CLIFailure(
                .usage, Output.l.tr("--socket: path longer than %s bytes: %s", SocketLocation.maxPathBytes, path))
        }
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else {
            throw CLIFailure(
                .unreachable, Output.l.tr("cannot create a socket: %s", SystemErrorText.text(errno, Output.l)))
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if connected != 0 {
            let reason = SystemErrorText.text(errno, Output.l)
            Glibc.close(fd)
            throw CLIFailure(
                .unreachable,
                Output.l.tr(
                    "beautyd is not running (cannot connect to %s: %s).\nStart it with:  systemctl --user start beautyd\nor for this session only:  beautyd &",
                    path, reason))
        }
        do {
            try Self.checkServerIsOurs(fd: fd, path: path)
        } catch {
            Glibc.close(fd)
            throw error
        }
        if timeout {
            var limit = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// Refuses a socket served by another user before a byte is sent: the request may carry
    /// private notes, and whoever holds the socket's directory could have planted a fake server.
    private static func checkServerIsOurs(fd: Int32, path: String) throws {
        guard let peer = PeerCredentials.of(socket: fd) else {
            throw CLIFailure(
                .unreachable,
                Output.l.tr(
                    "cannot tell who serves %s (SO_PEERCRED: %s); not sending anything", path,
                    SystemErrorText.text(errno, Output.l)))
        }
        guard peer.uid == geteuid() else {
            throw CLIFailure(
                .unreachable,
                Output.l.tr(
                    "refusing to talk to %s: it is served by uid %s, not by you (uid %s). Another user may have planted it; nothing was sent. Check the directory and restart your own beautyd.",
                    path, peer.uid, geteuid()))
        }
    }

    func send(_ data: Data) throws {
        var bytes = [UInt8](data)
        bytes.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else {
                throw CLIFailure(
                    .unreachable,
                    Output.l.tr("beautyd closed the connection: %s", SystemErrorText.text(errno, Output.l)))
            }
            offset += n
        }
    }

    func readLine() throws -> Data { Data(try readLineBytes()) }

    /// The next line, made safe to print (ServerText), without its newline.
    func readLineBytes() throws -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 1 << 20)  // an export's answer is tens of megabytes
        while true {
            if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                var line: [UInt8]
                if newline == buffer.count - 1 {
                    // The buffer holds this line alone (as an answer usually arrives): handed over, not copied.
                    line = buffer
                    buffer = []
                    line.removeLast()
                } else {
                    line = Array(buffer[..<newline])
                    buffer.removeSubrange(...newline)
                }
                scanned = 0
                return ServerText.sanitize(line)
            }
            scanned = buffer.count
            let n = recv(fd, &chunk, chunk.count, 0)
            if n > 0 {
                buffer.append(contentsOf: chunk[..<n])
            } else if n == 0 {
                throw CLIFailure(.unreachable, Output.l.tr("beautyd closed the connection before answering"))
            } else if errno != EINTR {
                throw CLIFailure(
                    .unreachable, Output.l.tr("no answer from beautyd: %s", SystemErrorText.text(errno, Output.l)))
            }
        }
    }

    func close() { Glibc.close(fd) }
}
