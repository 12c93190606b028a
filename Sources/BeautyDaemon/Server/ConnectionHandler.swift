import BeautyProtocol
import Foundation
import Logging
import NIOCore

/// One client connection: refuses peers of another uid, then answers its request lines in order.
final class ConnectionHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = BoundedLineDecoder.Frame
    typealias OutboundOut = ByteBuffer

    private let requests: RequestHandler
    /// Numbers connections, so an import staged on one is visible to that one only.
    private static let connections = ConnectionCounter()
    private let hub: EventHub
    private let logger: Logger
    private var lines: AsyncStream<BoundedLineDecoder.Frame>.Continuation?

    /// Backpressure: a client that floods requests without reading its answers must not make the
    /// daemon buffer them without limit. Frames handed to `serve` but not taken yet are counted
    /// (on the event loop); above a high-water mark the channel stops reading from the socket until
    /// `serve` has caught up, so the kernel's socket buffer pushes back on the client.
    private var pendingFrames = 0
    private var pendingBytes = 0
    private var readingPaused = false
    static let pauseAtFrames = 256, resumeAtFrames = 32
    static let pauseAtBytes = 2 << 20, resumeAtBytes = 256 << 10

    init(requests: RequestHandler, hub: EventHub, logger: Logger) {
        self.requests = requests
        self.hub = hub
        self.logger = logger
    }

    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        let (stream, continuation) = AsyncStream<BoundedLineDecoder.Frame>.makeStream()
        lines = continuation
        var connectionRequests = self.requests
        connectionRequests.connection = Self.connections.next()
        let requests = connectionRequests, hub = self.hub, logger = self.logger
        PeerCredentials.of(channel).whenComplete { result in
            let peer = (try? result.get()) ?? nil
            // Each connection's jobs run on its own serial queue (see SerialQueueExecutor).
            Task(executorPreference: SerialQueueExecutor(label: "beautyd.connection")) {
                if let peer, peer.uid != getuid() {
                    logger.warning("refused a connection from uid \(peer.uid) (pid \(peer.pid))")
                    let refusal = RPCFailure(
                        id: nil,
                        error: RPCErrorObject(
                            code: RPCErrorCode.refused, message: "refused: beautyd serves only uid \(getuid())"))
                    try? await Self.write(try WireJSON.encoder().encode(refusal), to: channel)
                    try? await channel.close()
                    return
                }
                let taken: @Sendable (Int) -> Void = { [weak self] bytes in
                    channel.eventLoop.execute { self?.frameTaken(bytes: bytes, channel: channel) }
                }
                await Self.serve(stream, channel: channel, requests: requests, hub: hub, taken: taken)
            }
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        pendingFrames += 1
        pendingBytes += frame.size
        lines?.yield(frame)
        if !readingPaused, pendingFrames >= Self.pauseAtFrames || pendingBytes >= Self.pauseAtBytes {
            readingPaused = true
            context.channel.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in }
        }
    }

    /// `serve` took a frame (called on the event loop): resume reading once the backlog is small.
    private func frameTaken(bytes: Int, channel: Channel) {
        pendingFrames -= 1
        pendingBytes -= bytes
        if readingPaused, pendingFrames <= Self.resumeAtFrames, pendingBytes <= Self.resumeAtBytes {
            readingPaused = false
            channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
        }
    }

    /// The peer shut down its write side: answer what it sent, then close (see `serve`).
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event as? ChannelEvent == .some(.inputClosed) { lines?.finish() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        lines?.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        logger.debug("connection error: \(error)")
        context.close(promise: nil)
    }

    /// Answers lines one after another, so replies come back in the order requests were sent.
    private static func serve(
        _ frames: AsyncStream<BoundedLineDecoder.Frame>, channel: Channel,
        requests: RequestHandler, hub: EventHub, taken: @escaping @Sendable (Int) -> Void
    ) async {
        // Every way out (EOF, a hang-up, a subscription ending) drops what this connection staged.
        defer { requests.connectionClosed() }
        for await frame in frames {
            taken(frame.size)
            switch frame {
            case .tooLong:
                let error = RPCFailure(
                    id: nil,
                    error: RPCErrorObject(
                        code: RPCErrorCode.lineTooLong, message: "request line longer than 1 MiB; it was discarded"))
                try? await write(try WireJSON.encoder().encode(error), to: channel)
            case let .line(buffer):
                let bytes = Data(buffer.readableBytesView)
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }  // blank keep-alive lines
                var largeMessage = bytes.count >= Heap.largeMessageBytes  // an import, say
                switch await requests.handle(line: bytes) {
                case let .reply(answer):
                    if let answer {
                        try? await write(answer, to: channel)
                        largeMessage = largeMessage || answer.count >= Heap.largeMessageBytes
                    }
                case let .subscribe(ack):
                    try? await write(ack, to: channel)
                    await stream(hub.subscribe(), to: channel, until: frames, taken: taken)
                    return
                }
                if largeMessage { Heap.returnFreedMemory() }
            }
        }
        // Every line was answered and the peer sent EOF (or is gone): hang up.
        try? await channel.close()
    }

    /// Streams events to a `subscribe`r until it hangs up or shuts down its write side; lines it
    /// sends meanwhile are read and ignored.
    private static func stream(
        _ events: AsyncStream<DaemonEvent>, to channel: Channel,
        until frames: AsyncStream<BoundedLineDecoder.Frame>,
        taken: @escaping @Sendable (Int) -> Void
    ) async {
        let closed = Task { try? await channel.closeFuture.get() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in events {
                    guard let line = try? WireJSON.encoder().encode(RPCNotification(event: event)) else { continue }
                    do { try await write(line, to: channel) } catch { return }
                }
            }
            group.addTask { await closed.value }
            group.addTask { for await frame in frames { taken(frame.size) } }
            await group.next()
            try? await channel.close()
            group.cancelAll()
        }
    }

    private static func write(_ data: Data, to channel: Channel) async throws {
        var buffer = channel.allocator.buffer(capacity: data.count + 1)
        buffer.writeBytes(data)
        buffer.writeInteger(UInt8(ascii: "\n"))
        try await channel.writeAndFlush(buffer)
    }
}
