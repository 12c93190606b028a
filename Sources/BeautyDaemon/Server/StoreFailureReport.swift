import BeautyCore
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
        // The message as a template too, its explanation a message of its own, so beautyctl shows it in its user's language.
        let explanation: TranslatableText.Argument = .message(fault.explanationText(path: databasePath))
        let text: TranslatableText
        let code: RPCErrorCode
        switch fault {
        case .locked:
            code = RPCErrorCode.databaseLocked
            text = TranslatableText(
                "database locked: %s (%s); try again once it lets go (beautyd retries reminders by itself)",
                [explanation, .plain(summary)])
        case .full:
            code = RPCErrorCode.diskFull
            text = TranslatableText(
                "disk full: %s (%s); free some space and try again", [explanation, .plain(summary)])
        case .damaged:
            code = RPCErrorCode.databaseDamaged
            text = TranslatableText(
                "database damaged: %s (%s); stop beautyd and recover it (README.md, \"A damaged database\")",
                [explanation, .plain(summary)])
        }
        rpcError = RPCErrorObject(
            code: code, message: text.english,
            data: RPCErrorData(text: text.text, args: text.args, argTexts: text.argTexts))
    }
}
