import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndBus {
    @Suite("appointment show says a repetition in words: real beautyctl and beautyd", .serialized)
    struct RepeatWords {
        @Test(
            "FREQ=WEEKLY on a Friday: 'co tydzień w piątek', 'každých 6 týždňov v piatok', 'every 6 weeks on Friday'; an exotic rule as its text"
        )
        func repetitionInWords() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            // 4 December 2030 is a Wednesday; 6 December a Friday.
            _ = try await stack.beautyctlOK([
                "appointment", "add", "Manicure", "--at", "2030-12-06 14:00", "--repeat", "FREQ=WEEKLY",
            ])
            _ = try await stack.beautyctlOK([
                "appointment", "add", "Henna", "--at", "2030-12-06 15:00", "--every", "6w",
            ])
            _ = try await stack.beautyctlOK([
                "appointment", "add", "Peeling", "--at", "2030-12-06 16:00", "--repeat", "FREQ=MONTHLY;BYDAY=-1FR",
            ])
            let polish = try await stack.beautyctl(["appointment", "show", "1"], lang: "pl_PL.UTF-8")
            #expect(
                polish.status == .exited(0) && polish.stdout.contains("co tydzień w piątek")
                    && !polish.stdout.contains("FREQ="), "\(polish)")
            let slovak = try await stack.beautyctl(["appointment", "show", "2"], lang: "sk_SK.UTF-8")
            #expect(
                slovak.stdout.contains("každých 6 týždňov v piatok") && !slovak.stdout.contains("FREQ="), "\(slovak)")
            let english = try await stack.beautyctlOK(["appointment", "show", "2"]).stdout
            #expect(english.contains("every 6 weeks on Friday"), "\(english)")
            let exotic = try await stack.beautyctlOK(["appointment", "show", "3"]).stdout
            #expect(exotic.contains("FREQ=MONTHLY;BYDAY=-1FR"), "\(exotic)")
        }
    }
}

extension EndToEndBus.RepeatWords {
    @Test("water reminders and a medication every 2 hours: 'každé 2 hodiny', 'co 2 godziny', never 'každých 2 h'")
    func intervalsArePluralAware() async throws {
        let stack = try await Stack.start(server: false)
        defer { stack.shutdown() }
        let water = try await stack.beautyctl(
            ["water", "remind", "--every", "2h", "--between", "09:00-21:00"], lang: "sk_SK.UTF-8")
        #expect(
            water.status == .exited(0) && water.stdout.contains("každé 2 hodiny od 09:00 do 21:00")
                && !water.stdout.contains("2 h "), "\(water)")
        _ = try await stack.beautyctlOK(["med", "add", "Ibuprofen", "--every", "8h", "--between", "08:00-22:00"])
        let polish = try await stack.beautyctl(["med", "list"], lang: "pl_PL.UTF-8")
        #expect(polish.stdout.contains("co 8 godzin od 08:00 do 22:00"), "\(polish)")
        let slovak = try await stack.beautyctl(["med", "list"], lang: "sk_SK.UTF-8")
        #expect(slovak.stdout.contains("každých 8 hodín od 08:00 do 22:00"), "\(slovak)")
    }
}
