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

extension DatabaseRefusal {
    /// beautyd's exit status when it refuses a database: EX_NOPERM (77) for permissions, EX_DATAERR (65)
    /// for the file's contents. systemd is told not to restart on either: neither mends itself.
    var exitCode: Int32 {
        switch reason {
        case .notWritable: return 77
        case .empty, .damaged, .newerSchema: return 65
        }
    }
}
