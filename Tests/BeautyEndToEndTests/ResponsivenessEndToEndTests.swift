import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

// One client's long request must not hold back another's. While a full-range agenda over 10,000
// appointments is being built for one connection (over a second in a debug build), new connections
// ask for `status` one after another. Measured against the agenda itself, not a fixed budget: each
// answer took ~13 ms with connections on their own queues, up to 400 ms (a third of the agenda)
// when they shared the event loops the agenda occupied.

extension EndToEndServing {
    @Suite("Responsiveness: a long request does not hold back other clients", .serialized)
    struct Responsiveness {
        @Test("while a 10,000-entry agenda is built, other clients are answered, none waiting a fifth of it")
        func statusAnsweredDuringALongAgenda() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let base = tomorrowOnTheHour()
            let client = try stack.client(timeout: 60)
            for chunk in 0..<5 {
                let appointments = (0..<2000).map { index in
                    let n = chunk * 2000 + index
                    return Appointment(
                        title: "Visit \(n)", start: base.addingTimeInterval(Double(n * 900)),
                        durationSeconds: 1800, uid: "busy-\(n)@beautyd-test")
                }
                let imported = try client.call(
                    "appointment.import",
                    AppointmentImportParams(
                        appointments: appointments, contactNames: Array(repeating: nil, count: appointments.count)),
                    as: AppointmentImportResult.self)
                try #require(imported.inserted == 2000)
            }

            let agendaAnswered = Moment()
            let request = try String(
                decoding: WireJSON.encoder().encode(
                    RPCRequest(
                        id: .number(1), method: "agenda",
                        params: AgendaParams(
                            from: base.addingTimeInterval(-86_400), to: base.addingTimeInterval(200 * 86_400)))),
                as: UTF8.self)
            // The long request's client is used on the reader thread only, after this hand-over.
            nonisolated(unsafe) let long = try stack.client(timeout: 60)
            let sent = Date()
            try long.send(line: request)
            Thread.detachNewThread {
                _ = try? long.readLine(); agendaAnswered.mark()
            }

            var answered = 0, slowest = 0.0
            while agendaAnswered.value == nil, Date() < sent.addingTimeInterval(60) {
                let asked = Date()
                #expect(try stack.client().status().pid == stack.daemon?.pid)
                slowest = max(slowest, Date().timeIntervalSince(asked))
                answered += 1
                // Not flat out: the suites running beside this one need the CPU too.
                try await Task.sleep(for: .milliseconds(10))
            }
            let finished = try #require(agendaAnswered.value, "the agenda was never answered\n\(stack.logs)")
            let building = finished.timeIntervalSince(sent)
            report(
                String(
                    format: "%d status answers while the agenda was built (%.0f ms), the slowest in %.1f ms",
                    answered, building * 1000, slowest * 1000))
            #expect(answered >= 20, "only \(answered) answers to other clients while the agenda was built")
            #expect(slowest < building / 5, "a status waited \(slowest) s of the agenda's \(building) s")
        }
    }
}

/// When something happened, set once from another thread.
private final class Moment: @unchecked Sendable {
    private let lock = NSLock()
    private var at: Date?
    func mark() { lock.withLock { at = Date() } }
    var value: Date? { lock.withLock { at } }
}
