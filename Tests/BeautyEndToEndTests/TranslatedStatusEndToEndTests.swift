import BeautyTestSupport
import Foundation
import Testing

extension EndToEndBus {
    @Suite("status: why notifications cannot be shown, in Polish and Slovak; LANG=C in English", .serialized)
    struct TranslatedStatus {
        @Test(arguments: [
            (
                "pl_PL.UTF-8",
                "  powiadomienia: BRAK DOSTĘPNEGO SERWERA — brak serwera powiadomień na magistrali sesji\n"
            ),
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

        @Test(arguments: [
            ("pl_PL.UTF-8", "plik z hasłem %@ musi należeć do ciebie i być czytelny tylko dla ciebie (chmod 600 %@)"),
            ("sk_SK.UTF-8", "súbor s heslom %@ musí patriť vám a byť čitateľný len pre vás (chmod 600 %@)"),
            ("C", "the password file %@ must belong to you and be readable by you alone (chmod 600 %@)"),
        ])
        func aSyncAccountRefusedForItsPasswordFile(locale: String, refusal: String) async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            stack.locale = locale
            let readable = stack.directory + "/readable.pw"
            try "secret".write(toFile: readable, atomically: true, encoding: .utf8)
            chmod(readable, 0o644)
            let refused = try await stack.beautyctl([
                "sync", "add", "phone", "--url", "http://127.0.0.1:9/dav/", "--user", "anna",
                "--password-file", readable,
            ])
            let field = ["pl_PL.UTF-8": "plik hasła: ", "sk_SK.UTF-8": "súbor s heslom: "][locale] ?? "passwordFile: "
            let expected = field + refusal.replacingOccurrences(of: "%@", with: readable) + "\n"
            #expect(refused.status == .exited(1) && refused.stderr.hasSuffix(expected), "\(refused)")
        }
    }
}
