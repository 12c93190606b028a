import BeautyProtocol
import BeautyStore

/// How a failure that is not the request's fault reaches a client: a locked, full or damaged database
/// gets its own code; anything else is -32603. Always one short line, never SQL or a row's contents.
struct StoreFailureReport {
    let rpcError: RPCErrorObject

    init(_ error: any Error, databasePath: String) {
        let summary = DatabaseFault.summary(of: error)
        guard let fault = DatabaseFault(error) else {
            rpcError = RPCErrorObject(code: RPCErrorCode.internalError, message: "internal error: \(summary)")
            return
        }
        let explanation = fault.explanation(path: databasePath)
        switch fault {
        case .locked:
            rpcError = RPCErrorObject(code: RPCErrorCode.databaseLocked, message: """
                database locked: \(explanation) (\(summary)); try again once it lets go (beautyd retries reminders by itself)
                """)
        case .full:
            rpcError = RPCErrorObject(code: RPCErrorCode.diskFull, message: """
                disk full: \(explanation) (\(summary)); free some space and try again
                """)
        case .damaged:
            rpcError = RPCErrorObject(code: RPCErrorCode.databaseDamaged, message: """
                database damaged: \(explanation) (\(summary)); stop beautyd and recover it (README.md, "A damaged database")
                """)
        }
    }
}
