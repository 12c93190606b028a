import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// One HTTP exchange as the client sees it: status, headers and the whole body.
struct HTTPAnswer {
    var status: Int
    var headers: HTTPHeaders
    var body: Data
    /// Where the answer came from, after redirects.
    var url: URL
}

/// Sends requests with the account's Authorization, follows redirects itself (so that each hop is
/// counted and checked against the plain-HTTP rule, and PROPFIND stays PROPFIND), counts requests and
/// bytes, and turns transport failures into `CalDAVError.unreachable`.
final class HTTPTransport: Sendable {
    /// One process-wide client: connections are pooled across accounts, and an AsyncHTTPClient that
    /// lives as long as the process never needs the shutdown its deinit would otherwise demand.
    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(10), read: .seconds(60))
        )
        configuration.httpVersion = .automatic
        // Listings and multiget answers are repetitive XML: gzip makes them several times smaller.
        configuration.decompression = .enabled(limit: .size(HTTPTransport.maximumBodySize))
        // A refused connection fails the request at once instead of being retried until the connect
        // timeout: the sync engine has its own back-off, and "offline" must be known quickly.
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    /// Large enough for a multiget batch of big events; a bound so a broken server cannot exhaust memory.
    static let maximumBodySize = 64 << 20
    private static let maximumRedirects = 5

    let credentials: any CalDAVCredentialSource
    let allowInsecure: Bool
    /// The account's URL: the password goes to its origin alone.
    let origin: URL
    /// The longest one request may take, answer body included.
    let deadline: Duration
    private let counters = NIOLockedValueBox(CalDAVStatistics())

    init(credentials: any CalDAVCredentialSource, allowInsecure: Bool, origin: URL, deadline: Duration) {
        self.credentials = credentials
        self.allowInsecure = allowInsecure
        self.origin = origin
        self.deadline = deadline
    }

    var statistics: CalDAVStatistics { counters.withLockedValue { $0 } }

    /// Throws `insecureURL` for plain HTTP to anything but loopback, unless the account allows it.
    static func checkTransport(_ url: URL, allowInsecure: Bool) throws {
        switch url.scheme?.lowercased() {
        case "https":
            return
        case "http":
            if allowInsecure || isLoopback(url.host) { return }
            throw CalDAVError.insecureURL(url.absoluteString)
        default:
            throw CalDAVError.malformed("\(url.absoluteString) is not an http(s) URL")
        }
    }

    static func isLoopback(_ host: String?) -> Bool {
        guard var host = host?.lowercased() else { return false }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" { return true }
        // By address, not by spelling: "127.0.0.1.example.org" is a name like any other.
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { bytes in bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1 }
        }
        return false
    }

    /// `staysOnOrigin`: a redirect to another origin is not followed but thrown as `otherOrigin` (discovery,
    /// where the user decides whether the password may go there).
    func send(
        _ method: String, _ url: URL, headers extra: [(String, String)] = [], body: String? = nil,
        staysOnOrigin: Bool = false
    ) async throws -> HTTPAnswer {
        var target = url
        for _ in 0...Self.maximumRedirects {
            // The password goes to the account's origin alone, whatever a server's href or redirect
            // names: another host (or port, or scheme) gets the request without it.
            let credentialed = CollectionScope.sameOrigin(target, origin)
            let answer = try await sendOnce(method, target, headers: extra, body: body, credentialed: credentialed)
            guard [301, 302, 303, 307, 308].contains(answer.status),
                let location = answer.headers.first(name: "Location"),
                let next = URL(string: location, relativeTo: target)?.absoluteURL
            else { return answer }
            if staysOnOrigin, !CollectionScope.sameOrigin(next, origin) {
                throw CalDAVError.otherOrigin(next.absoluteString)
            }
            target = next
        }
        throw CalDAVError.server(status: 310, detail: "too many redirects from \(url.absoluteString)")
    }

    private func sendOnce(
        _ method: String, _ url: URL, headers extra: [(String, String)], body: String?,
        credentialed: Bool
    ) async throws -> HTTPAnswer {
        try Self.checkTransport(url, allowInsecure: allowInsecure)
        // A cancelled sync starts no request, nor asks the keyring for a password.
        try Task.checkCancellation()
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = HTTPMethod(rawValue: method)
        if credentialed { request.headers.add(name: "Authorization", value: try await credentials.authorization()) }
        request.headers.add(name: "User-Agent", value: "beautyd")
        request.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        for (name, value) in extra { request.headers.add(name: name, value: value) }
        var sent = 0
        if let body {
            let bytes = ByteBuffer(string: body)
            sent += bytes.readableBytes
            request.body = .bytes(bytes)
            request.headers.add(name: "Content-Length", value: String(bytes.readableBytes))
        }
        sent +=
            Self.headerSize("\(method) \(url.path) HTTP/1.1", request.headers)
            + "Host: \(url.host ?? "")\r\n".utf8.count
        counters.withLockedValue {
            $0.requests += 1; $0.bytesSent += sent
        }

        let status: Int
        let headers: HTTPHeaders
        var buffer: ByteBuffer
        do {
            let limit = deadline, host = url.host ?? url.absoluteString
            let nanoseconds = limit.components.seconds * 1_000_000_000 + limit.components.attoseconds / 1_000_000_000
            (status, headers, buffer) = try await Deadline.run(
                within: limit, on: Self.client.eventLoopGroup.any(),
                expired: {
                    CalDAVError.unreachable("\(host): the request took longer than \(Self.seconds(limit)) s")
                }
            ) { [request] in
                let response = try await Self.client.execute(request, deadline: .now() + .nanoseconds(nanoseconds))
                return (
                    Int(response.status.code), response.headers,
                    try await response.body.collect(upTo: Self.maximumBodySize)
                )
            }
        } catch let error as NIOTooManyBytesError {
            throw CalDAVError.malformed(
                "an answer from \(url.absoluteString) is larger than \(Self.maximumBodySize) bytes (\(error))")
        } catch let error as CalDAVError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw CalDAVError.unreachable("\(url.host ?? url.absoluteString): \(reason(error))")
        }
        // A compressed body arrives decompressed: its Content-Length is what travelled.
        let travelled =
            headers.contains(name: "Content-Encoding") ? headers.first(name: "Content-Length").flatMap(Int.init) : nil
        let received = (travelled ?? buffer.readableBytes) + Self.headerSize("HTTP/1.1 \(status)", headers)
        counters.withLockedValue { $0.bytesReceived += received }
        let data = buffer.readData(length: buffer.readableBytes) ?? Data()
        return HTTPAnswer(status: status, headers: headers, body: data, url: url)
    }

    /// The bytes of a start line and headers as HTTP/1.1 puts them on the wire.
    private static func headerSize(_ startLine: String, _ headers: HTTPHeaders) -> Int {
        headers.reduce(startLine.utf8.count + 4) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
    }

    static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }

    /// A short reason for a transport failure that a user can act on.
    private func reason(_ error: Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout: return "connection timed out"
            case .readTimeout: return "no answer within 60 s"
            case .deadlineExceeded: return "the request took longer than \(Self.seconds(deadline)) s"
            case .remoteConnectionClosed: return "the server closed the connection"
            default: return "\(error)"
            }
        }
        return "\(error)"
    }
}
