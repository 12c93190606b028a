import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A parsed XML element with namespace-qualified names: DAV answers use any prefix for a namespace
/// (Radicale none, Xandikos "ns0:"), so lookups go by namespace URI and local name only.
struct DAVElement: Sendable {
    var namespace: String
    var name: String
    var attributes: [String: String]
    var children: [DAVElement]
    var text: String

    /// The direct children named so.
    func children(_ namespace: String, _ name: String) -> [DAVElement] {
        children.filter { $0.namespace == namespace && $0.name == name }
    }

    /// The first direct child named so.
    func child(_ namespace: String, _ name: String) -> DAVElement? {
        children.first { $0.namespace == namespace && $0.name == name }
    }

    /// Whether an element so named occurs anywhere below.
    func contains(_ namespace: String, _ name: String) -> Bool {
        children.contains { ($0.namespace == namespace && $0.name == name) || $0.contains(namespace, name) }
    }

    /// Every element so named anywhere below, in document order.
    func descendants(_ namespace: String, _ name: String) -> [DAVElement] {
        children.flatMap {
            ($0.namespace == namespace && $0.name == name ? [$0] : []) + $0.descendants(namespace, name)
        }
    }

    var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }
}

/// XML names the client uses.
enum DAVNamespace {
    static let dav = "DAV:"
    static let caldav = "urn:ietf:params:xml:ns:caldav"
    static let calendarServer = "http://calendarserver.org/ns/"
}

/// FoundationXML's SAX parser (namespace processing on) building an `DAVElement` tree. Chosen over a
/// package: it ships with the toolchain, resolves prefixes to URIs, and the answers are shallow trees.
final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    /// DAV answers nest a dozen deep; a tree much deeper is hostile, and releasing it recurses once per
    /// level (a stack overflow at some tens of thousands), so parsing stops at this depth.
    static let maximumDepth = 64

    private var stack: [DAVElement] = []
    private var root: DAVElement?
    private var failure: Error?

    static func parse(_ data: Data) throws -> DAVElement {
        let builder = XMLTreeBuilder()
        // Fed in chunks from a stream, not as one Data: libxml2 (without XML_PARSE_HUGE, which
        // FoundationXML does not set) refuses an input buffer above 10 MB, and a listing of 65,000
        // events or one large event is more. HTTPTransport bounds the body at 64 MiB.
        let parser = XMLParser(stream: InputStream(data: data))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            if let refusal = builder.failure as? CalDAVError { throw refusal }
            let reason = builder.failure ?? parser.parserError
            throw CalDAVError.malformed("the XML answer cannot be read: \(reason.map { "\($0)" } ?? "empty")")
        }
        return root
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        guard failure == nil else { return }
        guard stack.count < Self.maximumDepth else {
            failure = CalDAVError.malformed("the XML answer nests elements more than \(Self.maximumDepth) deep")
            stack.removeAll()
            parser.abortParsing()
            return
        }
        stack.append(
            DAVElement(
                namespace: namespaceURI ?? "", name: elementName, attributes: attributeDict, children: [], text: ""))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) {
        guard let finished = stack.popLast() else { return }
        if stack.isEmpty {
            root = finished
        } else {
            stack[stack.count - 1].children.append(finished)
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        if failure == nil { failure = parseError }
    }
}

/// Text made safe for an XML element's content.
func xmlEscaped(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for character in text {
        switch character {
        case "&": escaped += "&amp;"
        case "<": escaped += "&lt;"
        case ">": escaped += "&gt;"
        case "\"": escaped += "&quot;"
        default: escaped.append(character)
        }
    }
    return escaped
}
