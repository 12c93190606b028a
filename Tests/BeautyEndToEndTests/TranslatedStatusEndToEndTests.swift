import BeautyTestSupport
import Foundation
import Testing

extension EndToEndBus {
    @Suite("status: why notifications cannot be shown, in Polish and Slovak; LANG=C in English", .serialized)
    struct TranslatedStatus {
        @Test(arguments: [
            ("pl_PL.UTF-8", "  powiadomienia: BRAK DOSTĘPNEGO SERWERA — brak serwera powiadomień na magistrali sesji\n"),
            ("sk_SK.UTF-8", "  upozornenia:   ŽIADNY DOSTUPNÝ SERVER — na zbernici relácie nie je server upozornení\n"),
            ("C", "  notifications: NO SERVER REACHABLE — no notification server on the session bus\n"),
        ])
        func noNotificationServer(locale: String, line: String) async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            stack.locale = locale
            // The daemon looks for a server once it is up: asked again until it has.
            var status = try await stack.beautyctl(["status"])
            for _ in 0..<40 where !status.stdout.contains(line) {
                try await Task.sleep(for: .milliseconds(250))
                status = try await stack.beautyctl(["status"])
            }
            #expect(status.stdout.contains(line), "\(line) missing: \(status)")
            let json = try await stack.beautyctlOK(["status", "--json"])
            #expect(json.stdout.contains("\"lastError\" : \"no notification server on the session bus\""), "\(json)")
        }
    }
}
