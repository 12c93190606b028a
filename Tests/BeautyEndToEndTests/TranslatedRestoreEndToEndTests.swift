import BeautyTestSupport
import Foundation
import Testing

extension EndToEndServing {
    @Suite("restore refuses a file that is no database in Polish and Slovak; LANG=C in English", .serialized)
    struct TranslatedRestore {
        @Test(arguments: [
            ("pl_PL.UTF-8", "ścieżka: nie można otworzyć %@ jako bazy danych ("),
            ("sk_SK.UTF-8", "cesta: %@ sa nedá otvoriť ako databáza ("),
            ("C", "path: %@ cannot be opened as a database ("),
        ])
        func aFileThatIsNoDatabase(locale: String, refusal: String) async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            stack.locale = locale
            let garbage = stack.directory + "/garbage.sqlite"
            try Data(String(repeating: "not a database ", count: 300).utf8).write(to: URL(fileURLWithPath: garbage))
            let result = try await stack.beautyctl(["restore", garbage, "--yes"])
            #expect(
                result.status != .exited(0)
                    && result.stderr.contains(refusal.replacingOccurrences(of: "%@", with: garbage)), "\(result)")
        }
    }
}
