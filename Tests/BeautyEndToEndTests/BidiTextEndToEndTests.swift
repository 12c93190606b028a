import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

// Bidirectional controls (U+202E makes `Invoice gnp.exe` display as `Invoice exe.png`) are refused
// like control characters: by beautyctl before sending, by beautyd whatever the client, and no
// notification ever carries one.

extension EndToEndServing {
    @Suite("Bidirectional controls in texts", .serialized)
    struct BidiText {
        static let override = "\u{202E}"

        @Test(
            "a right-to-left override in a title or an address is refused by beautyctl and by beautyd; nothing is shown"
        )
        func overridesAreRefused() async throws {
            let stack = try await Stack.start()
            defer { stack.shutdown() }
            let at = wholeSecond(after: 2)
            func hidesNoBidi(_ text: String) -> Bool { !text.unicodeScalars.contains { $0.properties.isBidiControl } }

            let cli: [(arguments: [String], mentions: String)] = [
                (
                    ["appointment", "add", "Invoice \(Self.override)gnp.exe", "--at", iso(at), "--remind", "0s"],
                    "U+202E"
                ),
                (["appointment", "add", "Facial", "--at", iso(at), "--address", "ul. D\u{2067}uga 5"], "U+2067"),
                (["med", "add", "Iron\u{200F}", "--at", "08:00"], "U+200F"),
            ]
            for (arguments, mentions) in cli {
                let result = try await stack.beautyctl(arguments)
                #expect(result.status == .exited(2), "beautyctl \(arguments): \(result)")
                #expect(result.stderr.contains("bidirectional control character (\(mentions))"), "\(result)")
                #expect(
                    hidesNoBidi(result.stderr + result.stdout),
                    "a bidirectional control reached the terminal: \(result)")
            }

