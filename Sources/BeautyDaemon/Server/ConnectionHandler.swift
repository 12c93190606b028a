import BeautyProtocol
import Foundation
import Logging
import NIOCore

/// One client connection: refuses peers of another uid, then answers its request lines in order.
///
/// Backpressure is NIOAsyncChannel's: its inbound stream stops reading from the socket while
/// `readAhead` lines wait to be answered, and its outbound writer waits while the channel is not
/// writable. A client that floods requests without reading its answers meets the kernel's socket
/// buffer, not a queue in the daemon's memory.
struct ConnectionHandler: Sendable {
    typealias Connection = NIOAsyncChannel<BoundedLineDecoder.Frame, ByteBuffer>
    typealias Lines = NIOAsyncChannelInboundStream<BoundedLineDecoder.Frame>.AsyncIterator
    typealias Answers = NIOAsyncChannelOutboundWriter<ByteBuffer>

    /// Lines read ahead of the one being answered: at most two lines of at most 1 MiB wait in memory
    /// (and what one read from the socket brings).
    static let readAhead = NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark(
        lowWatermark: 1, highWatermark: 2)

    /// Numbers connections, so an import staged on one is visible to that one only.
    private static let connections = ConnectionCounter()
    let requests: RequestHandler
    let hub: EventHub
    let logger: Logger

    /// Splits an accepted channel into request lines and wraps it (on its event loop).
    static func wrap(_ channel: Channel) throws -> Connection {
        try channel.pipeline.syncOperations.addHandler(
            ByteToMessageHandler(BoundedLineDecoder(maximumLength: SocketServer.maximumLineLength)))
        return try Connection(
            wrappingChannelSynchronously: channel, configuration: .init(backPressureStrategy: readAhead))
    }

    /// Serves `connection` until the client is done or gone, then closes it. With a `refusal` line
    /// (the daemon's connection limit), that line is all the client gets.
    func serve(_ connection: Connection, refusal: Data? = nil) async {
        let channel = connection.channel
        try? await connection.executeThenClose { lines, answers in
            let refusal = if let refusal { refusal } else { await refusalOfAnotherUser(on: channel) }
            if let refusal {
                try? await answers.write(Self.line(refusal))
            } else {
                await answer(lines.makeAsyncIterator(), to: answers, on: channel)
            }
            // Closing drops answers still queued in the channel: wait until the last one is written,
            // unless the daemon is stopping (a client that reads nothing would hold the stop).
            // A stop that begins while it waits closes the channel, which fails the wait.
            if !Task.isCancelled {
                await withTaskCancellationHandler {
                    try? await channel.writeAndFlush(ByteBuffer()).get()
                } onCancel: {
                    channel.close(promise: nil)
                }
            }
        }
    }

    /// The line that turns away a peer of another uid (SO_PEERCRED), nil for the user's own processes.
    private func refusalOfAnotherUser(on channel: Channel) async -> Data? {
        guard let peer = try? await PeerCredentials.of(channel).get(), peer.uid != getuid() else { return nil }
        logger.warning("refused a connection from uid \(peer.uid) (pid \(peer.pid))")
        return Self.failure(RPCErrorCode.refused, "refused: beautyd serves only uid \(getuid())")
    }

    /// Answers lines one after another, so replies come back in the order requests were sent.
    private func answer(_ lines: Lines, to answers: Answers, on channel: Channel) async {
        var lines = lines
        var requests = self.requests
        requests.connection = Self.connections.next()
        // Every way out (EOF, a hang-up, a subscription ending) drops what this connection staged.
        defer { requests.connectionClosed() }
        do {
            while let frame = try await lines.next() {
                switch frame {
                case .tooLong:
                    let error = Self.failure(
                        RPCErrorCode.lineTooLong, "request line longer than 1 MiB; it was discarded")
                    try? await answers.write(Self.line(error))
                case let .line(buffer):
                    let bytes = Data(buffer.readableBytesView)
                    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }  // blank keep-alive lines
                    var largeMessage = bytes.count >= Heap.largeMessageBytes  // an import, say
                    switch await requests.handle(line: bytes) {
                    case let .reply(answer):
                        if let answer {
                            try? await answers.write(Self.line(answer))
                            largeMessage = largeMessage || answer.count >= Heap.largeMessageBytes
                        }
                    case let .subscribe(ack):
                        try? await answers.write(Self.line(ack))
                        await Self.stream(hub.subscribe(), to: answers, closing: channel, while: &lines)
                        return
                    }
                    if largeMessage { Heap.returnFreedMemory() }
                }
            }
        } catch {
            logger.debug("connection error: \(error)")
        }
        // Every line was answered and the peer sent EOF (or is gone): the caller hangs up.
    }

    /// Streams events to a `subscribe`r until it hangs up or shuts down its write side; lines it
    /// sends meanwhile are read and ignored.
    private static func stream(
        _ events: AsyncStream<DaemonEvent>, to answers: Answers, closing channel: Channel, while lines: inout Lines
    ) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in events {
                    guard let line = try? WireJSON.encoder().encode(RPCNotification(event: event)) else { continue }
                    do { try await answers.write(Self.line(line)) } catch { break }
                }
                // The daemon is stopping or the client is gone: hang up, which ends the reading below.
                channel.close(promise: nil)
            }
            while (try? await lines.next()) != nil {}
            group.cancelAll()
        }
    }

    /// A JSON-RPC error line that answers no request (its id is null).
    static func failure(_ code: RPCErrorCode, _ message: String) -> Data {
        let failure = RPCFailure(id: nil, error: RPCErrorObject(code: code, message: message))
        return (try? WireJSON.encoder().encode(failure)) ?? Data()
    }

    private static func line(_ data: Data) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(data.count + 1)
        buffer.writeBytes(data)
        buffer.writeInteger(UInt8(ascii: "\n"))
        return buffer
    }
}
