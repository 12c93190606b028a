import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndTiming {
    @Suite("Colours: the original app's six by name", .serialized)
    struct Colours {
        @Test("blue, yellow, green, red, orange and magenta are accepted, shown, drawn and listed in --help")
        func theOriginalSixColours() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let six = ["blue", "yellow", "green", "red", "orange", "magenta"]
            for (day, colour) in six.enumerated() {
                let detail = try await stack.beautyctlJSON(
                    [
                        "appointment", "add", "Visit \(colour)", "--at", "2030-03-0\(day + 4) 10:00",
                        "--color", colour.uppercased(),
                    ], as: AppointmentDetail.self)
                #expect(detail.appointment.color == colour, "\(detail.appointment)")
            }
            let shown = try await stack.beautyctlOK(["appointment", "show", "6"]).stdout
            #expect(shown.contains("colour:    magenta"), "\(shown)")
            let drawn = try await stack.beautyctlOK(["calendar", "--week", "2030-03-04", "--color", "--width", "200"])
                .stdout
            #expect(drawn.contains("\u{1B}[48;5;201;97m"), "magenta is drawn in its own colour:\n\(drawn)")

            let help = try await stack.beautyctlOK(["appointment", "add", "--help"]).stdout
            #expect(six.allSatisfy { help.contains($0) }, "\(help)")
            let wrong = try await stack.beautyctl([
                "appointment", "add", "X", "--at", "2030-03-04 12:00", "--color", "fuchsia",
            ])
            #expect(
                wrong.status == .exited(2) && wrong.stderr.contains("--color") && wrong.stderr.contains("magenta"),
                "\(wrong)")
        }
    }
}
