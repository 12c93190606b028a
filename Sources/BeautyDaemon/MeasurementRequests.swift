import BeautyCore
import BeautyProtocol
import Foundation

/// measure.add / measure.list / measure.clear / measure.chart.
extension RequestHandler {
    func measurements(_ method: Method, id: RPCID?, line: Data) async -> Data? {
        await call(id, line) { (_: NoParams) -> String in throw ValidationError(field: "method", "\(method.rawValue) is not implemented yet") }
    }
}
