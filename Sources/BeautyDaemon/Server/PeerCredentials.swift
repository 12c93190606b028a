import BeautyProtocol
import Foundation
import NIOCore

extension PeerCredentials {
    /// The peer's credentials (SO_PEERCRED), or nil when the channel is not a Unix socket.
    static func of(_ channel: Channel) -> EventLoopFuture<PeerCredentials?> {
        guard let provider = channel as? SocketOptionProvider else { return channel.eventLoop.makeSucceededFuture(nil) }
        let future: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return future.map { Optional($0) }.recover { _ in nil }
    }
}
