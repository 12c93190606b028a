import NIOCore

/// Splits a byte stream into `\n`-terminated lines of at most `maximumLength` bytes.
/// NIOExtras' LineBasedFrameDecoder has no limit; here an over-long line is reported once and
/// skipped up to its newline, so the connection stays usable and memory stays bounded.
struct BoundedLineDecoder: ByteToMessageDecoder {
    enum Frame: Sendable, Equatable {
        case line(ByteBuffer)
        case tooLong
    }

    typealias InboundOut = Frame
    let maximumLength: Int
    private var discarding = false
    private var scanned = 0

    init(maximumLength: Int) { self.maximumLength = maximumLength }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        let start = view.startIndex + scanned
        if let newline = view[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let length = newline - view.startIndex
            scanned = 0
            if discarding {
                buffer.moveReaderIndex(forwardBy: length + 1)
                discarding = false
                return .continue
            }
            if length > maximumLength {
                buffer.moveReaderIndex(forwardBy: length + 1)
                context.fireChannelRead(wrapInboundOut(.tooLong))
                return .continue
            }
            var line = buffer.readSlice(length: length)!
            buffer.moveReaderIndex(forwardBy: 1)
            if line.readableBytes > 0, line.getInteger(at: line.writerIndex - 1, as: UInt8.self) == UInt8(ascii: "\r") {
                line.moveWriterIndex(to: line.writerIndex - 1)
            }
            context.fireChannelRead(wrapInboundOut(.line(line)))
            return .continue
        }
        if view.count > maximumLength {
            // Too long already: report it now, then drop bytes until the line ends.
            if !discarding { context.fireChannelRead(wrapInboundOut(.tooLong)) }
            discarding = true
            buffer.moveReaderIndex(forwardBy: view.count)
            scanned = 0
            return .needMoreData
        }
        scanned = view.count
        return .needMoreData
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
        -> DecodingState
    {
        // A final line without its newline is still a request.
        while try decode(context: context, buffer: &buffer) == .continue {}
        if buffer.readableBytes > 0, !discarding {
            let line = buffer.readSlice(length: buffer.readableBytes)!
            context.fireChannelRead(wrapInboundOut(.line(line)))
        }
        return .needMoreData
    }
}
