import BeautyDaemon
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// docs/PROTOCOL.md must stay true: every method and error code is documented, and the
/// `->`/`<-` examples, replayed in order against a fresh daemon, get the answers shown.
@Suite(.serialized) struct ProtocolDocTests {
    static let path = Locations.file("docs/PROTOCOL.md")

    /// One example request and the answer line the document shows for it (nil: none expected).
    struct Step {
        var request: String
        var answer: String?
    }

    /// The examples of every section but the event stream (events need a notification server)
    /// and the socat transcripts (not arrow-marked).
    static func steps(_ text: String) -> [Step] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var steps: [Step] = []
        var section = ""
        var inCode = false
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("## ") { section = line }
            if line.hasPrefix("```") { inCode.toggle() }
            guard inCode, !section.contains("subscribe"), line.hasPrefix("-> ") else { continue }
            let next = index + 1 < lines.count ? lines[index + 1] : ""
            steps.append(
                Step(
                    request: String(line.dropFirst(3)), answer: next.hasPrefix("<- ") ? String(next.dropFirst(3)) : nil)
            )
        }
        return steps
    }

    /// Values that depend on the machine, the clock or the run; their presence still counts.
    /// (Doses are planned relative to the day the examples run: their instants are clock values too.)
    static let volatile: Set<String> = [
        "uid", "createdAt", "updatedAt", "startedAt", "uptimeSeconds", "pid", "database", "socket", "now",
        "scheduledAt", "confirmedAt", "snoozedUntil",
        "ics",
    ]  // an export's text has its UIDs and DTSTAMP
    /// Lists that depend on today's date (reminders already past are not planned, a medication's next
    /// doses follow the day it was added): compared by shape.
    static let dateDependent: Set<String> = ["deliveries", "laterToday", "upcoming"]

    /// Where `actual` differs from `expected`, as "path: what" lines.
    static func differences(_ expected: Any, _ actual: Any, at path: String = "", shapeOnly: Bool = false) -> [String] {
        switch (expected, actual) {
        case let (e as [String: Any], a as [String: Any]):
            guard Set(e.keys) == Set(a.keys) else {
                return ["\(path): members \(e.keys.sorted()) != \(a.keys.sorted())"]
            }
            return e.keys.sorted().flatMap { key in
                volatile.contains(key)
                    ? []
                    : differences(
                        e[key]!, a[key]!, at: "\(path).\(key)",
                        shapeOnly: shapeOnly || dateDependent.contains(key))
            }
        case let (e as [Any], a as [Any]):
            if !shapeOnly, e.count != a.count { return ["\(path): \(e.count) elements != \(a.count)"] }
            return zip(e, a).enumerated().flatMap {
                differences($1.0, $1.1, at: "\(path)[\($0)]", shapeOnly: shapeOnly)
            }
        default:
            if shapeOnly {
                return type(of: expected) == type(of: actual) || (expected is NSNumber && actual is NSNumber)
                    ? [] : ["\(path): type"]
            }
            let same =
                switch (expected, actual) {
                case let (e as String, a as String): e == a
                case let (e as NSNumber, a as NSNumber): e == a
                case (is NSNull, is NSNull): true
                default: false
                }
            return same ? [] : ["\(path): \(expected) != \(actual)"]
        }
    }

    static func json(_ line: String) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])
    }

    @Test func everyMethodAndErrorCodeIsDocumented() throws {
        let text = try String(contentsOfFile: Self.path, encoding: .utf8)
        for method in Method.allCases {
            #expect(text.contains("`\(method.rawValue)`"), "docs/PROTOCOL.md does not mention \(method.rawValue)")
            let example = #""method":"\#(method.rawValue)""#
            #expect(text.contains(example), "docs/PROTOCOL.md has no example of \(method.rawValue)")
        }
        let codes = [
            RPCErrorCode.parseError, RPCErrorCode.invalidRequest, RPCErrorCode.methodNotFound,
            RPCErrorCode.invalidParams, RPCErrorCode.internalError, RPCErrorCode.notFound,
            RPCErrorCode.refused, RPCErrorCode.lineTooLong,
        ]
        for code in codes {
            #expect(text.contains("| \(code.rawValue) |"), "the error table lacks \(code.rawValue)")
        }
        #expect(
            SocketServer.maximumLineLength == 1_048_576 && text.contains("1 MiB (1 048 576 bytes"),
            "the line limit is not stated as the daemon has it")
    }

    @Test func examplesGetTheAnswersShown() async throws {
        let steps = Self.steps(try String(contentsOfFile: Self.path, encoding: .utf8))
        #expect(steps.count > 30)
        let beautyd = try Locations.built("beautyd")
        let scratch = try ScratchDirectory()
        var environment = try scratch.xdgEnvironment()
        environment["TZ"] = "Europe/Warsaw"  // the zone the examples' texts were written in
        let socketPath = try scratch.sub("b.sock")
        let child = try scratch.spawn(
            "daemon", beautyd, ["--socket", socketPath, "--database", try scratch.sub("db.sqlite")],
            environment: environment)
        let client = try await RPCClient.connected(to: socketPath, within: .seconds(10))
        for step in steps {
            try client.send(line: step.request)
            guard let shown = step.answer else { continue }
            let line = try #require(client.nextLine(), "no answer to \(step.request)\nlog:\n\(child.output)")
            let expected = try #require(Self.json(shown), "the document's answer is not JSON: \(shown)")
            let actual = try #require(Self.json(line), "the daemon's answer is not JSON: \(line)")
            let found = Self.differences(expected, actual)
            #expect(
                found.isEmpty,
                "\(step.request)\n  documented: \(shown)\n  daemon:     \(line)\n  \(found.joined(separator: "\n  "))")
        }
        // (A step that fails early leaves the child to `ChildProcess.deinit`, which kills and reaps it.)
        child.signal(SIGINT)
        #expect(await child.waitForExit() == .exited(0), "log:\n\(child.output)")
    }
}
