import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndBus {
    @Suite("The week view at 80 columns and wider", .serialized)
    struct CalendarWeek {
        @Test("calendar --week at 80 columns draws two bands with whole titles; wider, one band over the full width")
        func weekIsReadableAt80Columns() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            for spec in [
                ["Manicure", "--at", "2030-03-04 10:00", "--color", "red"],
                ["Haircut", "--at", "2030-03-06 09:00", "--duration", "90m"],
                ["Massage", "--at", "2030-03-09 18:00"],
            ] {
                _ = try await stack.beautyctlOK(["appointment", "add"] + spec)
            }
            let narrow = try await stack.beautyctlOK(["calendar", "--week", "2030-03-04", "--width", "80"]).stdout
            let lines = narrow.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.allSatisfy { $0.count <= 80 }, "\(narrow)")
            #expect(
                narrow.contains("┏ Manicure") && narrow.contains("┏ Haircut") && narrow.contains("┃ 09:00–10:30")
                    && narrow.contains("┏ Massage"), "whole titles and times:\n\(narrow)")
            #expect(lines.contains { $0.hasPrefix("       │Mon 4") && $0.hasSuffix("│Thu 7") }, "\(narrow)")
            #expect(lines.contains { $0.hasPrefix("       │Fri 8") && $0.hasSuffix("│Sun 10") }, "\(narrow)")

            // $COLUMNS as a terminal sets it: the whole week side by side, using all of it.
            let binary = try Locations.built("beautyctl")
            let wide = try await stack.run(
                binary, ["--socket", stack.socketPath, "calendar", "--week", "2030-03-04"],
                environment: ["COLUMNS": "150"])
            #expect(wide.status == .exited(0), "\(wide)")
            let wideLines = wide.stdout.split(separator: "\n").map(String.init)
            #expect(wideLines.contains { $0.hasPrefix("       │Mon 4") && $0.hasSuffix("│Sun 10") }, "\(wide.stdout)")
            #expect(wideLines.first { $0.hasPrefix("───────┼") }?.count == 150, "\(wide.stdout)")
        }
    }
}
