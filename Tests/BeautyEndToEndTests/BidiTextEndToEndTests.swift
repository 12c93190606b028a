import BeautyCore
import BeautyProtocol
import Foundation
import Testing

// Bidirectional controls (U+202E makes `Invoice gnp.exe` display as `Invoice exe.png`) are refused
// like control characters: by beautyctl before sending, by beautyd whatever the client, and no
// notification ever carries one.

extension EndToEnd {
    @Suite("Bidirectional controls in texts", .serialized)
    struct BidiText {
        static let override = "\u{202E}"

        @Test("a right-to-left override in a title or an address is refused by beautyctl and by beautyd; nothing is shown")
        func overridesAreRefused() async throws {
            let stack = try await Stack.start()
            defer { stack.shutdown() }
            let at = wholeSecond(after: 2)
            func hidesNoBidi(_ text: String) -> Bool { !text.unicodeScalars.contains { $0.properties.isBidiControl } }

            let cli: [(arguments: [String], mentions: String)] = [
                (["appointment", "add", "Invoice \(Self.override)gnp.exe", "--at", iso(at), "--remind", "0s"], "U+202E"),
                (["appointment", "add", "Facial", "--at", iso(at), "--address", "ul. D\u{2067}uga 5"], "U+2067"),
                (["med", "add", "Iron\u{200F}", "--at", "08:00"], "U+200F"),
            ]
            for (arguments, mentions) in cli {
                let result = try await stack.beautyctl(arguments)
                #expect(result.status == .exited(2), "beautyctl \(arguments): \(result)")
                #expect(result.stderr.contains("bidirectional control character (\(mentions))"), "\(result)")
                #expect(hidesNoBidi(result.stderr + result.stdout), "a bidirectional control reached the terminal: \(result)")
            }

            // Another client skips beautyctl's checks: beautyd refuses on its own.
            let client = try stack.client()
            var appointment = AppointmentAddParams(title: "Invoice \(Self.override)gnp.exe", start: at)
            appointment.reminders = [.at(at)]
            var medication = MedAddParams(name: "Iron")
            medication.dose = "1 \(Self.override)telbat"
            var contact = ContactAddParams(name: "Salon Anna", phone: "600 100 200")
            contact.address = "ul. Długa \(Self.override)5"
            let refusals: [(String, field: String, () throws -> Void)] = [
                ("appointment.add", "title", { _ = try client.call("appointment.add", appointment, as: AppointmentDetail.self) }),
                ("med.add", "dose", { _ = try client.call("med.add", medication, as: MedDetail.self) }),
                ("contact.add", "address", { _ = try client.call("contact.add", contact, as: Contact.self) }),
            ]
            for (method, field, call) in refusals {
                let error = #expect(throws: RPCErrorObject.self, "\(method) with U+202E in \(field)") { try call() }
                #expect(error?.code == RPCErrorCode.invalidParams && error?.data?.field == field, "\(method): \(String(describing: error))")
                #expect(error?.message.contains("bidirectional control character (U+202E)") == true && hidesNoBidi(error?.message ?? ""),
                        "\(method): \(String(describing: error))")
            }

            let status = try client.status()
            #expect(status.counts.appointments == 0 && status.counts.medications == 0 && status.counts.contacts == 0, "\(status.counts)")
            await sleep(until: at.addingTimeInterval(1))
            #expect(stack.notifications().isEmpty, "\(stack.notifications())")
        }
    }
}
