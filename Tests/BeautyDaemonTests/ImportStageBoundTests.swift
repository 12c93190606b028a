@testable import BeautyDaemon
import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

/// A staged import is bounded in appointments and in the memory they hold: past either, the chunk is
/// refused, the stage discarded and nothing written.
@Suite struct ImportStageBoundTests {
    static func line<P: Encodable & Sendable>(_ method: Method, _ params: P) throws -> Data {
        try WireJSON.encoder().encode(RPCRequest(id: .number(1), method: method.rawValue, params: params))
    }

    static func answer<R: Decodable>(_ handler: RequestHandler, _ line: Data, as: R.Type) async throws -> RPCResponse<R>
    {
        guard case let .reply(data?) = await handler.handle(line: line) else { throw HarnessError("no answer") }
        return try WireJSON.decoder().decode(RPCResponse<R>.self, from: data)
    }

    /// `notes` starting "kept:" are given as a kept iCalendar line instead (it counts like text).
    static func appointments(_ count: Int, from first: Int, notes: String? = nil) -> [Appointment] {
        (first..<(first + count)).map {
            let kept = notes?.hasPrefix("kept:") == true ? notes : nil
            return Appointment(
                title: "Visit \($0)", start: Date(timeIntervalSince1970: 1_924_992_000 + Double($0) * 86_400),
                notes: kept == nil ? notes : nil, uid: "bound-\($0)@example.org",
                extraProperties: kept.map { ["X-KEPT:\($0)"] } ?? [])
        }
    }

    @Test(
        "a chunk past the count or the text bound is refused, the stage discarded, nothing written",
        arguments: [
            (count: 2, notes: nil as String?), (count: 1, notes: "kept:" + String(repeating: "n", count: 900)),
            (count: 1, notes: String(repeating: "n", count: 900)),
        ])
    func boundRefusesAndDiscards(second: (count: Int, notes: String?)) async throws {
        let daemon = try await InProcessDaemon(
            now: Date(timeIntervalSince1970: 1_900_000_000),
            importLimits: .init(appointments: 3, bytes: 3 * MemoryLayout<Appointment>.stride + 800, openStages: 4))
        let handler = daemon.daemon.requests
        let begun = try await Self.answer(
            handler, try Self.line(AppointmentRPC.importBegin.method, NoParams()), as: AppointmentImportStage.self)
        let stage = try #require(begun.result?.stage)
        #expect(begun.result?.maxAppointments == 3)

        let first = AppointmentImportChunkParams(
            stage: stage, firstIndex: 0, appointments: Self.appointments(2, from: 0), contactNames: [])
        #expect(
            try await Self.answer(
                handler, try Self.line(AppointmentRPC.importChunk.method, first), as: AppointmentImportChunkResult.self
            )
            .result?.received == 2)
        let over = AppointmentImportChunkParams(
            stage: stage, firstIndex: 2, appointments: Self.appointments(second.count, from: 2, notes: second.notes),
            contactNames: [])
        let refused = try await Self.answer(
            handler, try Self.line(AppointmentRPC.importChunk.method, over), as: AppointmentImportChunkResult.self)
        #expect(refused.error?.data?.field == "appointments", "\(String(describing: refused.error))")
        #expect(refused.error?.message.contains("larger than a stage holds") == true)
        #expect(daemon.daemon.importStages.openCount == 0, "the refused stage still holds memory")

        let commit = try await Self.answer(
            handler, try Self.line(AppointmentRPC.importCommit.method, AppointmentImportStageParams(stage: stage)),
            as: AppointmentImportResult.self)
        #expect(commit.error?.data?.field == "stage")
        #expect(try daemon.store.appointments.count() == 0)
    }

    /// 44,000 EXDATEs an event in 1,200 chunks grew the daemon by 370 MB: the bound counted text only.
    @Test("the dates of EXDATE and RDATE lists count toward the bound")
    func exdatesCount() async throws {
        let daemon = try await InProcessDaemon(
            now: Date(timeIntervalSince1970: 1_900_000_000),
            importLimits: .init(appointments: 1_000, bytes: 1 << 20, openStages: 4))
        let handler = daemon.daemon.requests
        let begun = try await Self.answer(
            handler, try Self.line(AppointmentRPC.importBegin.method, NoParams()), as: AppointmentImportStage.self)
        let stage = try #require(begun.result?.stage)
        var series = Self.appointments(1, from: 0)[0]
        let days = (1...150_000).map { series.start.addingTimeInterval(Double($0) * 86_400) }
        series.recurrence = AppointmentRecurrence(
            rule: "FREQ=DAILY", exdates: Array(days[..<90_000]),
            rdates: Array(days[90_000...]).map { $0.addingTimeInterval(3_600) })
        #expect(ImportStages.heldBytes(of: series) > 1 << 20)

        let chunk = AppointmentImportChunkParams(stage: stage, firstIndex: 0, appointments: [series], contactNames: [])
        let refused = try await Self.answer(
            handler, try Self.line(AppointmentRPC.importChunk.method, chunk), as: AppointmentImportChunkResult.self)
        #expect(
            refused.error?.data?.field == "appointments",
            "\(String(describing: refused.error)) \(String(describing: refused.result))")
        #expect(daemon.daemon.importStages.openCount == 0, "the refused stage still holds memory")
    }
}
