/// One method of the protocol with the types it carries: the client sends `Params` and gets `Result`,
/// the server decodes `Params` and answers `Result`. Both sides use the same constants (`AppointmentRPC.add`,
/// `ViewRPC.status`...), so a params or result type cannot drift from its method name.
public struct RPC<Params: Codable & Sendable, Result: Codable & Sendable>: Sendable {
    public let method: Method

    public init(_ method: Method) { self.method = method }
}

/// Every RPC constant's method, area by area (the method-table test checks each `Method` appears exactly once).
public enum RPCTable {
    public static let methods: [Method] =
        ViewRPC.methods + AppointmentRPC.methods + ContactRPC.methods + MedicationRPC.methods
        + MeasurementRPC.methods + TipRPC.methods + WaterRPC.methods + BudgetRPC.methods + BackupRPC.methods
        + SyncRPC.methods
}
