@testable import BeautyDaemon
import BeautyProtocol
import BeautyStore
import BeautyTestSupport
import Foundation
import Logging
import Testing

/// The typed method table: an RPC constant left out of its area's `methods`, two constants with one
/// name, or a method without its server route fails here, not in front of a user.
@Suite struct MethodTableTests {
    @Test("every method name belongs to exactly one RPC constant")
    func oneConstantPerMethod() {
        let counts = Dictionary(RPCTable.methods.map { ($0, 1) }, uniquingKeysWith: +)
        #expect(counts.filter { $0.value > 1 }.isEmpty, "names used by more than one RPC constant: \(counts)")
        // A name dropped from an area's list is seen here even when nothing routes it (a constant only the client uses).
        #expect(RPCTable.methods.count == 72, "\(RPCTable.methods.count) methods: a new one counts here too")
    }

    @Test("every method has exactly one server route, and every route is a method of the table")
    func oneRoutePerMethod() async throws {
        let daemon = try makeDaemon(
            store: try AppDatabase.inMemory(), notifier: RecordingNotifier(), config: DaemonConfig(),
            session: SessionLanguage(.english), socket: "in process",
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let routes = daemon.requests.router
        #expect(routes.duplicates.isEmpty, "registered more than once: \(routes.duplicates.map(\.rawValue))")
        for method in RPCTable.methods {
            #expect(routes.routes[method] != nil, "\(method.rawValue) has no route in any controller")
        }
        let outside = Set(routes.routes.keys).subtracting(RPCTable.methods)
        #expect(outside.isEmpty, "routed but missing from their area's RPC methods list: \(outside)")
    }

    @Test("event kinds are the type strings docs/PROTOCOL.md lists, no more and no fewer")
    func eventKindsDocumented() throws {
        let text = try String(contentsOfFile: ProtocolDocTests.path, encoding: .utf8)
        let table = try #require(text.components(separatedBy: "| `type` | |\n|---|---|\n").dropFirst().first)
        let rows = table.split(separator: "\n").prefix { $0.hasPrefix("| `") }
        let documented = rows.flatMap { row in
            row.split(separator: "|")[0].split(separator: ",").map {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: " `"))
            }
        }
        #expect(Set(documented) == Set(DaemonEvent.Kind.allCases.map(\.rawValue)), "\(documented)")
    }

    @Test("notification buttons and what a click answers for a dose")
    func notificationActions() {
        #expect(
            NotificationAction.allCases.map { $0.button(.english) } == [
                .init(id: "taken", label: "Taken"), .init(id: "snooze", label: "Snooze"),
                .init(id: "skip", label: "Skip"), .init(id: "dismiss", label: "Dismiss"),
                .init(id: "water-250", label: "+250 ml"),
            ])
        #expect(NotificationAction.allCases.map(\.doseAnswer) == [.taken, .snoozed, .skipped, nil, nil])
    }
}
