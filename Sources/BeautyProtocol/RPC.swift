/// A method's name on the wire (`"appointment.add"`, mirroring the CLI), written once: in its `RPC` constant.
public struct Method: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    public var description: String { rawValue }

    /// Every method of the protocol, area by area.
    public static var allCases: [Method] { RPCTable.methods }
}

/// One method of the protocol with the types it carries: the client sends `Params` and gets `Result`,
/// the server decodes `Params` and answers `Result`. Both sides use the same constants (`AppointmentRPC.add`,
/// `ViewRPC.status`...), so a params or result type cannot drift from its method name.
public struct RPC<Params: Codable & Sendable, Result: Codable & Sendable>: Sendable {
    public let method: Method

    public init(_ method: Method) { self.method = method }
}

/// Every RPC constant's method, area by area (the method-table test wants each name once, each routed,
/// and no route outside it).
public enum RPCTable {
    public static let methods: [Method] =
        ViewRPC.methods + AppointmentRPC.methods + ContactRPC.methods + MedicationRPC.methods
        + MeasurementRPC.methods + TipRPC.methods + WaterRPC.methods + BudgetRPC.methods + BackupRPC.methods
        + SyncRPC.methods
}
