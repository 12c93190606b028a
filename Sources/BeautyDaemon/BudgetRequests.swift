import BeautyCore
import BeautyProtocol
import Foundation

/// budget.* and categories.
extension RequestHandler {
    func budget(_ method: Method, id: RPCID?, line: Data) async -> Data? {
        await call(id, line) { (_: NoParams) -> String in throw ValidationError(field: "method", "\(method.rawValue) is not implemented yet") }
    }

    /// Records the price of an appointment marked done as an expense (once per appointment).
    func recordExpense(for appointment: Appointment, at now: Date) throws {}
}
