import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndBus {
    @Suite("Categories as people say them: real beautyctl and beautyd", .serialized)
    struct CategoryWords {
        @Test(
            "--category brwi, włosy/farbowanie, farbenie, dye name their category; agenda --category włosy finds it; 'xyz' is refused with the tree"
        )
        func categoriesByWordAndSynonym() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let polish = "pl_PL.UTF-8"
            for (typed, code, lang) in [
                ("brwi", "face/brows", polish), ("włosy/farbowanie", "hair/colour", polish),
                ("farbenie", "hair/colour", "sk_SK.UTF-8"), ("dye", "hair/colour", "C.UTF-8"),
                ("depilacja", "body/waxing", polish),
            ] {
                let added = try await stack.beautyctlJSON(
                    ["appointment", "add", "Visit \(typed)", "--at", "2030-03-04 10:00", "--category", typed],
                    lang: lang, as: AppointmentDetail.self)
                #expect(added.appointment.category == code, "\(typed)")
            }
            let hair = try await stack.beautyctlJSON(
                ["agenda", "--from", "2030-03-01", "--to", "2030-04-01", "--category", "włosy"],
                lang: polish, as: AgendaResult.self)
            #expect(
                Set(hair.entries.map(\.title)) == ["Visit włosy/farbowanie", "Visit farbenie", "Visit dye"],
                "\(hair.entries.map(\.title))")
            let refused = try await stack.beautyctl(
                ["appointment", "add", "X", "--at", "2030-03-04 10:00", "--category", "xyz"], lang: polish)
            #expect(
                refused.status == .exited(2) && refused.stderr.contains("„xyz” to nie kategoria")
                    && refused.stderr.contains("hair/colour  Koloryzacja"), "\(refused)")
            let none = try await stack.beautyctlJSON(["appointment", "list"], as: [Appointment].self)
            #expect(none.count == 5, "nothing stored for the refused one")
        }
    }
}
