import Foundation

/// A WebDAV 207 Multi-Status answer (RFC 4918 §13): per href, either a status of its own (a removed
/// member in sync-collection, a missing href in multiget) or properties grouped by status.
struct Multistatus {
    struct Response {
        var href: String
        /// The response's own status code, when it has one instead of propstats.
        var status: Int?
        /// The properties the server found (propstat with a 2xx status).
        var found: [DAVElement]

        func property(_ namespace: String, _ name: String) -> DAVElement? {
            found.first { $0.namespace == namespace && $0.name == name }
        }

        func text(_ namespace: String, _ name: String) -> String? {
            guard let value = property(namespace, name)?.trimmedText, !value.isEmpty else { return nil }
            return value
        }
    }

    var responses: [Response]
    /// The RFC 6578 token at the multistatus level, if any.
    var syncToken: String?

    init(parsing data: Data) throws {
        let root = try XMLTreeBuilder.parse(data)
        guard root.namespace == DAVNamespace.dav, root.name == "multistatus" else {
            throw CalDAVError.malformed("expected a DAV:multistatus, got \(root.namespace)\(root.name)")
        }
        responses = try root.children(DAVNamespace.dav, "response").map { element in
            guard let href = element.child(DAVNamespace.dav, "href")?.trimmedText, !href.isEmpty else {
                throw CalDAVError.malformed("a multistatus response without an href")
            }
            let found = element.children(DAVNamespace.dav, "propstat")
                .filter {
                    Multistatus.statusCode($0.child(DAVNamespace.dav, "status")?.trimmedText).map {
                        (200..<300).contains($0)
                    } ?? false
                }
                .flatMap { $0.child(DAVNamespace.dav, "prop")?.children ?? [] }
            return Response(
                href: href, status: Multistatus.statusCode(element.child(DAVNamespace.dav, "status")?.trimmedText),
                found: found)
        }
        let token = root.child(DAVNamespace.dav, "sync-token")?.trimmedText
        syncToken = token?.isEmpty == false ? token : nil
    }

    /// 404 from "HTTP/1.1 404 Not Found".
    static func statusCode(_ line: String?) -> Int? {
        guard let line else { return nil }
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }
}
