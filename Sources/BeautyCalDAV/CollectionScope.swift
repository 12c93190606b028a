import Foundation

/// Where a server's href may lead: credentials and writes go only to the account's origin (scheme,
/// host, port) and only below the collection followed. A hostile or broken server that lists
/// `http://other-host/x.ics` or `/cal/../other/x.ics` must not get the password sent elsewhere, nor
/// make beautyd write outside its calendar.
public enum CollectionScope {
    /// Whether `a` and `b` are one origin (RFC 6454): scheme, host and port, the default port filled in.
    public static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int)? {
            guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
            guard let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil) else { return nil }
            return (scheme, host, port)
        }
        guard let left = origin(a), let right = origin(b) else { return false }
        return left == right
    }

    /// Whether the password may travel to `url` without `--insecure`: https, or plain HTTP to this machine.
    public static func isEncryptedOrLocal(_ url: URL) -> Bool {
        (try? HTTPTransport.checkTransport(url, allowInsecure: false)) != nil
    }

    /// The origin as text, `scheme://host` with `:port` when it is not the scheme's default.
    public static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? "", host = url.host?.lowercased() ?? ""
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let port = url.port.flatMap { ($0 == 443 && scheme == "https") || ($0 == 80 && scheme == "http") ? nil : $0 }
        return "\(scheme)://\(bracketed)" + (port.map { ":\($0)" } ?? "")
    }

    /// `href` (a path or a whole URL, percent-encoded as the server gives it) resolved against
    /// `collection`, when it names something strictly inside the collection; nil otherwise.
    public static func member(_ href: String, of collection: URL) -> URL? {
        guard let url = URL(string: href, relativeTo: collection)?.absoluteURL, sameOrigin(url, collection),
            url.user == nil, url.password == nil,
            let path = normalizedPath(url.path(percentEncoded: true)).flatMap({ $0.removingPercentEncoding }),
            var base = normalizedPath(collection.path(percentEncoded: true)).flatMap({ $0.removingPercentEncoding })
        else { return nil }
        // Compared unescaped: servers differ in what they escape (`@` or `%40`).
        if !base.hasSuffix("/") { base += "/" }
        guard path.count > base.count, path.hasPrefix(base) else { return nil }
        return url
    }

    /// The path with dot segments removed (RFC 3986 §5.2.4), percent-encoded dots taken as dots (a
    /// server may decode them after beautyd checked); nil for a path with an encoded slash or a
    /// backslash, which servers split differently.
    static func normalizedPath(_ encoded: String) -> String? {
        let lowered = encoded.lowercased()
        if lowered.contains("%2f") || lowered.contains("%5c") || encoded.contains("\\") || lowered.contains("%00") {
            return nil
        }
        let path = encoded.replacingOccurrences(of: "%2e", with: ".", options: .caseInsensitive)
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            let last = index == segments.count - 1
            switch segment {
            case ".":
                if last { output.append("") }
            case "..":
                if output.count > 1 { output.removeLast() }
                if last { output.append("") }
            default:
                output.append(segment)
            }
        }
        let joined = output.joined(separator: "/")
        return joined.hasPrefix("/") ? joined : "/" + joined
    }
}
