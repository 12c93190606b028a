import BeautyProtocol
import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// The JSON-RPC endpoint: a Unix stream socket bound here, or handed over by systemd.
public final class SocketServer: Service, @unchecked Sendable {
    public static let maximumLineLength = 1 << 20

    private let channel: Channel
    private let group: MultiThreadedEventLoopGroup
    private let ownedPath: String?
    private let logger: Logger

    /// Binds (or adopts `activationFD`) before the daemon reports ready, so no client sees a gap.
    public init(
        path: String, activationFD: Int32?, maximumConnections: Int, requests: RequestHandler, hub: EventHub,
        logger: Logger
    ) async throws {
        self.logger = logger
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let limit = ConnectionLimit(maximum: maximumConnections)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptPause(logger: logger))
                }
            }
            // A client that sends its requests and then shuts down its write side (`echo ... | socat`)
            // still gets its answers: EOF ends the request stream, not the connection.
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                guard limit.admit(channel) else {
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ConnectionLimit.Refusal(line: limit.refusal))
                    }
                }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers([
                        ByteToMessageHandler(BoundedLineDecoder(maximumLength: SocketServer.maximumLineLength)),
                        ConnectionHandler(requests: requests, hub: hub, logger: logger),
                    ])
                }
            }
        if let activationFD {
            channel = try await bootstrap.withBoundSocket(activationFD).get()
            ownedPath = nil
            logger.info("listening on the socket systemd passed (fd \(activationFD))")
        } else {
            guard path.utf8.count <= SocketLocation.maxPathBytes else {
                throw SocketPathError(path: path)
            }
            // The directory was checked and the instance lock is held (InstanceClaim), so a socket
            // file still here is stale: replace it.
            channel = try await bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true).get()
            chmod(path, 0o600)
            ownedPath = path
            logger.info("listening on \(path)")
        }
    }

    public func run() async throws {
        try? await gracefulShutdown()
        try? await channel.close()
        if let ownedPath { unlink(ownedPath) }
        try? await group.shutdownGracefully()
    }

    public struct SocketPathError: Error, CustomStringConvertible {
        public var path: String
        public var description: String {
            "socket path is longer than \(SocketLocation.maxPathBytes) bytes (a Unix socket limit): \(path)"
        }
    }
}
