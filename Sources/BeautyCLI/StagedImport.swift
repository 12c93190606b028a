import BeautyCore
import BeautyProtocol
import Foundation

/// Sends an import of any size as a staged import on one connection: importBegin, importChunk lines
/// cut by their encoded size (each well under the daemon's 1 MiB line limit), importCommit. The daemon
/// writes nothing before the commit, so a refused chunk or a lost connection imports nothing.
final class StagedImport {
    /// Lines aim at this size; one that comes out above `maximumLineBytes` is cut in two.
    static let targetLineBytes = 512 << 10
    static let maximumLineBytes = 1_000_000
    /// The longest request line the daemon reads (SocketServer.maximumLineLength); a longer one is
    /// discarded unread.
    static let daemonLineLimit = 1 << 20

    private let session: DaemonSession
    private let stage: String
    /// Appointments sent so far: the index in the whole import of the next one.
    private var sent = 0
    private var answered = 0
    private var perAppointment = 300  // bytes, refined from each chunk sent
    private var awaiting = false

    /// One appointment whose chunk alone is longer than a request line may be: the import cannot be sent.
    struct ItemTooLarge: Error {
        var index: Int
        var bytes: Int
    }

    /// Opens the stage.
    init(_ client: any RPCCalling) throws {
        session = try client.session()
        stage = try session.call(AppointmentRPC.importBegin, NoParams()).stage
    }

    /// Sends the next appointments (a file's part at a time, or all of it); `progress` is told how many
    /// appointments the daemon has received so far.
    func send(_ appointments: [Appointment], contactNames: [String?], contactPhones: [String?], progress: (Int) -> Void)
        throws
    {
        var done = 0
        while done < appointments.count {
            var count = max(1, min(appointments.count - done, Self.targetLineBytes / max(1, perAppointment)))
            var line = try chunkLine(appointments, contactNames, contactPhones, from: done, count: count)
            while line.count > Self.maximumLineBytes, count > 1 {
                count /= 2
                line = try chunkLine(appointments, contactNames, contactPhones, from: done, count: count)
            }
            // The daemon would discard the line unread and could not say which event it was.
            guard line.count < Self.daemonLineLimit else { throw ItemTooLarge(index: sent, bytes: line.count) }
            perAppointment = line.count / count + 1
            try session.send(line)
            sent += count
            done += count
            // One chunk in flight while the next is encoded: both sides work at once.
            if awaiting { answered = try session.receive(AppointmentImportChunkResult.self).received }
            awaiting = true
            progress(answered)
        }
    }

    /// Writes everything sent, in one transaction.
    func commit(progress: (Int) -> Void) throws -> AppointmentImportResult {
        if awaiting { answered = try session.receive(AppointmentImportChunkResult.self).received }
        awaiting = false
        progress(answered)
        return try session.call(AppointmentRPC.importCommit, AppointmentImportStageParams(stage: stage))
    }

    private func chunkLine(
        _ appointments: [Appointment], _ contactNames: [String?], _ contactPhones: [String?],
        from first: Int, count: Int
    ) throws -> Data {
        let range = first..<(first + count)
        return try session.line(
            AppointmentRPC.importChunk,
            AppointmentImportChunkParams(
                stage: stage, firstIndex: sent, appointments: Array(appointments[range]),
                contactNames: Array(contactNames[range]), contactPhones: Array(contactPhones[range])))
    }
}
