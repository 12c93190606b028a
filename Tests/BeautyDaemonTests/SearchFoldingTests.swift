import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

/// Searches through the request handler over a real SQLite store: case and diacritics never matter.
@Suite("Search in process: case and diacritics ignored in every language")
struct SearchFoldingTests {
    @Test("agenda --search and --category find Polish and Slovak texts typed without diacritics, any case")
    func agendaFindsWithoutDiacritics() async throws {
        let now = instant("2030-01-15 09:00")
        let daemon = try await InProcessDaemon(now: now)
        let start = now.addingTimeInterval(86_400)
        for (title, address, category) in [
            ("Strzyżenie", "ul. Floriańska 3, Kraków", "włosy/strzyżenie"),
            ("Maska žltá", "Bratislava", "tvár"), ("Wycieczka", "Łódź", "wolne"),
            ("Straße", "Wien", "wolne"),
        ] {
            var add = AppointmentAddParams(title: title, start: start)
            add.address = address
            add.category = category
            add.reminders = []
            _ = try await daemon.call(AppointmentRPC.add, add)
        }
        func titles(search: String? = nil, category: String? = nil) async throws -> [String] {
            var params = AgendaParams(from: now, to: now.addingTimeInterval(7 * 86_400))
            params.search = search
            params.category = category
            return try await daemon.call(ViewRPC.agenda, params).entries.map(\.title).sorted()
        }
        #expect(try await titles(search: "krakow") == ["Strzyżenie"])
        #expect(try await titles(search: "STRZYZENIE") == ["Strzyżenie"])
        #expect(try await titles(search: "zlta") == ["Maska žltá"])
        #expect(try await titles(search: "LODZ") == ["Wycieczka"])
        #expect(try await titles(search: "strasse") == ["Straße"])
        #expect(try await titles(search: "Kraków") == ["Strzyżenie"], "typed with diacritics too")
        #expect(try await titles(search: "warszawa") == [])
        #expect(try await titles(category: "wlosy") == ["Strzyżenie"])
        #expect(try await titles(category: "TVAR") == ["Maska žltá"])
    }

    @Test("tips are found without case or diacritics")
    func tipsWithoutDiacritics() async throws {
        let daemon = try await InProcessDaemon(now: instant("2030-01-15 09:00"))
        let plain = try await daemon.call(TipRPC.list, TipFilterParams(search: "sunscreen")).map(\.id)
        #expect(!plain.isEmpty)
        #expect(try await daemon.call(TipRPC.list, TipFilterParams(search: "SÚNSCRÉEN")).map(\.id) == plain)
    }
}
