import BeautyProtocol
import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// The JSON-RPC endpoint: a Unix stream socket bound here, or handed over by systemd.
public final class SocketServer: Service, @unchecked Sendable {
    public static let maximumLineLength = 1 << 20

    /// The listening socket; each connection it accepts comes with the refusal line it is to get
    /// instead of answers when it is one too many.
    private let listener: NIOAsyncChannel<(ConnectionHandler.Connection, refusal: Data?), Never>
    private let connection: ConnectionHandler
    private let group: MultiThreadedEventLoopGroup
    private let ownedPath: String?
    private let logger: Logger

    /// Binds (or adopts `activationFD`) before the daemon reports ready, so no client sees a gap.
    public init(
        path: String, activationFD: Int32?, maximumConnections: Int, requests: RequestHandler, hub: EventHub,
        logger: Logger
    ) async throws {
        self.logger = logger
        connection = ConnectionHandler(requests: requests, hub: hub, logger: logger)
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
        let accept: @Sendable (Channel) -> EventLoopFuture<(ConnectionHandler.Connection, refusal: Data?)> = {
            channel in
            channel.eventLoop.makeCompletedFuture {
                (try ConnectionHandler.wrap(channel), refusal: limit.admit(channel) ? nil : limit.refusal)
            }
        }
        if let activationFD {
            listener = try await bootstrap.bind(activationFD, childChannelInitializer: accept)
            ownedPath = nil
            logger.info("listening on the socket systemd passed (fd \(activationFD))")
        } else {
            guard path.utf8.count <= SocketLocation.maxPathBytes else {
                throw SocketPathError(path: path)
            }
            // The directory was checked and the instance lock is held (InstanceClaim), so a socket
            // file still here is stale: replace it.
            listener = try await bootstrap.bind(
                unixDomainSocketPath: path, cleanupExistingSocketFile: true, childChannelInitializer: accept)
            chmod(path, 0o600)
            ownedPath = path
            logger.info("listening on \(path)")
        }
    }

    /// Serves each connection in a task of its own until the daemon stops; then stops listening and
    /// hangs up on every client (cancelling ends what their tasks wait for on the socket).
    public func run() async throws {
        let listener = self.listener, connection = self.connection, logger = self.logger
        await withDiscardingTaskGroup { clients in
            await withGracefulShutdownHandler {
                do {
                    try await listener.executeThenClose { accepted in
                        for try await (client, refusal) in accepted {
                            // Each connection's jobs run on its own serial queue (see SerialQueueExecutor).
                            clients.addTask(executorPreference: SerialQueueExecutor(label: "beautyd.connection")) {
                                await connection.serve(client, refusal: refusal)
                            }
                        }
                    }
                } catch {
                    // AcceptPause and NIO's accept backoff keep socket errors away; this is anything else.
                    logger.error("stopped accepting connections: \(error)")
                }
            } onGracefulShutdown: {
                listener.channel.close(promise: nil)
            }
            if let ownedPath { unlink(ownedPath) }
            clients.cancelAll()
        }
        try? await group.shutdownGracefully()
    }

    public struct SocketPathError: Error, CustomStringConvertible {
        public var path: String
        public var description: String {
            "socket path is longer than \(SocketLocation.maxPathBytes) bytes (a Unix socket limit): \(path)"
        }
    }
}
