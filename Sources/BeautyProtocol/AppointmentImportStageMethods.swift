import BeautyCore
import Foundation

/// A staged import: `importBegin` opens a stage on this connection, `importChunk` adds appointments to
/// it in order (each request line stays under the 1 MiB limit), `importCommit` writes them all in one
/// transaction, `importAbort` (or closing the connection) discards them. Nothing is written before the commit.
public struct AppointmentImportStage: Codable, Sendable {
    public var stage: String
    /// The stage's bound: a chunk that would take it past either is refused and the stage discarded.
    public var maxAppointments: Int
    /// Bytes of the appointments' text (titles, notes, addresses, UIDs...), counted as UTF-8.
    public var maxTextBytes: Int
    /// The daemon's `maxAppointments`, known to beautyctl before it parses a file: a file with more
    /// events is refused before it is read whole.
    public static let standardMaxAppointments = 250_000
    public init(stage: String, maxAppointments: Int, maxTextBytes: Int) {
        self.stage = stage
        self.maxAppointments = maxAppointments
        self.maxTextBytes = maxTextBytes
    }
}

/// The next appointments of a stage. `firstIndex` is the index of the first of them in the whole import
/// (the number the stage already holds), so a lost or repeated chunk is refused rather than misplaced,
/// and errors name an appointment by its index in the whole import (`appointments[7012].title`).
public struct AppointmentImportChunkParams: Codable, Sendable {
    public var stage: String
    public var firstIndex: Int
    public var appointments: [Appointment]
    /// As in `appointment.import`: index-aligned with `appointments`, or empty.
    public var contactNames: [String?]
    /// As in `appointment.import`: the phones that go with `contactNames`; may be absent.
    public var contactPhones: [String?]?
    public init(
        stage: String, firstIndex: Int, appointments: [Appointment], contactNames: [String?],
        contactPhones: [String?]? = nil
    ) {
        self.stage = stage
        self.firstIndex = firstIndex
        self.appointments = appointments
        self.contactNames = contactNames
        self.contactPhones = contactPhones
    }
}

public struct AppointmentImportChunkResult: Codable, Sendable {
    /// Appointments the stage holds after this chunk.
    public var received: Int
    public init(received: Int) { self.received = received }
}

public struct AppointmentImportStageParams: Codable, Sendable {
    public var stage: String
    public init(stage: String) { self.stage = stage }
}

public struct AppointmentImportAbortResult: Codable, Sendable {
    /// Appointments the stage held, now discarded.
    public var discarded: Int
    public init(discarded: Int) { self.discarded = discarded }
}

extension AppointmentRPC {
    public static let importBegin = RPC<NoParams, AppointmentImportStage>("appointment.importBegin")
    public static let importChunk = RPC<AppointmentImportChunkParams, AppointmentImportChunkResult>(
        "appointment.importChunk")
    /// Writes the stage's appointments in one transaction and closes the stage, whatever the outcome.
    public static let importCommit = RPC<AppointmentImportStageParams, AppointmentImportResult>(
        "appointment.importCommit")
    public static let importAbort = RPC<AppointmentImportStageParams, AppointmentImportAbortResult>(
        "appointment.importAbort")

    static let stageMethods = [importBegin.method, importChunk.method, importCommit.method, importAbort.method]
}