            // Another client skips beautyctl's checks: beautyd refuses on its own.
            let client = try stack.client()
            var appointment = AppointmentAddParams(title: "Invoice \(Self.override)gnp.exe", start: at)
            appointment.reminders = [.at(at)]
            var medication = MedicationAddParams(name: "Iron")
            medication.dose = "1 \(Self.override)telbat"
            var contact = ContactAddParams(name: "Salon Anna", phone: "600 100 200")
            contact.address = "ul. Długa \(Self.override)5"
            let refusals: [(String, field: String, () throws -> Void)] = [
                (
                    "appointment.add", "title",
                    { _ = try client.call("appointment.add", appointment, as: AppointmentDetail.self) }
                ),
                ("med.add", "dose", { _ = try client.call("med.add", medication, as: MedicationDetail.self) }),
                ("contact.add", "address", { _ = try client.call("contact.add", contact, as: Contact.self) }),
            ]
            for (method, field, call) in refusals {
                let error = #expect(throws: RPCErrorObject.self, "\(method) with U+202E in \(field)") { try call() }
                #expect(
                    error?.code == RPCErrorCode.invalidParams && error?.data?.field == field,
                    "\(method): \(String(describing: error))")
                #expect(
                    error?.message.contains("bidirectional control character (U+202E)") == true
                        && hidesNoBidi(error?.message ?? ""),
                    "\(method): \(String(describing: error))")
            }

            let status = try client.status()
            #expect(
                status.counts.appointments == 0 && status.counts.medications == 0 && status.counts.contacts == 0,
                "\(status.counts)")
            await sleep(until: at.addingTimeInterval(1))
            #expect(stack.notifications().isEmpty, "\(stack.notifications())")
        }

        @Test(
            "a title and an address stored with a right-to-left override (by an older beautyd, or another program) are shown neutralised"
        )
        func storedOverridesAreNeutralised() async throws {
            let stack = try await Stack.start()
            defer { stack.shutdown() }
            let due = wholeSecond(after: 4)
            let detail = try stack.addAppointment("Invoice gnp.exe", start: tomorrowOnTheHour(), remindAt: [due])
            let id = try #require(detail.appointment.id)
            #expect(await stack.stopDaemon() == .exited(0), "\(stack.logs)")
            let write = try await stack.run(
                Locations.python,
                [
                    "-c",
                    """
                    import sqlite3, sys
                    db = sqlite3.connect(sys.argv[1])
                    db.execute("UPDATE appointment SET title = ?, address = ? WHERE id = ?", ("Invoice \\u202egnp.exe", "ul. D\\u2067uga\\u001b]0;x\\u0007", int(sys.argv[2])))
                    db.commit()
                    """, stack.databasePath, "\(id)",
                ])
            #expect(write.status == .exited(0), "\(write)")
            try await stack.startDaemon()

            let calls = await stack.waitForNotifications(1, timeout: .seconds(due.timeIntervalSinceNow + 5))
            let call = try #require(calls.first, "nothing shown\n\(stack.logs)")
            let unsafe = (call.summary + call.body).unicodeScalars.filter {
                Validation.isUnsafeToShow($0) && $0 != "\n"
            }
            #expect(
                unsafe.isEmpty,
                "shown raw: \(unsafe.map { String($0.value, radix: 16) }) in \(call.summary.debugDescription) / \(call.body.debugDescription)"
            )
            #expect(call.summary == "Invoice ?gnp.exe", "\(call.summary.debugDescription)")
            #expect(call.body.contains("ul. D?uga?]0;x?"), "\(call.body.debugDescription)")
        }

        @Test(
            "export --ics writes the daemon's text byte for byte: CRLF line ends, folds, tabs, non-ASCII; no escape text"
        )
        func exportIsByteExact() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let client = try stack.client()
            var first = AppointmentAddParams(
                title: "Zażółć gęślą jaźń 🙂 — a title long enough to be folded at seventy-five octets",
                start: wholeSecond(after: 86_400))
            first.notes = "line one\nline two\nthird\twith a tab"
            first.address = "ul. Piękna 1; II piętro, Warszawa"
            first.timeZone = "Europe/Warsaw"
            _ = try client.call("appointment.add", first, as: AppointmentDetail.self)
            var second = AppointmentAddParams(title: "Brows", start: wholeSecond(after: 2 * 86_400))
            second.timeZone = "UTC"
            _ = try client.call("appointment.add", second, as: AppointmentDetail.self)

            let file = stack.directory + "/exact.ics"
            _ = try await stack.beautyctlOK(["export", "--ics", file])
            let written = try #require(FileManager.default.contents(atPath: file))
            // The daemon's own text, decoded by JSONDecoder straight off the socket (no ServerText on the way).
            let daemon = try client.call(
                "appointment.exportICS", AppointmentExportICSParams(zone: "UTC"), as: AppointmentExportICSResult.self)
            func withoutStamp(_ text: String) -> String {
                text.components(separatedBy: "\r\n").filter { !$0.hasPrefix("DTSTAMP:") }.joined(separator: "\r\n")
            }
            let text = String(decoding: written, as: UTF8.self)
            #expect(
                withoutStamp(text) == withoutStamp(daemon.ics),
                "the file is not the daemon's text:\n\(text.debugDescription)")
            #expect(
                daemon.count == 2 && text.contains("Zażółć gęślą jaźń 🙂") && text.contains("\\nthird\twith a tab"),
                "\(text.debugDescription)")
            #expect(text.contains("\r\n "), "no folded line: \(text.debugDescription)")
            #expect(!text.contains("\\u00"), "escape text in the file: \(text.debugDescription)")
            let bytes = [UInt8](written)
            for index in bytes.indices where bytes[index] == 0x0D || bytes[index] == 0x0A {
                let ok =
                    bytes[index] == 0x0D
                    ? index + 1 < bytes.count && bytes[index + 1] == 0x0A : index > 0 && bytes[index - 1] == 0x0D
                #expect(ok, "a line break that is not CRLF at byte \(index): \(text.debugDescription)")
            }
            #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        }
    }
}
