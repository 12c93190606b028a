import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndBus {
    @Suite("agenda paging says where the next page starts: real beautyctl and beautyd", .serialized)
    struct Paging {
        @Test(
            "'Pokazano 1–2 z 5; następna strona: --offset 2.', nothing more on the last page, --offset past the end says so"
        )
        func pagesNameTheNextOffset() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            for day in 4...8 {
                _ = try await stack.beautyctlOK(["appointment", "add", "Visit \(day)", "--at", "2030-03-0\(day) 10:00"])
            }
            let range = ["agenda", "--from", "2030-03-01", "--to", "2030-04-01", "--limit", "2"]
            let first = try await stack.beautyctl(range, lang: "pl_PL.UTF-8")
            #expect(
                first.status == .exited(0) && first.stdout.contains("Pokazano 1–2 z 5; następna strona: --offset 2."),
                "\(first)")
            let last = try await stack.beautyctl(range + ["--offset", "4"], lang: "pl_PL.UTF-8")
            #expect(
                last.stdout.contains("Pokazano 5–5 z 5 (ostatnia strona).") && !last.stdout.contains("--offset"),
                "\(last)")
            let english = try await stack.beautyctlOK(range + ["--offset", "2"]).stdout
            #expect(english.contains("Showing 3–4 of 5; the next page: --offset 4."), "\(english)")
            let past = try await stack.beautyctl(range + ["--offset", "50"], lang: "sk_SK.UTF-8")
            #expect(
                past.status == .exited(0) && past.stdout == "--offset 50 je za koncom zoznamu: obsahuje 5 položiek.\n",
                "\(past)")
            let pastPolish = try await stack.beautyctl(range + ["--offset", "50"], lang: "pl_PL.UTF-8")
            #expect(
                pastPolish.stdout == "--offset 50 wykracza poza listę: jest w niej 5 pozycji.\n"
                    && !pastPolish.stdout.contains("Nic między"), "\(pastPolish)")
        }
    }
}
