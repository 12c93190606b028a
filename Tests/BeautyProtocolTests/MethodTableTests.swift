@testable import BeautyDaemon
import BeautyProtocol
import BeautyStore
import BeautyTestSupport
import Foundation
import Logging
import Testing

/// The typed method table: a method added to `Method` without its RPC constant or its server route
/// fails here, not in front of a user.
@Suite struct MethodTableTests {
    @Test("every method has exactly one RPC constant")
    func oneConstantPerMethod() {
        let counts = Dictionary(RPCTable.methods.map { ($0, 1) }, uniquingKeysWith: +)
        for method in Method.allCases {
            #expect(
                counts[method] == 1,
                "\(method.rawValue) has \(counts[method] ?? 0) RPC constants in RPCTable.methods (want 1)")
        }
    }

    @Test("every method has exactly one server route")
    func oneRoutePerMethod() async throws {
        let daemon = try makeDaemon(
            store: try AppDatabase.inMemory(), notifier: RecordingNotifier(), config: DaemonConfig(),
            session: SessionLanguage(.english), socket: "in process",
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let routes = daemon.requests.router
        #expect(routes.duplicates.isEmpty, "registered more than once: \(routes.duplicates.map(\.rawValue))")
        for method in Method.allCases {
            #expect(routes.routes[method] != nil, "\(method.rawValue) has no route in any controller")
        }
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
