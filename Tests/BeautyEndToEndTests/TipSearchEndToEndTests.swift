import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndBus {
    @Suite("tips --search finds a word's other forms: real beautyctl and beautyd", .serialized)
    struct TipSearch {
        @Test("LANG=pl tips --search olejek shows the tip with 'olejku migdałowego'")
        func inflectedSearch() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let polish = try await stack.beautyctl(["tips", "--search", "olejek"], lang: "pl_PL.UTF-8")
            #expect(polish.status == .exited(0) && polish.stdout.contains("olejku migdałowego"), "\(polish)")
            let json = try await stack.beautyctlJSON(
                ["tips", "--search", "olejek"], lang: "pl_PL.UTF-8", as: [Tip].self)
            let almond = try await stack.beautyctlJSON(["tips", "--search", "almond"], as: [Tip].self)
            #expect(!almond.isEmpty && almond.allSatisfy(json.contains), "\(json.map(\.title))")
        }
    }
}
