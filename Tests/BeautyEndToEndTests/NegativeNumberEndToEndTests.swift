import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndTiming {
    @Suite("Negative numbers: parsed wherever a number is expected, refused only by the rules", .serialized)
    struct NegativeNumbers {
        @Test(
            "budget add Zwrot -20 is an expense; --price -5 and other negative values get a message naming the option")
        func negativeNumbersParse() async throws {
            let stack = try await Stack.start(server: false, config: "[money]\ncurrency = \"PLN\"\n")
            defer { stack.shutdown() }
            let refund = try await stack.beautyctlJSON(
                ["budget", "add", "Zwrot", "-20", "--at", "2030-01-05 09:00"], as: BudgetEntry.self)
            #expect(
                refund.amount == Money(cents: -2_000, currency: "PLN"), "a negative amount is an expense: \(refund)")
            let text = try await stack.beautyctlOK(["budget", "add", "Lakier", "-12,50 EUR"])
            #expect(text.stdout.contains("expense") && text.stdout.contains("-12.50 EUR"), "\(text)")
            let edited = try await stack.beautyctlJSON(
                ["budget", "edit", "\(refund.id)", "--amount", "-15"], as: BudgetEntry.self)
            #expect(edited.amount == Money(cents: -1_500, currency: "PLN"), "\(edited)")

            let contact = try await stack.beautyctlJSON(
                ["contact", "add", "Salon", "--phone", "+48 600 100 200"], as: Contact.self)
            let med = try await stack.beautyctlJSON(
                ["med", "add", "Vitamin D", "--at", "08:00", "--stock", "10"], as: MedicationDetail.self
            ).medication
            let cases: [(arguments: [String], mentions: [String])] = [
                (["budget", "add", "Refund", "-5", "--income"], ["income", "negative"]),
                (["budget", "edit", "\(refund.id)", "--amount", "-5", "--income"], ["--amount", "negative"]),
                (["budget", "add", "Shampoo", "--bogus"], ["unknown option", "--bogus"]),
                (
                    ["appointment", "add", "Haircut", "--at", "2030-01-05 10:00", "--price", "-5"],
                    ["--price", "negative"]
                ),
                (
                    [
                        "appointment", "add", "Haircut", "--at", "2030-01-05 10:00", "--contact", "\(contact.id ?? 1)",
                        "--price", "-5,50",
                    ],
                    ["--price", "-5,50", "negative"]
                ),
                (["agenda", "--limit", "-1"], ["--limit", "negative"]),
                (["agenda", "--days", "-2"], ["--days", "between"]),
                (["water", "total", "--days", "-2"], ["--days", "between"]),
                (["calendar", "--width", "-5"], ["--width", "between"]),
                (["med", "add", "Iron", "--at", "09:00", "--stock", "-3"], ["--stock", "negative"]),
                (["med", "refill", "\(med.id ?? 1)", "-5"], ["count", "more than 0"]),
            ]
            for (arguments, mentions) in cases {
                let result = try await stack.beautyctl(arguments)
                #expect(result.status == .exited(2), "beautyctl \(arguments): \(result)")
                #expect(
                    !result.stderr.contains("Missing"), "a negative number read as an option: \(arguments): \(result)")
                for word in mentions {
                    #expect(result.stderr.contains(word), "beautyctl \(arguments) should mention \(word): \(result)")
                }
            }
            let entries = try await stack.beautyctlJSON(["budget", "list"], as: [BudgetEntry].self)
            #expect(entries.count == 2, "refused commands stored nothing: \(entries)")
            let appointments = try await stack.beautyctlJSON(["appointment", "list"], as: [Appointment].self)
            #expect(appointments.isEmpty)
            let refilled = try await stack.beautyctlJSON(
                ["med", "refill", "\(med.id ?? 1)", "2,5"], as: Medication.self)
            #expect(refilled.stock == 12.5, "\(refilled)")
        }
    }
}
