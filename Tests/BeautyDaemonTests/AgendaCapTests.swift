import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

/// The agenda's cap on one series' expansion, through the request handler.
@Suite("Agenda in process: a series with more occurrences than one answer expands")
struct AgendaCapTests {
    @Test("a day and a year of a every-second series are both cut at the same instant, with where to go on")
    func cappedAgendaSaysWhereItStops() async throws {
        let now = instant("2030-01-15 09:00")
        let daemon = try await InProcessDaemon(now: now)
        let start = now.addingTimeInterval(86_400)
        var every = AppointmentAddParams(title: "Every second", start: start)
        every.durationSeconds = 1
        every.reminders = []
        every.recurrence = AppointmentRecurrence(rule: "FREQ=SECONDLY")
        _ = try await daemon.call(AppointmentRPC.add, every)
        var once = AppointmentAddParams(title: "Facial", start: start.addingTimeInterval(6 * 3600))
        once.reminders = []
        _ = try await daemon.call(AppointmentRPC.add, once)

        let cut = start.addingTimeInterval(TimeInterval(AppointmentOccurrences.limit - 1))
        for days in [1.0, 365] {
            var params = AgendaParams(from: start, to: start.addingTimeInterval(days * 86_400))
            params.limit = 3
            let answer = try await daemon.call(ViewRPC.agenda, params)
            #expect(answer.nextFrom == cut, "\(days) days: \(String(describing: answer.nextFrom))")
            // Everything before the cut, of every series and item, and nothing after it.
            #expect(answer.total == AppointmentOccurrences.limit - 1, "\(days) days: total \(answer.total)")
            #expect(answer.entries.map(\.start) == [start, start.addingTimeInterval(1), start.addingTimeInterval(2)])
        }

        // Going on from `nextFrom` brings what was cut, the one-off visit six hours later among it.
        var rest = AgendaParams(from: cut, to: start.addingTimeInterval(86_400))
        rest.search = "facial"
        let onward = try await daemon.call(ViewRPC.agenda, rest)
        #expect(onward.entries.map(\.title) == ["Facial"])
        #expect(onward.nextFrom == nil)
    }
}
