import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndBus {
    @Suite("Agenda: a series with more occurrences than one answer expands")
    struct AgendaCap {
        @Test("beautyctl says where a cut agenda stops and how to go on, also when filtered or paged to nothing")
        func cappedAgendaPrintsWhereToGoOn() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let start = tomorrowOnTheHour()
            var every = AppointmentAddParams(title: "Every second", start: start)
            every.durationSeconds = 1
            every.reminders = []
            every.recurrence = AppointmentRecurrence(rule: "FREQ=SECONDLY")
            let _: AppointmentDetail = try stack.client().call("appointment.add", every)
            var once = AppointmentAddParams(title: "Facial", start: start.addingTimeInterval(6 * 3600))
            once.reminders = []
            let _: AppointmentDetail = try stack.client().call("appointment.add", once)

            let cut = start.addingTimeInterval(TimeInterval(AppointmentOccurrences.limit - 1))

            // The hint gives the range's end too: a default or --days range would otherwise move with --from.
            let range = ["agenda", "--from", iso(start), "--to", iso(start.addingTimeInterval(86_400))]
            let onwardHint = "go on with --from '\(iso(cut))' --to '\(iso(start.addingTimeInterval(86_400)))'."
            let printed = try await stack.beautyctl(range + ["--limit", "1"])
            #expect(printed.stdout.contains("Cut short: ") && printed.stdout.contains(onwardHint), "\(printed)")

            // Filtered or paged to nothing, a capped answer says only the part before the cut was searched.
            for filter in [["--status", "done"], ["--offset", "100000"]] {
                let empty = try await stack.beautyctl(range + filter)
                #expect(empty.status == .exited(0), "\(filter): \(empty)")
                let lines = empty.stdout.split(separator: "\n")
                #expect(
                    lines.count == 1 && lines[0].hasPrefix("Nothing between ")
                        && lines[0].hasSuffix(
                            "(a series has more than \(AppointmentOccurrences.limit) occurrences in the range); \(onwardHint)"
                        ),
                    "\(filter): \(empty)")
            }
        }
    }
}
