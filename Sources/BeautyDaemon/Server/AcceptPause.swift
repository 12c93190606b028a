import Foundation
import Logging
import NIOCore

/// Stops accepting for a moment when accept fails for want of resources (EMFILE, ENFILE, ENOBUFS,
/// ENOMEM). The connection stays queued and the socket stays readable, so without a pause the
/// event loop retries at once, for ever, at 100 % CPU. NIO's `AcceptBackoffHandler` cannot help
/// here: it holds back `read()`, but a failed accept leaves the read pending and the socket
/// registered. Turning `autoRead` off unregisters it; it is turned on again after `pause`.
final class AcceptPause: ChannelInboundHandler {
    typealias InboundIn = Any

    private let pause: TimeAmount
    private let logger: Logger
    private var paused = false
    private var lastWarning: NIODeadline?

    init(pause: TimeAmount = .milliseconds(200), logger: Logger) {
        self.pause = pause
        self.logger = logger
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        guard let ioError = error as? IOError, [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(ioError.errnoCode) else {
            context.fireErrorCaught(error)
            return
        }
        guard !paused else { return }
        paused = true
        let now = NIODeadline.now()
        if lastWarning.map({ now - $0 >= .seconds(60) }) ?? true {
            lastWarning = now
            logger.warning(
                "cannot accept connections: \(ioError); pausing \(pause.nanoseconds / 1_000_000) ms between tries")
        }
        let channel = context.channel
        channel.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in }
        context.eventLoop.assumeIsolated().scheduleTask(in: pause) {
            self.paused = false
            channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
        }
    }
}
