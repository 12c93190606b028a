import BeautyProtocol
import Foundation
import NIOCore

/// Turns away connections beyond `maximum` with one error line, so a flood of idle clients cannot
/// use up the daemon's file descriptors (which the database and the bus need too).
final class ConnectionLimit: @unchecked Sendable {
    let maximum: Int
    private let lock = NSLock()
    private var open = 0

    init(maximum: Int) {
        self.maximum = maximum
    }

    /// Counts a new connection in (until it closes), or says it is one too many.
    func admit(_ channel: Channel) -> Bool {
        let admitted = lock.withLock { () -> Bool in
            guard open < maximum else { return false }
            open += 1
            return true
        }
        if admitted {
            channel.closeFuture.whenComplete { _ in self.lock.withLock { self.open -= 1 } }
        }
        return admitted
    }

    /// The line a turned-away client reads before the connection closes.
    var refusal: Data {
        ConnectionHandler.failure(
            RPCErrorCode.busy,
            "busy: beautyd already serves \(maximum) connections (its maximum); close some and try again")
    }
}
